// Wiring of the Angel One module to a running Angel fake for cross-package tests and the bench: the module with
// every ANGELONE_* endpoint at the fake, an account, and the daily form login done as the dialog would (client
// code, MPIN and the current TOTP of the account's secret).
import { angeloneModule, type AngelOneModuleOptions } from '../../server/src/brokers/angelone';
import type { BrokerModule, BrokerSession } from '../../server/src/brokers/types';
import type { AngelFakeAccount } from '../fakes/angelone/server';
import { totp } from '../fakes/angelone/totp';

/** A trader at the fake; the TOTP secret is base32, as Angel's "Enable TOTP" page shows it. */
export const ANGEL_ACCOUNT: AngelFakeAccount = {
  apiKey: 'angelkey01',
  clientCode: 'A123456',
  mpin: '4321',
  totpSecret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
  name: 'Asha Rao',
};

/** The module with its endpoints at the fake. */
export function angeloneModuleAt(
  fake: { endpoints: { apiRoot: string; loginUrl: string; wsRoot: string; masterRoot: string } },
  options: AngelOneModuleOptions & { egressIp?: string } = {},
): BrokerModule {
  const { egressIp, ...moduleOptions } = options;
  return angeloneModule(
    {
      endpoints: fake.endpoints,
      algoTag: 'OPALGO',
      now: () => Date.now(),
      ...(egressIp === undefined ? {} : { egressIp }),
    },
    moduleOptions,
  );
}

/** Logs the account in through the module's form login. */
export async function angelFormLogin(
  module: BrokerModule,
  account: AngelFakeAccount = ANGEL_ACCOUNT,
): Promise<{ credentials: { apiKey: string; apiSecret: string }; session: BrokerSession }> {
  const credentials = { apiKey: account.apiKey, apiSecret: 'angelsecret01' };
  const session = await module.formLogin!.complete({
    credentials,
    values: { clientCode: account.clientCode, mpin: account.mpin, totp: totp(account.totpSecret) },
  });
  return { credentials, session };
}
