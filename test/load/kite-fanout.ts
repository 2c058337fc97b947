// Bench: one signal to N live Zerodha accounts at the Kite fake (in its own process), through the shared broker
// fan-out (brokerFanout.ts). Fills come back as signed postbacks through the server's real postback route and hub.
import type { BenchResult } from '../../engine/bench/types';
import { startKitePostbackEndpoint, zerodhaModuleAt } from '../brokers/kiteHarness';
import { brokerFanoutOnce, FANOUT_LTP, fanoutReport, type FanoutResult } from './brokerFanout';
import { startKiteFakeProcess } from './kiteFakeProcess';

export { maxInWindow } from './brokerFanout';

/** Runs one fan-out: one signal through the trading runtime to `accounts` live accounts. */
export function kiteFanoutOnce(accounts: number): Promise<FanoutResult> {
  return brokerFanoutOnce(async () => {
    const fake = await startKiteFakeProcess({ autoFillPrice: FANOUT_LTP });
    const module = zerodhaModuleAt(fake);
    const endpoint = await startKitePostbackEndpoint(module.postbacks);
    const apps = Array.from({ length: accounts }, (_, i) => ({
      apiKey: `key${i}`,
      apiSecret: `secret${i}`,
      userId: `ZX${String(i).padStart(4, '0')}`,
      userName: `Trader ${i}`,
      redirectUrl: 'http://127.0.0.1:9/broker/zerodha/callback',
      postbackUrl: endpoint.url,
    }));
    const tokens = await fake.addApps(apps);
    return {
      accounts: apps.map((app, i) => ({
        accountId: app.userId,
        broker: module.createBroker({
          credentials: app,
          session: { accessToken: tokens[i] ?? '', expiresAt: 0, accountId: app.userId, accountName: '' },
        }),
      })),
      isPlacement: (method, url) => method === 'POST' && url.endsWith('/orders/regular'),
      stats: () => fake.stats(),
      async close() {
        await endpoint.close();
        await fake.close();
      },
    };
  });
}

/** `npm run bench -- kite`: one fan-out to 1,000 accounts, figures for the bench report. */
export async function runBrokerFanoutBench(): Promise<BenchResult> {
  return fanoutReport(
    'signal → 1,000 live Zerodha accounts at the Kite fake (loopback HTTP, one session and adapter each)',
    await kiteFanoutOnce(1_000),
    [
      'the fake fills each order as soon as it answers and sends a signed postback; it goes through the real postback route, hub and adapter',
      'an adapter call with no answer in 10 s counts as a timeout (the order is then resolved by asking the fake), so a starved machine shows fewer entries placed',
    ],
  );
}
