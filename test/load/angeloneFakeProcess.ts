// The Angel One fake in a process of its own, for benchmarks (IPC: fakeProcess.ts): the fake's work (parsing 1,000
// orders, filling them, pushing 2,000 order-status messages) stays off the event loop being measured. The parent
// registers accounts (each answered with a fresh session), reads the fake's request and fill times and socket
// count, closes.
//   parent: const fake = await startAngelFakeProcess({ autoFillPrice: 120 })
import { fileURLToPath } from 'node:url';
import { startAngelFake, type AngelFakeAccount } from '../fakes/angelone/server';
import { fakeChildFillPrice, forkFakeProcess, serveFakeProcess } from './fakeProcess';

export interface AngelFakeStats {
  readonly orderRequestTimes: readonly number[];
  readonly orderRequestsByClient: ReadonlyMap<string, readonly number[]>;
  readonly lastFillAt: number;
  /** open order-status sockets */
  readonly orderConnections: number;
}

export interface AngelFakeProcess {
  readonly endpoints: { apiRoot: string; loginUrl: string; wsRoot: string; masterRoot: string };
  /** registers the accounts; resolves with one session per account, in order */
  addAccounts(accounts: readonly AngelFakeAccount[]): Promise<Array<{ jwt: string; feedToken: string }>>;
  stats(): Promise<AngelFakeStats>;
  close(): Promise<void>;
}

interface RawStats {
  times: number[];
  byClient: [string, number[]][];
  lastFillAt: number;
  orderConnections: number;
}

/** Forks this file as the fake's process; resolves once it listens. */
export async function startAngelFakeProcess(options: { autoFillPrice: number }): Promise<AngelFakeProcess> {
  const fake = await forkFakeProcess<AngelFakeProcess['endpoints']>(
    fileURLToPath(import.meta.url),
    'Angel',
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
        orderConnections: raw.orderConnections,
      };
    },
    close: () => fake.close(),
  };
}

async function runChild(autoFillPrice: number): Promise<void> {
  const fake = await startAngelFake({ autoFillPrice });
  serveFakeProcess(
    fake.endpoints,
    (command): Array<{ jwt: string; feedToken: string }> | RawStats => {
      if (command.type === 'accounts') {
        return (command.accounts as AngelFakeAccount[]).map((account) => {
          fake.addAccount(account);
          const { jwt, feedToken } = fake.issueSession(account.clientCode);
          return { jwt, feedToken };
        });
      }
      return {
        times: fake.orderRequests.times,
        byClient: [...fake.orderRequests.byClient],
        lastFillAt: fake.lastFillAt,
        orderConnections: fake.sockets.orderConnections(),
      };
    },
    () => fake.close(),
  );
}

const childPrice = fakeChildFillPrice();
if (childPrice !== undefined) await runChild(childPrice);
