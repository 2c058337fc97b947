// The Alice Blue fake in a process of its own, for benchmarks (IPC and the stats it reports: fakeProcess.ts): the
// fake's work (parsing 1,000 orders, filling them, pushing 2,000 order messages) stays off the event loop being
// measured. The parent registers accounts, each answered with a fresh user session.
//   parent: const fake = await startAliceFakeProcess({ autoFillPrice: 120 })
import { fileURLToPath } from 'node:url';
import { startAliceFake, type AliceFakeAccount } from '../fakes/aliceblue/server';
import {
  fakeChildFillPrice,
  serveBrokerFake,
  startBrokerFakeProcess,
  type BrokerFakeProcess,
} from './fakeProcess';

export type AliceFakeProcess = BrokerFakeProcess<AliceFakeAccount, string>;

/** Forks this file as the fake's process; resolves once it listens. */
export function startAliceFakeProcess(options: { autoFillPrice: number }): Promise<AliceFakeProcess> {
  return startBrokerFakeProcess(fileURLToPath(import.meta.url), 'Alice Blue', options.autoFillPrice);
}

async function runChild(autoFillPrice: number): Promise<void> {
  const fake = await startAliceFake({ autoFillPrice });
  serveBrokerFake(fake, {
    register: (account: AliceFakeAccount) => {
      fake.addAccount(account);
      return fake.issueSession(account.userId);
    },
    orderSockets: () => fake.sockets.orderConnections(),
  });
}

const childPrice = fakeChildFillPrice();
if (childPrice !== undefined) await runChild(childPrice);
