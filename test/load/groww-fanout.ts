// Bench: one signal to N live Groww accounts at the Groww fake (in its own process), through the shared broker
// fan-out (brokerFanout.ts). Each account has its own access token, adapter and Groww socket; its fills come back
// pushed on the socket (the order list is read only while a socket is down).
import type { BenchResult } from '../../engine/bench/types';
import { growwModuleAt } from '../brokers/growwHarness';
import { brokerFanoutOnce, FANOUT_LTP, fanoutReport, type FanoutResult } from './brokerFanout';
import { startGrowwFakeProcess } from './growwFakeProcess';

/** Runs one fan-out: one signal through the trading runtime to `accounts` live accounts. */
export function growwFanoutOnce(accounts: number): Promise<FanoutResult> {
  return brokerFanoutOnce(async () => {
    const fake = await startGrowwFakeProcess({ autoFillPrice: FANOUT_LTP });
    const module = growwModuleAt(fake);
    const list = Array.from({ length: accounts }, (_, i) => ({
      apiKey: `benchkey${i}`,
      apiSecret: `benchsecret${i}`,
      totpSecret: 'JBSWY3DPEHPK3PXP',
      ucc: String(500_000 + i),
    }));
    const tokens = await fake.addAccounts(list);
    return {
      accounts: list.map((account, i) => ({
        accountId: account.ucc,
        broker: module.createBroker({
          credentials: { apiKey: account.apiKey, apiSecret: account.apiSecret },
          session: { accessToken: tokens[i] ?? '', expiresAt: 0, accountId: account.ucc, accountName: '' },
        }),
      })),
      isPlacement: (method, url) => method === 'POST' && url.endsWith('/v1/order/create'),
      // Every account's order socket signed in before the signal, as in production (a minute to get ready).
      ready: async () => {
        const deadline = Date.now() + 120_000;
        while ((await fake.stats()).orderSockets < accounts) {
          if (Date.now() > deadline) throw new Error('timed out waiting for every order socket');
          await new Promise((r) => setTimeout(r, 50));
        }
      },
      stats: () => fake.stats(),
      close: () => fake.close(),
    };
  });
}

/** `npm run bench -- groww`: one fan-out to 1,000 accounts, figures for the bench report. */
export async function runBrokerFanoutBench(): Promise<BenchResult> {
  return fanoutReport(
    'signal → 1,000 live Groww accounts at the Groww fake (loopback HTTP, one access token and adapter each)',
    await growwFanoutOnce(1_000),
    [
      'entries go as protected LIMIT orders (no market orders from algos); the fake fills each at once and pushes the fill on the account’s socket (NATS over WebSocket, one per account), where the adapter sees it',
    ],
  );
}
