import { addDays } from '../calendar/ist';
import type { MarketCalendar } from '../calendar/marketCalendar';
import type { Tick } from '../core/types';

/** Which sessions to fill with generated ticks, and how. */
export interface GeneratedTicksOptions {
  /** first IST date, `YYYY-MM-DD` */
  readonly from: string;
  /** last IST date, inclusive */
  readonly to: string;
  /** ms between ticks (default 1 s) */
  readonly stepMs?: number;
  /** seed of the random walk (default 1); the same seed gives the same ticks */
  readonly seed?: number;
  /** index level at the first tick (default 23,500) */
  readonly start?: number;
}

/**
 * Ticks every `stepMs` through every regular session (09:15:00–15:29:59 IST) from `from` to `to`, made one at a
 * time and never stored. The index walks randomly with a drift that changes about every two minutes, so runs of
 * candles (and signals, and trades) form; prices are on the 0.05 grid. For benchmarks, sweeps and tests.
 */
export function* generatedSessionTicks(
  calendar: MarketCalendar,
  options: GeneratedTicksOptions,
): Generator<Tick> {
  const step = options.stepMs ?? 1_000;
  const sessions: { open: number; close: number }[] = [];
  for (let date = options.from; date <= options.to; date = addDays(date, 1)) {
    if (!calendar.hasRegularSession(date)) continue;
    for (const s of calendar.sessionsOn(date)) if (s.kind === 'regular') sessions.push(s);
  }
  // xorshift32 inline: the generator is timed with the backtest, so it should cost little beside it.
  let seed = (options.seed ?? 1) >>> 0 || 1;
  const SCALE = 1 / 4_294_967_296;
  let price = options.start ?? 23_500;
  let drift = 0;
  for (const { open, close } of sessions) {
    for (let time = open; time < close; time += step) {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      const u = (seed >>> 0) * SCALE;
      // about every two minutes the drift changes to −0.12, 0 or +0.12 points a second
      if (u < 1 / 120) drift = (Math.floor(u * 360) - 1) * 0.12;
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      price += drift + ((seed >>> 0) * SCALE - 0.5) * 1.6;
      yield { time, price: Math.round(price * 20) / 20, volume: 0 };
    }
  }
}

/** One tick a second through every regular session of `year`, seeded by the year (the backtest benchmark's data). */
export function yearOfSecondTicks(calendar: MarketCalendar, year: number): Generator<Tick> {
  return generatedSessionTicks(calendar, { from: `${year}-01-01`, to: `${year}-12-31`, seed: year });
}
