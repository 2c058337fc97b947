// The Fyers fake in a process of its own, for benchmarks (IPC: fakeProcess.ts): the fake's work (parsing 1,000
// orders, filling them, pushing 1,000 order-socket messages) stays off the event loop being measured. The parent
// registers apps (each answered with a fresh session token), reads the fake's request and fill times, closes.
//   parent: const fake = await startFyersFakeProcess({ autoFillPrice: 120 })
import { fileURLToPath } from 'node:url';
import { startFyersFake, type FyersFakeApp } from '../fakes/fyers/server';
import { fakeChildFillPrice, forkFakeProcess, serveFakeProcess } from './fakeProcess';

export interface FyersFakeStats {
  readonly orderRequestTimes: readonly number[];
  readonly orderRequestsByUser: ReadonlyMap<string, readonly number[]>;
  readonly lastFillAt: number;
  /** order sockets subscribed at the fake */
  readonly orderSockets: number;
}

export interface FyersFakeProcess {
  readonly endpoints: { apiRoot: string; loginUrl: string; wsRoot: string; masterRoot: string };
  /** registers the apps; resolves with one session token per app, in order */
  addApps(apps: readonly FyersFakeApp[]): Promise<string[]>;
  stats(): Promise<FyersFakeStats>;
  close(): Promise<void>;
}

interface RawStats {
  times: number[];
  byUser: [string, number[]][];
  lastFillAt: number;
  sockets: number;
}

/** Forks this file as the fake's process; resolves once it listens. */
export async function startFyersFakeProcess(options: { autoFillPrice: number }): Promise<FyersFakeProcess> {
  const fake = await forkFakeProcess<FyersFakeProcess['endpoints']>(
    fileURLToPath(import.meta.url),
    'Fyers',
    options.autoFillPrice,
  );
  return {
    endpoints: fake.ready,
    addApps: (apps) => fake.ask<string[]>({ type: 'apps', apps: [...apps] }),
    stats: async () => {
      const raw = await fake.ask<RawStats>({ type: 'stats' });
      return {
        orderRequestTimes: raw.times,
        orderRequestsByUser: new Map(raw.byUser),
        lastFillAt: raw.lastFillAt,
        orderSockets: raw.sockets,
      };
    },
    close: () => fake.close(),
  };
}

async function runChild(autoFillPrice: number): Promise<void> {
  const fake = await startFyersFake({ autoFillPrice });
  serveFakeProcess(
    fake.endpoints,
    (command): string[] | RawStats => {
      if (command.type === 'apps') {
        return (command.apps as FyersFakeApp[]).map((app) => {
          fake.addApp(app);
          return fake.issueSession(app.appId);
        });
      }
      return {
        times: fake.orderRequests.times,
        byUser: [...fake.orderRequests.byClient],
        lastFillAt: fake.lastFillAt,
        sockets: fake.orderSocket.connections,
      };
    },
    () => fake.close(),
  );
}

const childPrice = fakeChildFillPrice();
if (childPrice !== undefined) await runChild(childPrice);
