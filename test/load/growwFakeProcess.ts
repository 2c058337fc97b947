// The Groww fake in a process of its own, for benchmarks (IPC and the stats it reports: fakeProcess.ts): the fake's
// work (parsing 1,000 orders, filling them, pushing the fills on the accounts' sockets) stays off the event loop
// being measured. The parent registers accounts, each answered with a fresh access token.
//   parent: const fake = await startGrowwFakeProcess({ autoFillPrice: 120 })
import { fileURLToPath } from 'node:url';
import { startGrowwFake, type GrowwFakeAccount } from '../fakes/groww/server';
import {
  fakeChildFillPrice,
  serveBrokerFake,
  startBrokerFakeProcess,
  type BrokerFakeProcess,
} from './fakeProcess';

export type GrowwFakeProcess = BrokerFakeProcess<GrowwFakeAccount, string>;

/** Forks this file as the fake's process; resolves once it listens. */
export function startGrowwFakeProcess(options: { autoFillPrice: number }): Promise<GrowwFakeProcess> {
  return startBrokerFakeProcess(fileURLToPath(import.meta.url), 'Groww', options.autoFillPrice);
}

async function runChild(autoFillPrice: number): Promise<void> {
  const fake = await startGrowwFake({ autoFillPrice });
  // The fake's request log would grow all run long: the bench reads none of it.
  const trim = setInterval(() => {
    fake.requests.length = 0;
  }, 1_000);
  serveBrokerFake(fake, {
    register: (account: GrowwFakeAccount) => {
      fake.addAccount(account);
      return fake.issueToken(account.apiKey);
    },
    orderSockets: () => fake.socket.connections,
    close: () => {
      clearInterval(trim);
      return fake.close();
    },
  });
}

const childPrice = fakeChildFillPrice();
if (childPrice !== undefined) await runChild(childPrice);
