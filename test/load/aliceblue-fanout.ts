// Bench: one signal to N live Alice Blue accounts at the Alice Blue fake (in its own process), through the shared
// broker fan-out (brokerFanout.ts). Each account has its own session, adapter and NOREN order socket, where its
// fills come back.
import type { BenchResult } from '../../engine/bench/types';
import { encodeAliceTokens } from '../../server/src/brokers/aliceblue/login';
import { aliceblueModuleAt } from '../brokers/aliceblueHarness';
import { brokerFanoutOnce, FANOUT_LTP, fanoutReport, type FanoutResult } from './brokerFanout';
import { startAliceFakeProcess } from './aliceblueFakeProcess';

async function until(check: () => Promise<boolean>, what: string, ms = 120_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Runs one fan-out: one signal through the trading runtime to `accounts` live accounts. */
export function aliceFanoutOnce(accounts: number): Promise<FanoutResult> {
  return brokerFanoutOnce(async () => {
    const fake = await startAliceFakeProcess({ autoFillPrice: FANOUT_LTP });
    const module = aliceblueModuleAt(fake);
    const list = Array.from({ length: accounts }, (_, i) => ({
      userId: `B${String(i).padStart(6, '0')}`,
      appCode: `benchapp${i}`,
      apiSecret: '',
      name: `Trader ${i}`,
    }));
    const sessions = await fake.addAccounts(list);
    return {
      accounts: list.map((account, i) => {
        const session = {
          accessToken: encodeAliceTokens({ userId: account.userId, userSession: sessions[i] ?? '' }),
          expiresAt: 0,
          accountId: account.userId,
          accountName: account.name,
        };
        return {
          accountId: account.userId,
          broker: module.createBroker({ credentials: { apiKey: account.appCode, apiSecret: '' }, session }),
        };
      }),
      isPlacement: (method, url) => method === 'POST' && url.endsWith('/placeOrder/executePlaceOrder'),
      ready: () => until(async () => (await fake.stats()).orderSockets >= accounts, 'every order socket'),
      stats: () => fake.stats(),
      close: () => fake.close(),
    };
  });
}

/** `npm run bench -- aliceblue`: one fan-out to 1,000 accounts, figures for the bench report. */
export async function runBrokerFanoutBench(): Promise<BenchResult> {
  return fanoutReport(
    'signal → 1,000 live Alice Blue accounts at the Alice Blue fake (loopback HTTP, one session, adapter and NOREN order socket each)',
    await aliceFanoutOnce(1_000),
    [
      'entries go as protected LIMIT orders (no market orders from algos); the fake fills each at once and pushes the fill as an order message on the account’s NOREN socket, read by the real adapter',
    ],
  );
}
