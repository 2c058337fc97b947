// Bench: one signal to N live Angel One accounts at the Angel fake (in its own process), through the shared broker
// fan-out (brokerFanout.ts). Each account has its own session, adapter and order-status WebSocket, where its fills
// come back.
import type { BenchResult } from '../../engine/bench/types';
import { encodeAngelTokens } from '../../server/src/brokers/angelone/session';
import { angeloneModuleAt } from '../brokers/angeloneHarness';
import { brokerFanoutOnce, FANOUT_LTP, fanoutReport, type FanoutResult } from './brokerFanout';
import { startAngelFakeProcess } from './angeloneFakeProcess';

async function until(check: () => Promise<boolean>, what: string, ms = 120_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Runs one fan-out: one signal through the trading runtime to `accounts` live accounts. */
export function angelFanoutOnce(accounts: number): Promise<FanoutResult> {
  return brokerFanoutOnce(async () => {
    const fake = await startAngelFakeProcess({ autoFillPrice: FANOUT_LTP });
    const module = angeloneModuleAt(fake);
    const list = Array.from({ length: accounts }, (_, i) => ({
      apiKey: `benchkey${i}`,
      clientCode: `B${String(i).padStart(6, '0')}`,
      mpin: '1234',
      totpSecret: 'JBSWY3DPEHPK3PXP',
      name: `Trader ${i}`,
    }));
    const sessions = await fake.addAccounts(list);
    return {
      accounts: list.map((account, i) => {
        const issued = sessions[i] ?? { jwt: '', feedToken: '' };
        const session = {
          accessToken: encodeAngelTokens({ ...issued, clientCode: account.clientCode }),
          expiresAt: 0,
          accountId: account.clientCode,
          accountName: account.name,
        };
        return {
          accountId: account.clientCode,
          broker: module.createBroker({ credentials: { apiKey: account.apiKey, apiSecret: '' }, session }),
        };
      }),
      isPlacement: (method, url) => method === 'POST' && url.endsWith('/order/v1/placeOrder'),
      ready: () =>
        until(async () => (await fake.stats()).orderSockets >= accounts, 'every order-status socket'),
      stats: () => fake.stats(),
      close: () => fake.close(),
    };
  });
}

/** `npm run bench -- angelone`: one fan-out to 1,000 accounts, figures for the bench report. */
export async function runBrokerFanoutBench(): Promise<BenchResult> {
  return fanoutReport(
    'signal → 1,000 live Angel One accounts at the Angel fake (loopback HTTP, one session, adapter and order-status socket each)',
    await angelFanoutOnce(1_000),
    [
      'entries go as protected LIMIT orders (Angel takes no market orders from algos); the fake fills each at once and pushes the fill on the account’s order-status WebSocket, read by the real adapter',
    ],
  );
}
