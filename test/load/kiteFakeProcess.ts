// The Kite fake in a process of its own, for benchmarks: the real Kite runs on other machines, so the fake's work
// (parsing 1,000 orders, filling them, sending 1,000 signed postbacks) must not be counted on the event loop whose
// send and persist times are being measured. The parent drives it over IPC: register apps (each answered with a
// fresh session token), read the fake's request and fill times, close.
//   parent: const fake = await startKiteFakeProcess({ autoFillPrice: 120 })
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startKiteFake, type KiteFakeApp } from '../fakes/kite/server';

type Ask = { type: 'apps'; apps: KiteFakeApp[] } | { type: 'stats' } | { type: 'close' };
type Command = Ask & { id: number };

export interface KiteFakeStats {
  readonly orderRequestTimes: readonly number[];
  readonly orderRequestsByUser: ReadonlyMap<string, readonly number[]>;
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

/** Forks this file as the fake's process; resolves once it listens. */
export async function startKiteFakeProcess(options: { autoFillPrice: number }): Promise<KiteFakeProcess> {
  const child: ChildProcess = fork(
    fileURLToPath(import.meta.url),
    ['--child', String(options.autoFillPrice)],
    {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    },
  );
  const waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let nextId = 0;
  // A fake that dies fails every question still waiting for it, rather than leaving the bench hanging.
  child.once('exit', (code) => {
    for (const { reject } of waiting.values())
      reject(new Error(`the Kite fake process exited (${String(code)})`));
    waiting.clear();
  });
  const ready = new Promise<{ url: string; wsUrl: string }>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the Kite fake process exited (${String(code)})`)));
    child.on(
      'message',
      (message: { id?: number; ready?: { url: string; wsUrl: string }; result?: unknown }) => {
        if (message.ready !== undefined) resolve(message.ready);
        else if (message.id !== undefined) {
          waiting.get(message.id)?.resolve(message.result);
          waiting.delete(message.id);
        }
      },
    );
  });
  const ask = <T>(command: Ask): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      nextId += 1;
      waiting.set(nextId, { resolve: (value) => resolve(value as T), reject });
      child.send({ ...command, id: nextId });
    });
  const { url, wsUrl } = await ready;
  return {
    url,
    wsUrl,
    addApps: (apps) => ask<string[]>({ type: 'apps', apps: [...apps] }),
    stats: async () => {
      const raw = await ask<{ times: number[]; byUser: [string, number[]][]; lastFillAt: number }>({
        type: 'stats',
      });
      return {
        orderRequestTimes: raw.times,
        orderRequestsByUser: new Map(raw.byUser),
        lastFillAt: raw.lastFillAt,
      };
    },
    close: async () => {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.send({ type: 'close', id: 0 });
      await exited;
    },
  };
}

async function runChild(autoFillPrice: number): Promise<void> {
  const fake = await startKiteFake({ autoFillPrice });
  const reply = (id: number, result: unknown) => process.send?.({ id, result });
  process.on('message', (command: Command) => {
    if (command.type === 'apps') {
      reply(
        command.id,
        command.apps.map((app) => {
          fake.addApp(app);
          return fake.issueSession(app.apiKey);
        }),
      );
    } else if (command.type === 'stats') {
      reply(command.id, {
        times: fake.orderRequestTimes,
        byUser: [...fake.orderRequestsByUser],
        lastFillAt: fake.lastFillAt,
      });
    } else {
      void fake.close().then(() => process.exit(0));
    }
  });
  process.send?.({ ready: { url: fake.url, wsUrl: fake.wsUrl } });
}

if (process.argv[2] === '--child') await runChild(Number(process.argv[3]));
