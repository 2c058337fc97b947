// A worker thread of a parameter sweep (sweepPool.ts): runs one pass — a group of sets over the whole tick source —
// and returns each set's metrics. Loaded by tinypool, so it reads its own data and calendar.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { MessagePort } from 'node:worker_threads';
import contractsJson from '../../data/nse-contracts.json' with { type: 'json' };
import { alwaysOpenCalendar } from '../calendar/alwaysOpenCalendar';
import { parseContractSpecs, underlyingSpec } from '../calendar/contractSpecs';
import { createExchangeCalendar } from '../calendar/exchangeCalendar';
import { createExpiryCalendar } from '../calendar/expiry';
import { BUNDLED_CALENDAR_URL, readCalendarFile } from '../calendar/readCalendarFile';
import type { Tick } from '../core/types';
import { createCsvTickParser, CsvParseError } from '../feeds/csvTicks';
import { generatedSessionTicks } from './generatedTicks';
import type { SweepPassPlan } from './sweepGrid';
import { toSweepSet } from './sweepGrid';
import { SweepPass } from './sweepPass';
import type { SweepSetResult } from './sweepPass';

/** Where a sweep's ticks come from: a replay CSV, or ticks generated for a range of dates (generatedTicks.ts). */
export type SweepTickSource =
  | { readonly kind: 'csv'; readonly path: string; readonly strict: boolean }
  | { readonly kind: 'generated'; readonly from: string; readonly to: string; readonly seed: number };

/** One pass for a worker; `progress` receives the share of the source read so far (0–1). */
export interface SweepTask {
  readonly source: SweepTickSource;
  readonly plan: SweepPassPlan;
  readonly progress?: MessagePort;
}

/** A set's figures as a pass reports them to the pool (trades and signals stay in the worker). */
export type SweepFigures = Pick<SweepSetResult, 'id' | 'metrics' | 'stats'>;

/** What a worker returns: each set's figures and the rows it dropped for being out of order. */
export interface SweepTaskResult {
  readonly results: readonly SweepFigures[];
  readonly dropped: number;
  readonly firstDroppedLine: number | null;
}

const PROGRESS_EVERY = 65_536;

/** Runs one pass of a sweep (the worker's task). */
export async function runSweepTask(task: SweepTask): Promise<SweepTaskResult> {
  const { source, plan, progress } = task;
  const { data } = await readCalendarFile(fileURLToPath(BUNDLED_CALENDAR_URL), { now: Date.now() });
  const exchange = createExchangeCalendar(data);
  const expiries = createExpiryCalendar(exchange, underlyingSpec(parseContractSpecs(contractsJson), 'NIFTY'));
  let share = (): number => 0;
  const pass = new SweepPass({
    sets: plan.sets.map(toSweepSet),
    calendar: plan.session === 'market' ? exchange : alwaysOpenCalendar,
    expiries,
    iv: plan.iv / 100,
    progressEvery: PROGRESS_EVERY,
    onProgress: () => progress?.postMessage(share()),
  });
  let dropped = 0;
  let firstDroppedLine: number | null = null;
  try {
    if (source.kind === 'generated') {
      const spec = { from: source.from, to: source.to, seed: source.seed };
      const from = exchange.sessionsOn(source.from)[0]?.open ?? Date.parse(`${source.from}T00:00:00+05:30`);
      const to = Date.parse(`${source.to}T23:59:59+05:30`);
      let time = from;
      share = () => Math.min(1, (time - from) / (to - from));
      for (const tick of generatedSessionTicks(exchange, spec)) {
        time = tick.time;
        const pending = pass.push(tick);
        if (pending !== undefined) await pending;
      }
    } else {
      const size = (await stat(source.path)).size;
      const stream = createReadStream(source.path, { encoding: 'utf8', highWaterMark: 1 << 20 });
      share = () => (size === 0 ? 1 : stream.bytesRead / size);
      const parser = createCsvTickParser({ strict: source.strict });
      // As the CLI's single backtest: lines parsed synchronously chunk by chunk, awaiting only work in flight.
      const feed = async (line: string): Promise<void> => {
        const ticks = parser.line(line);
        for (let i = 0; i < ticks.length; i += 1) {
          const pending = pass.push(ticks[i] as Tick);
          if (pending !== undefined) await pending;
        }
      };
      try {
        let rest = '';
        for await (const chunk of stream as AsyncIterable<string>) {
          const text = rest + chunk;
          let start = 0;
          for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
            await feed(text.slice(start, end));
            start = end + 1;
          }
          rest = text.slice(start);
        }
        if (rest !== '') await feed(rest);
      } finally {
        stream.destroy();
      }
      if (parser.kind === null) {
        throw new CsvParseError(
          1,
          'the file has no header row; expected timestamp,price[,volume] or timestamp,open,high,low,close[,volume]',
        );
      }
      dropped = parser.dropped;
      firstDroppedLine = parser.firstDroppedLine ?? null;
    }
  } catch (error) {
    // An error crosses the thread as its message only: name the file here.
    if (error instanceof CsvParseError && source.kind === 'csv')
      throw new Error(`${source.path}: ${error.message}`);
    throw error;
  }
  const results = await pass.finish();
  progress?.postMessage(1);
  return {
    results: results.map(({ id, metrics, stats }) => ({ id, metrics, stats })),
    dropped,
    firstDroppedLine,
  };
}
