// The Groww fake in a process of its own, for benchmarks (IPC: fakeProcess.ts): the fake's work (parsing 1,000
// orders, filling them, pushing the fills on the accounts' sockets) stays off the event loop being measured. The parent
// registers accounts (each answered with a fresh access token), reads the fake's request and fill times, closes.
//   parent: const fake = await startGrowwFakeProcess({ autoFillPrice: 120 })
import { fileURLToPath } from 'node:url';
import { startGrowwFake, type GrowwFakeAccount } from '../fakes/groww/server';
import { fakeChildFillPrice, forkFakeProcess, serveFakeProcess } from './fakeProcess';

export interface GrowwFakeStats {
  readonly orderRequestTimes: readonly number[];
  readonly orderRequestsByClient: ReadonlyMap<string, readonly number[]>;
  readonly lastFillAt: number;
  /** socket connections signed in so far (one order socket per account) */
  readonly orderConnections: number;
}

export interface GrowwFakeProcess {
  readonly endpoints: { apiRoot: string; loginUrl: string; wsRoot: string; masterRoot: string };
  /** registers the accounts; resolves with one access token per account, in order */
  addAccounts(accounts: readonly GrowwFakeAccount[]): Promise<string[]>;
  stats(): Promise<GrowwFakeStats>;
  close(): Promise<void>;
}

interface RawStats {
  times: number[];
  byClient: [string, number[]][];
  lastFillAt: number;
  connections: number;
}

/** Forks this file as the fake's process; resolves once it listens. */
export async function startGrowwFakeProcess(options: { autoFillPrice: number }): Promise<GrowwFakeProcess> {
  const fake = await forkFakeProcess<GrowwFakeProcess['endpoints']>(
    fileURLToPath(import.meta.url),
    'Groww',
    options.autoFillPrice,
  );
  return {
    endpoints: fake.ready,
    addAccounts: (accounts) => fake.ask({ type: 'accounts', accounts: [...accounts] }),
    stats: async () => {
      const raw = await fake.ask<RawStats>({ type: 'stats' });
      return {
        orderRequestTimes: raw.times,
        orderRequestsByClient: new Map(raw.byClient),
        lastFillAt: raw.lastFillAt,
        orderConnections: raw.connections,
      };
    },
    close: () => fake.close(),
  };
}

async function runChild(autoFillPrice: number): Promise<void> {
  const fake = await startGrowwFake({ autoFillPrice });
  // The fake's request log would grow all run long: the bench reads none of it.
  const trim = setInterval(() => {
    fake.requests.length = 0;
  }, 1_000);
  serveFakeProcess(
    fake.endpoints,
    (command): string[] | RawStats => {
      if (command.type === 'accounts') {
        return (command.accounts as GrowwFakeAccount[]).map((account) => {
          fake.addAccount(account);
          return fake.issueToken(account.apiKey);
        });
      }
      return {
        times: fake.orderRequests.times,
        byClient: [...fake.orderRequests.byClient],
        lastFillAt: fake.lastFillAt,
        connections: fake.socket.connections,
      };
    },
    () => {
      clearInterval(trim);
      return fake.close();
    },
  );
}

const childPrice = fakeChildFillPrice();
if (childPrice !== undefined) await runChild(childPrice);
