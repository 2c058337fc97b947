import { availableParallelism } from 'node:os';
import { MessageChannel } from 'node:worker_threads';
import { Tinypool } from 'tinypool';
import type { GridSet } from './sweepGrid';
import { planSweepPasses } from './sweepGrid';
import type { SweepFigures, SweepTask, SweepTaskResult, SweepTickSource } from './sweepWorker';

/** A sweep to run: the sets of a grid over one tick source. */
export interface SweepRunOptions {
  readonly source: SweepTickSource;
  readonly sets: readonly GridSet[];
  /** worker threads (default: the machine's parallelism, at most one per set) */
  readonly workers?: number;
  /** the share of the work done, 0–1, as the passes read their ticks */
  readonly onProgress?: (done: number) => void;
}

/** Every set's figures, in grid order, and how the sweep ran. */
export interface SweepOutcome {
  readonly results: readonly { readonly set: GridSet; readonly figures: SweepFigures }[];
  /** runtime passes (each reads the whole source once) */
  readonly passes: number;
  readonly workers: number;
  /** rows dropped for being earlier than the row before (the same in every pass), and the first one's line */
  readonly dropped: number;
  readonly firstDroppedLine: number | null;
}

/**
 * Runs a sweep across worker threads (tinypool): the sets are planned into passes (sweepGrid.ts
 * `planSweepPasses`), each pass one task that reads the whole source through one trading runtime with one
 * strategy and one account per set (sweepPass.ts). Rejects with the first failing pass's error.
 */
export async function runSweep(options: SweepRunOptions): Promise<SweepOutcome> {
  if (options.sets.length === 0) throw new RangeError('a sweep needs at least one set');
  const workers = Math.max(1, Math.min(options.workers ?? availableParallelism(), options.sets.length));
  const plans = planSweepPasses(options.sets, workers);
  const pool = new Tinypool({
    filename: new URL('./sweepWorkerEntry.mjs', import.meta.url).href,
    name: 'runSweepTask',
    minThreads: Math.min(workers, plans.length),
    maxThreads: Math.min(workers, plans.length),
  });
  const done = plans.map(() => 0);
  const report = (): void => options.onProgress?.(done.reduce((a, b) => a + b, 0) / plans.length);
  let outcomes: SweepTaskResult[];
  try {
    outcomes = await Promise.all(
      plans.map(async (plan, i): Promise<SweepTaskResult> => {
        const { port1, port2 } = new MessageChannel();
        port1.on('message', (share: number) => {
          if (done[i] === 1) return;
          done[i] = share;
          report();
        });
        try {
          const task: SweepTask = { source: options.source, plan, progress: port2 };
          const result = (await pool.run(task, { transferList: [port2] })) as SweepTaskResult;
          // The worker's last messages may trail its result (another channel): the pass is done now.
          done[i] = 1;
          report();
          return result;
        } finally {
          port1.close();
        }
      }),
    );
  } finally {
    await pool.destroy();
  }
  const figures = new Map<string, SweepFigures>();
  for (const outcome of outcomes) for (const result of outcome.results) figures.set(result.id, result);
  const first = outcomes[0];
  return {
    results: options.sets.map((set) => ({ set, figures: figures.get(set.id) as SweepFigures })),
    passes: plans.length,
    workers: Math.min(workers, plans.length),
    dropped: first?.dropped ?? 0,
    firstDroppedLine: first?.firstDroppedLine ?? null,
  };
}
