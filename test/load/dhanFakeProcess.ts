// The Dhan fake in a process of its own, for benchmarks (IPC and the stats it reports: fakeProcess.ts): the fake's
// work (parsing 1,000 orders, filling them, pushing 2,000 order alerts) stays off the event loop being measured.
// The parent registers accounts, each answered with a fresh access token.
//   parent: const fake = await startDhanFakeProcess({ autoFillPrice: 120 })
import { fileURLToPath } from 'node:url';
import { startDhanFake, type DhanFakeAccount } from '../fakes/dhan/server';
import {
  fakeChildFillPrice,
  serveBrokerFake,
  startBrokerFakeProcess,
  type BrokerFakeProcess,
} from './fakeProcess';

export type DhanFakeProcess = BrokerFakeProcess<DhanFakeAccount, string>;

/** Forks this file as the fake's process; resolves once it listens. */
export function startDhanFakeProcess(options: { autoFillPrice: number }): Promise<DhanFakeProcess> {
  return startBrokerFakeProcess(fileURLToPath(import.meta.url), 'Dhan', options.autoFillPrice);
}

async function runChild(autoFillPrice: number): Promise<void> {
  const fake = await startDhanFake({ autoFillPrice });
  serveBrokerFake(fake, {
    register: (account: DhanFakeAccount) => {
      fake.addAccount(account);
      return fake.issueToken(account.clientId);
    },
    orderSockets: () => fake.sockets.orderConnections(),
  });
}

const childPrice = fakeChildFillPrice();
if (childPrice !== undefined) await runChild(childPrice);
