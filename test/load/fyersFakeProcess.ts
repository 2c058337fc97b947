// The Fyers fake in a process of its own, for benchmarks: the real Fyers runs on other machines, so the fake's work
// (parsing 1,000 orders, filling them, pushing 1,000 order-socket messages) must not be counted on the event loop
// whose send and persist times are being measured. The parent drives it over IPC: register apps (each answered with
// a fresh session token), read the fake's request and fill times, close.
//   parent: const fake = await startFyersFakeProcess({ autoFillPrice: 120 })
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startFyersFake, type FyersFakeApp } from '../fakes/fyers/server';

type Ask = { type: 'apps'; apps: FyersFakeApp[] } | { type: 'stats' } | { type: 'close' };
type Command = Ask & { id: number };

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

/** Forks this file as the fake's process; resolves once it listens. */
export async function startFyersFakeProcess(options: { autoFillPrice: number }): Promise<FyersFakeProcess> {
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
      reject(new Error(`the Fyers fake process exited (${String(code)})`));
    waiting.clear();
  });
  type Endpoints = FyersFakeProcess['endpoints'];
  const ready = new Promise<Endpoints>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the Fyers fake process exited (${String(code)})`)));
    child.on('message', (message: { id?: number; ready?: Endpoints; result?: unknown }) => {
      if (message.ready !== undefined) resolve(message.ready);
      else if (message.id !== undefined) {
        waiting.get(message.id)?.resolve(message.result);
        waiting.delete(message.id);
      }
    });
  });
  const ask = <T>(command: Ask): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      nextId += 1;
      waiting.set(nextId, { resolve: (value) => resolve(value as T), reject });
      child.send({ ...command, id: nextId });
    });
  const endpoints = await ready;
  return {
    endpoints,
    addApps: (apps) => ask<string[]>({ type: 'apps', apps: [...apps] }),
    stats: async () => {
      const raw = await ask<{
        times: number[];
        byUser: [string, number[]][];
        lastFillAt: number;
        sockets: number;
      }>({
        type: 'stats',
      });
      return {
        orderRequestTimes: raw.times,
        orderRequestsByUser: new Map(raw.byUser),
        lastFillAt: raw.lastFillAt,
        orderSockets: raw.sockets,
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
  const fake = await startFyersFake({ autoFillPrice });
  const reply = (id: number, result: unknown) => process.send?.({ id, result });
  process.on('message', (command: Command) => {
    if (command.type === 'apps') {
      reply(
        command.id,
        command.apps.map((app) => {
          fake.addApp(app);
          return fake.issueSession(app.appId);
        }),
      );
    } else if (command.type === 'stats') {
      reply(command.id, {
        times: fake.orderRequestTimes,
        byUser: [...fake.orderRequestsByUser],
        lastFillAt: fake.lastFillAt,
        sockets: fake.orderSocket.connections,
      });
    } else {
      void fake.close().then(() => process.exit(0));
    }
  });
  process.send?.({ ready: fake.endpoints });
}

if (process.argv[2] === '--child') await runChild(Number(process.argv[3]));
