// The Kite fake in a process of its own, for benchmarks (IPC: fakeProcess.ts): the fake's work (parsing 1,000
// orders, filling them, sending 1,000 signed postbacks) stays off the event loop being measured. The parent
// registers apps (each answered with a fresh session token), reads the fake's request and fill times, closes.
//   parent: const fake = await startKiteFakeProcess({ autoFillPrice: 120 })
import { fileURLToPath } from 'node:url';
import { startKiteFake, type KiteFakeApp } from '../fakes/kite/server';
import { fakeChildFillPrice, forkFakeProcess, serveFakeProcess } from './fakeProcess';

export interface KiteFakeStats {
  readonly orderRequestTimes: readonly number[];
  readonly orderRequestsByAccount: ReadonlyMap<string, readonly number[]>;
  readonly lastFillAt: number;
}

export interface KiteFakeProcess {
  readonly url: string;
  readonly wsUrl: string;
  /** registers the apps; resolves with one session token per app, in order */
  addApps(apps: readonly KiteFakeApp[]): Promise<string[]>;
  stats(): Promise<KiteFakeStats>;
  close(): Promise<void>;
}

interface RawStats {
  times: number[];
  byUser: [string, number[]][];
  lastFillAt: number;
}

/** Forks this file as the fake's process; resolves once it listens. */
export async function startKiteFakeProcess(options: { autoFillPrice: number }): Promise<KiteFakeProcess> {
  const fake = await forkFakeProcess<{ url: string; wsUrl: string }>(
    fileURLToPath(import.meta.url),
    'Kite',
    options.autoFillPrice,
  );
  return {
    ...fake.ready,
    addApps: (apps) => fake.ask<string[]>({ type: 'apps', apps: [...apps] }),
    stats: async () => {
      const raw = await fake.ask<RawStats>({ type: 'stats' });
      return {
        orderRequestTimes: raw.times,
        orderRequestsByAccount: new Map(raw.byUser),
        lastFillAt: raw.lastFillAt,
      };
    },
    close: () => fake.close(),
  };
}

async function runChild(autoFillPrice: number): Promise<void> {
  const fake = await startKiteFake({ autoFillPrice });
  serveFakeProcess(
    { url: fake.url, wsUrl: fake.wsUrl },
    (command): string[] | RawStats => {
      if (command.type === 'apps') {
        return (command.apps as KiteFakeApp[]).map((app) => {
          fake.addApp(app);
          return fake.issueSession(app.apiKey);
        });
      }
      return {
        times: fake.orderRequests.times,
        byUser: [...fake.orderRequests.byClient],
        lastFillAt: fake.lastFillAt,
      };
    },
    () => fake.close(),
  );
}

const childPrice = fakeChildFillPrice();
if (childPrice !== undefined) await runChild(childPrice);
