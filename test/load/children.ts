// What bench:live's processes share: a progress log on stderr, and ownership of every child process and temporary
// directory the bench makes. Whatever ends the bench (normal exit, an error, Ctrl-C, kill) takes its children down
// and removes the directories; a Ctrl-C also runs the registered interrupt hook (the cluster phase drops its
// database and Redis keys) for up to 5 s.
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
export const ROOT = join(HERE, '../..');

const started = Date.now();
const children = new Set<ChildProcess>();
const tempDirs: string[] = [];
let quiet = false;
let onInterrupt: (() => Promise<void>) | null = null;

/** A progress line on stderr with the seconds since the bench started (stdout carries only the report). */
export function log(message: string): void {
  if (!quiet)
    process.stderr.write(`[bench ${((Date.now() - started) / 1000).toFixed(1).padStart(6)} s] ${message}\n`);
}

/** No more progress lines: the report is being written. */
export function silenceLog(): void {
  quiet = true;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** While set, a Ctrl-C runs `hook` (for at most 5 s) before the bench exits; null removes it. */
export function setInterruptHook(hook: (() => Promise<void>) | null): void {
  onInterrupt = hook;
}

/** The bench owns `child` from now on: it dies with the bench. */
export function track<T extends ChildProcess>(child: T): T {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

/** A new temporary directory, removed when the bench ends. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
}

function cleanup(): void {
  for (const child of children) child.kill('SIGKILL');
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

process.on('exit', cleanup);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    process.stderr.write(`\nbench:live: ${signal}, stopping children\n`);
    cleanup();
    const hook = onInterrupt?.() ?? Promise.resolve();
    void Promise.race([hook.catch(() => {}), sleep(5000)]).then(() => process.exit(130));
  });
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** Resolves with the child's first message accepted by `pick`; rejects on timeout, exit or a reported error. */
export function nextMessage<T>(
  child: ChildProcess,
  what: string,
  timeoutMs: number,
  pick: (message: unknown) => T | undefined,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
    };
    const onMessage = (message: unknown) => {
      if (isRecord(message) && message.type === 'error') {
        done();
        reject(new Error(`${what}: ${String(message.message)}`));
        return;
      }
      const picked = pick(message);
      if (picked !== undefined) {
        done();
        resolve(picked);
      }
    };
    const onExit = (code: number | null, signal: string | null) => {
      done();
      reject(new Error(`${what}: the child exited (code ${code}, signal ${signal})`));
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(`${what}: no answer within ${Math.round(timeoutMs / 1000)} s`));
    }, timeoutMs);
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

/** Waits for a child to exit, killing it after `graceMs`. */
export async function stopChild(child: ChildProcess, signal: NodeJS.Signals, graceMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** Forks one of test/load's TypeScript files (a client worker, the bare server) as an owned child with IPC. */
export function forkTs(file: string, args: string[] = []): ChildProcess {
  return track(
    fork(join(HERE, file), args, {
      cwd: ROOT,
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    }),
  );
}
