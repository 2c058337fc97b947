import type { Tick } from '../core/types';
import { CandleSeries } from './candleSeries';
import { DEFAULT_BACKTEST_CAPITAL, SweepPass } from './sweepPass';
import type { BacktestOptions, BacktestInput, BacktestResult } from './types';

export { DEFAULT_BACKTEST_CAPITAL };

/**
 * A backtest is the trading runtime on a virtual clock, fed recorded ticks, with option quotes priced like the
 * live replay feed's and the paper broker: the same data gives the same trades as `FEED=replay:` live. It is a
 * sweep pass of one parameter set (one strategy, one paper account) that also keeps the strategy's closed candles
 * for the chart: one stepping loop and one report for a single run and a sweep. Push ticks in time order (older
 * ones are dropped and counted, as live), then `finish()`. Nothing but the current tick is kept, so any length of
 * data streams through.
 */
export class Backtester {
  private readonly candles = new CandleSeries();
  private readonly pass: SweepPass;
  private finished: BacktestResult | undefined;

  constructor(options: BacktestOptions) {
    const lots = options.lots ?? 1;
    if (!Number.isInteger(lots) || lots < 1)
      throw new RangeError(`lots must be a whole number ≥ 1, got ${lots}`);
    if (options.quantity !== undefined && (!Number.isInteger(options.quantity) || options.quantity < 1)) {
      throw new RangeError(`quantity must be a whole number ≥ 1, got ${options.quantity}`);
    }
    this.pass = new SweepPass({
      calendar: options.calendar,
      expiries: options.expiries,
      iv: options.iv,
      ...(options.riskFreeRate === undefined ? {} : { riskFreeRate: options.riskFreeRate }),
      ...(options.charges === undefined ? {} : { charges: options.charges }),
      ...(options.fills === undefined ? {} : { fills: options.fills }),
      ...(options.freezeQuantity === undefined ? {} : { freezeQuantity: options.freezeQuantity }),
      ...(options.progressEvery === undefined ? {} : { progressEvery: options.progressEvery }),
      ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
      onCandle: (candle) => this.candles.push(candle),
      sets: [
        {
          id: 'backtest',
          params: options.params,
          lots,
          ...(options.quantity === undefined ? {} : { quantity: options.quantity }),
          trailing: options.trailing ?? true,
          targetMode: options.targetMode ?? 'fixed',
          capital: options.capital ?? DEFAULT_BACKTEST_CAPITAL,
        },
      ],
    });
  }

  /** Ticks dropped for being older than the one before. */
  get dropped(): number {
    return this.pass.dropped;
  }

  /**
   * Feeds the next tick; returns a promise only while an entry or exit is in flight (await it before the next
   * tick). As on a live clock: deadlines before the tick fire and their work settles first; deadlines at the
   * tick's own instant fire just before it, with the tick delivered while their orders are on their way.
   */
  push(tick: Tick): Promise<void> | undefined {
    if (this.finished) throw new Error('the backtest has finished');
    return this.pass.push(tick);
  }

  /** End of data: closes a still-open position at its last price (`END_OF_DATA`), the forming candle, and reports. */
  async finish(): Promise<BacktestResult> {
    if (this.finished) return this.finished;
    const [result] = await this.pass.finish();
    if (result === undefined) throw new Error('a backtest has one set');
    this.finished = {
      candles: this.candles,
      signals: result.signals,
      trades: result.trades,
      metrics: result.metrics,
      stats: result.stats,
    };
    return this.finished;
  }
}

/**
 * Backtests the strategy over a stream of ticks (sync or async iterable, in time order) with option premiums
 * from the live feeds' Black–Scholes quoter at the given IV. Ticks are consumed one at a time and never retained.
 */
export async function runBacktest(input: BacktestInput): Promise<BacktestResult> {
  const backtester = new Backtester(input);
  const { ticks } = input;
  if (Symbol.asyncIterator in ticks) {
    for await (const tick of ticks) await backtester.push(tick);
  } else {
    for (const tick of ticks) {
      const pending = backtester.push(tick);
      if (pending !== undefined) await pending;
    }
  }
  return backtester.finish();
}
