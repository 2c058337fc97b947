// The file tinypool starts a sweep worker thread on. Worker threads do not inherit tsx's loader on Node 20, and the
// engine is TypeScript run from source (tsx, vitest), so this plain module loads sweepWorker.ts through tsx's API.
import { tsImport } from 'tsx/esm/api';

const worker = await tsImport('./sweepWorker.ts', import.meta.url);

/** Runs one pass of a sweep: sweepWorker.ts `runSweepTask`. */
export const runSweepTask = worker.runSweepTask;
