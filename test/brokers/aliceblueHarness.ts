// Wiring of the Alice Blue module to a running Alice Blue fake for cross-package tests and the bench: the module
// with every ALICEBLUE_* endpoint at the fake, an account, and the vendor login done as the browser would (the
// login page's redirect followed, its `authCode` and `userId` handed to the module).
import { aliceblueModule, type AliceBlueModuleOptions } from '../../server/src/brokers/aliceblue';
import type { BrokerModule, BrokerSession } from '../../server/src/brokers/types';
import type { AliceFakeAccount } from '../fakes/aliceblue/server';

/** A trader at the fake. */
export const ALICE_ACCOUNT: AliceFakeAccount = {
  userId: 'AB1234',
  appCode: 'APPCODE01',
  apiSecret: 'alicesecret01',
  name: 'Meera Iyer',
  redirectUrl: 'http://127.0.0.1:9/broker/aliceblue/callback',
};

/** The module with its endpoints at the fake. */
export function aliceblueModuleAt(
  fake: { endpoints: { apiRoot: string; loginUrl: string; wsRoot: string; masterRoot: string } },
  options: AliceBlueModuleOptions = {},
): BrokerModule {
  return aliceblueModule({ endpoints: fake.endpoints, algoTag: 'OPALGO', now: () => Date.now() }, options);
}

/** Logs the account in through the module's redirect login against the fake's login page. */
export async function aliceRedirectLogin(
  module: BrokerModule,
  account: AliceFakeAccount = ALICE_ACCOUNT,
): Promise<{ credentials: { apiKey: string; apiSecret: string }; session: BrokerSession }> {
  const credentials = { apiKey: account.appCode, apiSecret: account.apiSecret };
  const login = module.redirectLogin!;
  const url = login.url({ credentials, state: 'state-1', redirectUri: account.redirectUrl ?? '' });
  const answer = await fetch(url, { redirect: 'manual' });
  const back = new URL(answer.headers.get('location') ?? '');
  const query = Object.fromEntries(back.searchParams);
  const session = await login.complete({ credentials, query, redirectUri: account.redirectUrl ?? '' });
  return { credentials, session };
}
