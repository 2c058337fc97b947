// Bench: one signal to N live Dhan accounts at the Dhan fake (in its own process), through the shared broker
// fan-out (brokerFanout.ts). Each account has its own token, adapter and order update WebSocket, where its fills
// come back.
import type { BenchResult } from '../../engine/bench/types';
import { encodeDhanTokens } from '../../server/src/brokers/dhan';
import { dhanModuleAt } from '../brokers/dhanHarness';
import { eventually } from '../brokers/waiting';
import { brokerFanoutOnce, FANOUT_LTP, fanoutReport, type FanoutResult } from './brokerFanout';
import { startDhanFakeProcess } from './dhanFakeProcess';

/** Runs one fan-out: one signal through the trading runtime to `accounts` live accounts. */
export function dhanFanoutOnce(accounts: number): Promise<FanoutResult> {
  return brokerFanoutOnce(async () => {
    const fake = await startDhanFakeProcess({ autoFillPrice: FANOUT_LTP });
    const module = dhanModuleAt(fake);
    const list = Array.from({ length: accounts }, (_, i) => ({
      clientId: String(1_300_000_000 + i),
      name: `Trader ${i}`,
      appId: `benchapp${i}`,
      appSecret: 'bench-secret',
    }));
    const tokens = await fake.addAccounts(list);
    return {
      accounts: list.map((account, i) => {
        const session = {
          accessToken: encodeDhanTokens({ accessToken: tokens[i] ?? '', clientId: account.clientId }),
          expiresAt: 0,
          accountId: account.clientId,
          accountName: account.name,
        };
        const credentials = { apiKey: `${account.clientId}:${account.appId}`, apiSecret: account.appSecret };
        return { accountId: account.clientId, broker: module.createBroker({ credentials, session }) };
      }),
      isPlacement: (method, url) => method === 'POST' && url.endsWith('/v2/orders'),
      ready: () =>
        eventually(
          async () => (await fake.stats()).orderSockets >= accounts,
          'every order update socket',
          120_000,
        ),
      stats: () => fake.stats(),
      close: () => fake.close(),
    };
  });
}

/** `npm run bench -- dhan`: one fan-out to 1,000 accounts, figures for the bench report. */
export async function runBrokerFanoutBench(): Promise<BenchResult> {
  return fanoutReport(
    'signal → 1,000 live Dhan accounts at the Dhan fake (loopback HTTP, one token, adapter and order update socket each)',
    await dhanFanoutOnce(1_000),
    [
      'entries go as protected LIMIT orders by security id; the fake fills each at once and pushes the fill on the account’s order update WebSocket, read by the real adapter',
    ],
  );
}
