// The Angel One fake in a process of its own, for benchmarks (IPC and the stats it reports: fakeProcess.ts): the
// fake's work (parsing 1,000 orders, filling them, pushing the order-status messages) stays off the event loop being
// measured. The parent registers accounts, each answered with a fresh session (JWT and feed token).
//   parent: const fake = await startAngelFakeProcess({ autoFillPrice: 120 })
import { fileURLToPath } from 'node:url';
import { startAngelFake, type AngelFakeAccount } from '../fakes/angelone/server';
import {
  fakeChildFillPrice,
  serveBrokerFake,
  startBrokerFakeProcess,
  type BrokerFakeProcess,
} from './fakeProcess';

export type AngelFakeProcess = BrokerFakeProcess<AngelFakeAccount, { jwt: string; feedToken: string }>;

/** Forks this file as the fake's process; resolves once it listens. */
export function startAngelFakeProcess(options: { autoFillPrice: number }): Promise<AngelFakeProcess> {
  return startBrokerFakeProcess(fileURLToPath(import.meta.url), 'Angel One', options.autoFillPrice);
}

async function runChild(autoFillPrice: number): Promise<void> {
  const fake = await startAngelFake({ autoFillPrice });
  serveBrokerFake(fake, {
    register: (account: AngelFakeAccount) => {
      fake.addAccount(account);
      const { jwt, feedToken } = fake.issueSession(account.clientCode);
      return { jwt, feedToken };
    },
    orderSockets: () => fake.sockets.orderConnections(),
  });
}

const childPrice = fakeChildFillPrice();
if (childPrice !== undefined) await runChild(childPrice);
