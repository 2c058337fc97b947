// Wiring of the Dhan module to a running Dhan fake for cross-package tests and the bench: the module with every
// DHAN_* endpoint at the fake, an account, and either login done as the trader would (the pasted token, or the
// consent flow through the fake's login page and back).
import { dhanModule, type DhanModuleOptions } from '../../server/src/brokers/dhan';
import type { BrokerModule, BrokerSession } from '../../server/src/brokers/types';
import type { DhanFake, DhanFakeAccount } from '../fakes/dhan/server';

export const DHAN_REDIRECT = 'http://127.0.0.1:1/broker/dhan/callback';

/** A trader at the fake with an API app whose redirect URL is OptionPilot's callback. */
export const DHAN_ACCOUNT: DhanFakeAccount = {
  clientId: '1000000001',
  name: 'Meera Iyer',
  appId: 'dhanapp01',
  appSecret: 'dhansecret01',
  redirectUrl: DHAN_REDIRECT,
};

/** The credentials as saved on the Broker Connection card: `<client id>:<API key>` and the secret. */
export const dhanCredentials = (account: DhanFakeAccount = DHAN_ACCOUNT) => ({
  apiKey: `${account.clientId}:${account.appId}`,
  apiSecret: account.appSecret,
});

export function dhanModuleAt(
  fake: { endpoints: { apiRoot: string; loginUrl: string; wsRoot: string; masterRoot: string } },
  options: DhanModuleOptions & { egressIp?: string } = {},
): BrokerModule {
  const { egressIp, ...moduleOptions } = options;
  return dhanModule(
    {
      endpoints: fake.endpoints,
      algoTag: 'OPALGO',
      now: () => Date.now(),
      ...(egressIp === undefined ? {} : { egressIp }),
    },
    moduleOptions,
  );
}

/** The pasted-token login with a token the fake issued for the account. */
export async function dhanTokenLogin(
  module: BrokerModule,
  fake: DhanFake,
  account: DhanFakeAccount = DHAN_ACCOUNT,
): Promise<{ credentials: { apiKey: string; apiSecret: string }; session: BrokerSession }> {
  const credentials = dhanCredentials(account);
  const session = await module.formLogin!.complete({
    credentials,
    values: { clientId: account.clientId, accessToken: fake.issueToken(account.clientId) },
  });
  return { credentials, session };
}

/** The consent login: generate, the browser at Dhan's page (followed by hand), consume. */
export async function dhanConsentLogin(
  module: BrokerModule,
  account: DhanFakeAccount = DHAN_ACCOUNT,
): Promise<{ credentials: { apiKey: string; apiSecret: string }; session: BrokerSession }> {
  const credentials = dhanCredentials(account);
  const login = module.redirectLogin!;
  const url = await login.start!({ credentials, state: 'unused', redirectUri: DHAN_REDIRECT });
  const page = await fetch(url, { redirect: 'manual' });
  const back = new URL(page.headers.get('location') ?? '');
  const query = Object.fromEntries(back.searchParams);
  const session = await login.complete({ credentials, query, redirectUri: DHAN_REDIRECT });
  return { credentials, session };
}
