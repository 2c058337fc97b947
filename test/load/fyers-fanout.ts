// Bench: one signal to N live Fyers accounts at the Fyers fake (in its own process), through the shared broker
// fan-out (brokerFanout.ts). Each account has its own session, adapter and order socket, where its fills come back.
import type { BenchResult } from '../../engine/bench/types';
import { fyersModule } from '../../server/src/brokers/fyers';
import { brokerFanoutOnce, FANOUT_LTP, fanoutReport, type FanoutResult } from './brokerFanout';
import { startFyersFakeProcess } from './fyersFakeProcess';

/** Runs one fan-out: one signal through the trading runtime to `accounts` live accounts. */
export function fyersFanoutOnce(accounts: number): Promise<FanoutResult> {
  return brokerFanoutOnce(async () => {
    const fake = await startFyersFakeProcess({ autoFillPrice: FANOUT_LTP });
    const module = fyersModule({ endpoints: fake.endpoints, algoTag: 'OPALGO', now: () => Date.now() });
    const apps = Array.from({ length: accounts }, (_, i) => ({
      appId: `FYB${String(i).padStart(4, '0')}-100`,
      secret: `secret${i}`,
      fyId: `XB${String(i).padStart(5, '0')}`,
      name: `Trader ${i}`,
      redirectUrl: 'http://127.0.0.1:9/broker/fyers/callback',
    }));
    const tokens = await fake.addAccounts(apps);
    return {
      accounts: apps.map((app, i) => ({
        accountId: app.fyId,
        broker: module.createBroker({
          credentials: { apiKey: app.appId, apiSecret: app.secret },
          session: { accessToken: tokens[i] ?? '', expiresAt: 0, accountId: app.fyId, accountName: '' },
        }),
      })),
      isPlacement: (method, url) => method === 'POST' && url.endsWith('/api/v3/orders/sync'),
      async ready() {
        const by = Date.now() + 60_000;
        while ((await fake.stats()).orderSockets < accounts) {
          if (Date.now() > by) throw new Error('the order sockets did not all open');
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      },
      stats: () => fake.stats(),
      close: () => fake.close(),
    };
  });
}

/** `npm run bench -- fyers`: one fan-out to 1,000 accounts, figures for the bench report. */
export async function runBrokerFanoutBench(): Promise<BenchResult> {
  return fanoutReport(
    'signal → 1,000 live Fyers accounts at the Fyers fake (loopback HTTP, one session, adapter and order socket each)',
    await fyersFanoutOnce(1_000),
    [
      'the fake fills each order as soon as it answers and pushes the fill on the account’s order socket (1,000 sockets open); it goes through the real adapter',
    ],
  );
}
