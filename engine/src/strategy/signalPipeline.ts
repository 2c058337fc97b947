import { CandleBuilder } from '../candles/candleBuilder';
import type { Candle, SessionCalendar, Tick } from '../core/types';
import { ConsecutiveBreakout } from './consecutiveBreakout';
import { DEFAULT_STRATEGY_PARAMS } from './params';
import type { StrategyParams } from './params';
import type { PipelineEvent } from './signal';

/** Options of {@link SignalPipeline}. */
export interface SignalPipelineOptions {
  readonly calendar: SessionCalendar;
  readonly params?: StrategyParams;
  /** emit closed candles as `candle` events (default true) */
  readonly emitCandles?: boolean;
  /** also emit a forming (`closed: false`) candle after every accepted tick (default false) */
  readonly emitForming?: boolean;
  /** receives every event synchronously, in time order */
  readonly onEvent: (event: PipelineEvent) => void;
}

/**
 * Ticks → candles → signals, synchronously: a {@link CandleBuilder} feeding a {@link ConsecutiveBreakout}, so a
 * closed candle always reaches the strategy before the tick that closed it. Backtests call `push` per tick,
 * `advanceTo` to let time pass without a tick, and `finish` at the end of data; the RxJS operator
 * `breakoutSignals` drives this same class from the engine's scheduler.
 */
export class SignalPipeline {
  readonly builder: CandleBuilder;
  readonly strategy: ConsecutiveBreakout;
  private readonly emit: (event: PipelineEvent) => void;
  private readonly emitCandles: boolean;
  private readonly emitForming: boolean;

  constructor(options: SignalPipelineOptions) {
    const params = options.params ?? DEFAULT_STRATEGY_PARAMS;
    this.builder = new CandleBuilder({ interval: params.interval, calendar: options.calendar });
    this.strategy = new ConsecutiveBreakout({ calendar: options.calendar, params });
    this.emit = options.onEvent;
    this.emitCandles = options.emitCandles !== false;
    this.emitForming = options.emitForming === true;
  }

  /** The next instant something happens without a tick (a bucket end or a signal expiry), if any. */
  get nextDeadline(): number | undefined {
    const close = this.builder.closesAt;
    const expiry = this.strategy.armed?.expiresAt;
    if (close === undefined) return expiry;
    return expiry === undefined || close < expiry ? close : expiry;
  }

  /** Feeds one tick: closes the bucket it ends, then lets the strategy see the tick if it was accepted. */
  push(tick: Tick): void {
    const builder = this.builder;
    const closed = builder.push(tick);
    if (closed) this.candleClosed(closed);
    if (builder.accepted) {
      if (this.emitForming) {
        const forming = builder.formingCandle();
        if (forming) this.emit({ kind: 'candle', candle: forming });
      }
      const event = this.strategy.onTick(tick);
      if (event) this.emit(event);
    } else {
      // A dropped tick never executes, but a newer out-of-session one still shows that time has passed.
      const event = this.strategy.advanceTo(tick.time);
      if (event) this.emit(event);
    }
  }

  /** Lets time pass to `time` without a tick: closes an ended bucket, then expires an ended signal. */
  advanceTo(time: number): void {
    const closed = this.builder.closeUntil(time);
    if (closed) this.candleClosed(closed);
    const event = this.strategy.advanceTo(time);
    if (event) this.emit(event);
  }

  /** End of data: closes the forming candle and expires a signal still armed, since no tick can execute it. */
  finish(): void {
    const closed = this.builder.flush();
    if (closed) this.candleClosed(closed);
    const event = this.strategy.advanceTo(Number.POSITIVE_INFINITY);
    if (event) this.emit(event);
  }

  /** New parameters: the strategy applies them at the next candle close, the builder's interval at the next bucket. */
  setParams(params: StrategyParams): void {
    this.strategy.setParams(params);
    this.builder.setInterval(params.interval);
  }

  private candleClosed(candle: Candle): void {
    if (this.emitCandles) this.emit({ kind: 'candle', candle });
    for (const event of this.strategy.onCandle(candle)) this.emit(event);
  }
}
