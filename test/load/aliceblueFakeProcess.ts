// The Alice Blue fake in a process of its own, for benchmarks (IPC: fakeProcess.ts): the fake's work (parsing 1,000
// orders, filling them, pushing 2,000 order messages) stays off the event loop being measured. The parent registers
// accounts (each answered with a fresh user session), reads the fake's request and fill times and order-socket
// count, closes.
//   parent: const fake = await startAliceFakeProcess({ autoFillPrice: 120 })
import { fileURLToPath } from 'node:url';
import { startAliceFake, type AliceFakeAccount } from '../fakes/aliceblue/server';
import { fakeChildFillPrice, forkFakeProcess, serveFakeProcess } from './fakeProcess';

export interface AliceFakeStats {
  readonly orderRequestTimes: readonly number[];
  readonly orderRequestsByUser: ReadonlyMap<string, readonly number[]>;
  readonly lastFillAt: number;
  /** sockets subscribed to their account's orders */
  readonly orderConnections: number;
}

export interface AliceFakeProcess {
  readonly endpoints: { apiRoot: string; loginUrl: string; wsRoot: string; masterRoot: string };
  /** registers the accounts; resolves with one user session per account, in order */
  addAccounts(accounts: readonly AliceFakeAccount[]): Promise<string[]>;
  stats(): Promise<AliceFakeStats>;
  close(): Promise<void>;
}

interface RawStats {
  times: number[];
  byUser: [string, number[]][];
  lastFillAt: number;
  orderConnections: number;
}

/** Forks this file as the fake's process; resolves once it listens. */
export async function startAliceFakeProcess(options: { autoFillPrice: number }): Promise<AliceFakeProcess> {
  const fake = await forkFakeProcess<AliceFakeProcess['endpoints']>(
    fileURLToPath(import.meta.url),
    'Alice Blue',
    options.autoFillPrice,
  );
  return {
    endpoints: fake.ready,
    addAccounts: (accounts) => fake.ask({ type: 'accounts', accounts: [...accounts] }),
    stats: async () => {
      const raw = await fake.ask<RawStats>({ type: 'stats' });
      return {
        orderRequestTimes: raw.times,
        orderRequestsByUser: new Map(raw.byUser),
        lastFillAt: raw.lastFillAt,
        orderConnections: raw.orderConnections,
      };
    },
    close: () => fake.close(),
  };
}

async function runChild(autoFillPrice: number): Promise<void> {
  const fake = await startAliceFake({ autoFillPrice });
  serveFakeProcess(
    fake.endpoints,
    (command): string[] | RawStats => {
      if (command.type === 'accounts') {
        return (command.accounts as AliceFakeAccount[]).map((account) => {
          fake.addAccount(account);
          return fake.issueSession(account.userId);
        });
      }
      return {
        times: fake.orderRequests.times,
        byUser: [...fake.orderRequests.byClient],
        lastFillAt: fake.lastFillAt,
        orderConnections: fake.sockets.orderConnections(),
      };
    },
    () => fake.close(),
  );
}

const childPrice = fakeChildFillPrice();
if (childPrice !== undefined) await runChild(childPrice);
