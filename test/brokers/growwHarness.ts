// Wiring of the Groww module to a running Groww fake for cross-package tests, the demo and the bench: the module
// with every GROWW_* endpoint at the fake, an account, and the daily form login done as the dialog would (the
// current TOTP of the key, or empty for the approval flow).
import { growwModule, type GrowwModuleOptions } from '../../server/src/brokers/groww';
import type { BrokerModule, BrokerSession } from '../../server/src/brokers/types';
import type { GrowwFakeAccount } from '../fakes/groww/server';
import { totp } from '../fakes/angelone/totp';

/** A trader at the fake; the TOTP secret is base32, as an authenticator's QR code carries it. */
export const GROWW_ACCOUNT: GrowwFakeAccount = {
  apiKey: 'eyJraWQiOiJncm93d2tleTAx',
  apiSecret: 'growwsecret01',
  totpSecret: 'KRSXG5CTMVRXEZLUKN2XAZLSKNSWG4TF',
  ucc: '924189',
};

/** The module with its endpoints at the fake. */
export function growwModuleAt(
  fake: { endpoints: { apiRoot: string; loginUrl: string; wsRoot: string; masterRoot: string } },
  options: GrowwModuleOptions & { egressIp?: string } = {},
): BrokerModule {
  const { egressIp, ...moduleOptions } = options;
  return growwModule(
    {
      endpoints: fake.endpoints,
      algoTag: 'OPALGO',
      now: () => Date.now(),
      ...(egressIp === undefined ? {} : { egressIp }),
    },
    moduleOptions,
  );
}

/** Logs the account in through the module's form login: by TOTP (default) or by approval (empty TOTP). */
export async function growwFormLogin(
  module: BrokerModule,
  account: GrowwFakeAccount = GROWW_ACCOUNT,
  flow: 'totp' | 'approval' = 'totp',
): Promise<{ credentials: { apiKey: string; apiSecret: string }; session: BrokerSession }> {
  const credentials = { apiKey: account.apiKey, apiSecret: account.apiSecret };
  const session = await module.formLogin!.complete({
    credentials,
    values: { totp: flow === 'totp' ? totp(account.totpSecret) : '' },
  });
  return { credentials, session };
}
