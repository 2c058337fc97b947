// The Fyers fake in a process of its own, for benchmarks (IPC and the stats it reports: fakeProcess.ts): the fake's
// work (parsing 1,000 orders, filling them, pushing 1,000 order-socket messages) stays off the event loop being
// measured. The parent registers apps, each answered with a fresh session token.
//   parent: const fake = await startFyersFakeProcess({ autoFillPrice: 120 })
import { fileURLToPath } from 'node:url';
import { startFyersFake, type FyersFakeApp } from '../fakes/fyers/server';
import {
  fakeChildFillPrice,
  serveBrokerFake,
  startBrokerFakeProcess,
  type BrokerFakeProcess,
} from './fakeProcess';

export type FyersFakeProcess = BrokerFakeProcess<FyersFakeApp, string>;

/** Forks this file as the fake's process; resolves once it listens. */
export function startFyersFakeProcess(options: { autoFillPrice: number }): Promise<FyersFakeProcess> {
  return startBrokerFakeProcess(fileURLToPath(import.meta.url), 'Fyers', options.autoFillPrice);
}

async function runChild(autoFillPrice: number): Promise<void> {
  const fake = await startFyersFake({ autoFillPrice });
  serveBrokerFake(fake, {
    register: (app: FyersFakeApp) => {
      fake.addApp(app);
      return fake.issueSession(app.appId);
    },
    orderSockets: () => fake.orderSocket.connections,
  });
}

const childPrice = fakeChildFillPrice();
if (childPrice !== undefined) await runChild(childPrice);
