// A broker fake in a process of its own, for benchmarks: the real broker runs on other machines, so the fake's work
// (parsing 1,000 orders, filling them, sending their updates) must not be counted on the event loop whose send and
// persist times are being measured. This is the IPC both sides share; each broker's `<broker>FakeProcess.ts` says
// what its child registers and reports.
import { fork, type ChildProcess } from 'node:child_process';

/** A question to the child: its `type` and its data. `close` is reserved. */
export interface FakeAsk {
  readonly type: string;
  readonly [field: string]: unknown;
}

/** The parent's side of a fake process. */
export interface ForkedFake<Ready> {
  /** what the child announced once it listened (its endpoints) */
  readonly ready: Ready;
  /** asks the child; fails when it exits before answering */
  ask<T>(command: FakeAsk): Promise<T>;
  /** closes the fake and waits for the process to exit */
  close(): Promise<void>;
}

/**
 * Forks `file` (a `<broker>FakeProcess.ts`) with `--child <autoFillPrice>` and resolves once the child announced
 * itself; `name` names the broker in errors.
 */
export async function forkFakeProcess<Ready>(
  file: string,
  name: string,
  autoFillPrice: number,
): Promise<ForkedFake<Ready>> {
  const child: ChildProcess = fork(file, ['--child', String(autoFillPrice)], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = (code: number | null) => new Error(`the ${name} fake process exited (${String(code)})`);
  const waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let nextId = 0;
  // A fake that dies fails every question still waiting for it, rather than leaving the bench hanging.
  child.once('exit', (code) => {
    for (const { reject } of waiting.values()) reject(exited(code));
    waiting.clear();
  });
  const ready = await new Promise<Ready>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(exited(code)));
    child.on('message', (message: { id?: number; ready?: Ready; result?: unknown }) => {
      if (message.ready !== undefined) resolve(message.ready);
      else if (message.id !== undefined) {
        waiting.get(message.id)?.resolve(message.result);
        waiting.delete(message.id);
      }
    });
  });
  return {
    ready,
    ask: <T>(command: FakeAsk) =>
      new Promise<T>((resolve, reject) => {
        nextId += 1;
        waiting.set(nextId, { resolve: (value) => resolve(value as T), reject });
        child.send({ ...command, id: nextId });
      }),
    close: async () => {
      const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.send({ type: 'close', id: 0 });
      await gone;
    },
  };
}

/**
 * The child's side: announces `ready`, answers every question with `answer`, and on `close` closes the fake and
 * exits.
 */
export function serveFakeProcess(
  ready: unknown,
  answer: (command: FakeAsk) => unknown,
  close: () => Promise<void>,
): void {
  process.on('message', (command: FakeAsk & { id: number }) => {
    if (command.type === 'close') void close().then(() => process.exit(0));
    else process.send?.({ id: command.id, result: answer(command) });
  });
  process.send?.({ ready });
}

/** The `autoFillPrice` a child was forked with, or undefined when this process is not a fake's child. */
export function fakeChildFillPrice(): number | undefined {
  return process.argv[2] === '--child' ? Number(process.argv[3]) : undefined;
}

/** What a broker fake reports to its fan-out bench (brokerFanout.ts). */
export interface BrokerFakeStats {
  /** epoch ms of every order-mutating request */
  readonly orderRequestTimes: readonly number[];
  /** the same, by the broker's account id */
  readonly orderRequestsByAccount: ReadonlyMap<string, readonly number[]>;
  readonly lastFillAt: number;
  /** order-update sockets the fake holds */
  readonly orderSockets: number;
}

/** The parent's side of a broker fake that registers accounts (each answered with its login) and reports stats. */
export interface BrokerFakeProcess<Account, Login> {
  readonly endpoints: { apiRoot: string; loginUrl: string; wsRoot: string; masterRoot: string };
  /** registers the accounts; resolves with one login per account, in order */
  addAccounts(accounts: readonly Account[]): Promise<Login[]>;
  stats(): Promise<BrokerFakeStats>;
  close(): Promise<void>;
}

interface RawBrokerStats {
  times: number[];
  byAccount: [string, number[]][];
  lastFillAt: number;
  sockets: number;
}

/** Forks `file` (the broker's `<broker>FakeProcess.ts`, which calls `serveBrokerFake`) and resolves once it listens. */
export async function startBrokerFakeProcess<Account, Login>(
  file: string,
  name: string,
  autoFillPrice: number,
): Promise<BrokerFakeProcess<Account, Login>> {
  const fake = await forkFakeProcess<BrokerFakeProcess<Account, Login>['endpoints']>(
    file,
    name,
    autoFillPrice,
  );
  return {
    endpoints: fake.ready,
    addAccounts: (accounts) => fake.ask<Login[]>({ type: 'accounts', accounts: [...accounts] }),
    stats: async () => {
      const raw = await fake.ask<RawBrokerStats>({ type: 'stats' });
      return {
        orderRequestTimes: raw.times,
        orderRequestsByAccount: new Map(raw.byAccount),
        lastFillAt: raw.lastFillAt,
        orderSockets: raw.sockets,
      };
    },
    close: () => fake.close(),
  };
}

/** What every broker fake offers its process: its endpoints, its order-request log and its last fill. */
export interface BrokerFakeInProcess {
  readonly endpoints: unknown;
  readonly orderRequests: { readonly times: number[]; readonly byClient: ReadonlyMap<string, number[]> };
  readonly lastFillAt: number;
  close(): Promise<void>;
}

/**
 * The child's side of `startBrokerFakeProcess`: registers accounts with `register`, reports the fake's stats with
 * `orderSockets` counting its order-update sockets; `close` (default: the fake's) ends it.
 */
export function serveBrokerFake<Account, Login>(
  fake: BrokerFakeInProcess,
  options: {
    readonly register: (account: Account) => Login;
    readonly orderSockets: () => number;
    readonly close?: () => Promise<void>;
  },
): void {
  serveFakeProcess(
    fake.endpoints,
    (command): Login[] | RawBrokerStats =>
      command.type === 'accounts'
        ? (command.accounts as Account[]).map(options.register)
        : {
            times: fake.orderRequests.times,
            byAccount: [...fake.orderRequests.byClient],
            lastFillAt: fake.lastFillAt,
            sockets: options.orderSockets(),
          },
    options.close ?? (() => fake.close()),
  );
}
