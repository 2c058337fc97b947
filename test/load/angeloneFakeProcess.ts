// The Angel One fake in a process of its own, for benchmarks: the real Angel runs on other machines, so the fake's
// work (parsing 1,000 orders, filling them, pushing 2,000 order-status messages) must not be counted on the event
// loop whose send and persist times are being measured. The parent drives it over IPC: register accounts (each
// answered with a fresh session), read the fake's request and fill times and socket count, close.
//   parent: const fake = await startAngelFakeProcess({ autoFillPrice: 120 })
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startAngelFake, type AngelFakeAccount } from '../fakes/angelone/server';

type Ask = { type: 'accounts'; accounts: AngelFakeAccount[] } | { type: 'stats' } | { type: 'close' };
type Command = Ask & { id: number };

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

/** Forks this file as the fake's process; resolves once it listens. */
export async function startAngelFakeProcess(options: { autoFillPrice: number }): Promise<AngelFakeProcess> {
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
      reject(new Error(`the Angel fake process exited (${String(code)})`));
    waiting.clear();
  });
  const ready = new Promise<AngelFakeProcess['endpoints']>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the Angel fake process exited (${String(code)})`)));
    child.on(
      'message',
      (message: { id?: number; ready?: AngelFakeProcess['endpoints']; result?: unknown }) => {
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
  const endpoints = await ready;
  return {
    endpoints,
    addAccounts: (accounts) => ask({ type: 'accounts', accounts: [...accounts] }),
    stats: async () => {
      const raw = await ask<{
        times: number[];
        byClient: [string, number[]][];
        lastFillAt: number;
        orderConnections: number;
      }>({
        type: 'stats',
      });
      return {
        orderRequestTimes: raw.times,
        orderRequestsByClient: new Map(raw.byClient),
        lastFillAt: raw.lastFillAt,
        orderConnections: raw.orderConnections,
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
  const fake = await startAngelFake({ autoFillPrice });
  const reply = (id: number, result: unknown) => process.send?.({ id, result });
  process.on('message', (command: Command) => {
    if (command.type === 'accounts') {
      reply(
        command.id,
        command.accounts.map((account) => {
          fake.addAccount(account);
          const { jwt, feedToken } = fake.issueSession(account.clientCode);
          return { jwt, feedToken };
        }),
      );
    } else if (command.type === 'stats') {
      reply(command.id, {
        times: fake.orderRequestTimes,
        byClient: [...fake.orderRequestsByClient],
        lastFillAt: fake.lastFillAt,
        orderConnections: fake.sockets.orderConnections(),
      });
    } else {
      void fake.close().then(() => process.exit(0));
    }
  });
  process.send?.({ ready: fake.endpoints });
}

if (process.argv[2] === '--child') await runChild(Number(process.argv[3]));
