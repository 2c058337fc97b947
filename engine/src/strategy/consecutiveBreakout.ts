import type { Candle, SessionCalendar, SignalType, Tick } from '../core/types';
import { DEFAULT_STRATEGY_PARAMS, MAX_CONSECUTIVE_CANDLES } from './params';
import type { StrategyParams } from './params';
import type { Signal, StrategyEvent } from './signal';

const MINUTE_MS = 60_000;
/** Prices are decimals (0.05 steps) in binary floating point; a body of 4.9999999 must count as 5. */
const EPSILON = 1e-6;
const NO_EVENTS: readonly StrategyEvent[] = Object.freeze([]);

/** Options of {@link ConsecutiveBreakout}. */
export interface ConsecutiveBreakoutOptions {
  readonly calendar: SessionCalendar;
  readonly params?: StrategyParams;
}

/**
 * The consecutive-candle breakout as a pure, synchronous state machine (ARCHITECTURE.md "Strategy"). Feed it
 * closed candles (`onCandle`) and ticks (`onTick`) in time order, a candle before the tick that closed it; call
 * `advanceTo(t)` when time passes without a tick (timers, end of data). It returns lifecycle events:
 *
 * - at each candle close: a signal armed before this close expires first (its interval has ended); then, if the
 *   last N candles of the same trading day are all bullish with close − open ≥ M (CALL) or all bearish with
 *   open − close ≥ M (PUT), the close is in the entry window and the side is enabled, a signal is `armed` for
 *   `[close, close + interval)` with trigger high + E (CALL) or low − E (PUT) — or, when trading is disabled,
 *   recorded as `suppressed` and never armed;
 * - on a tick in the armed interval whose price is ≥ the trigger (CALL) or ≤ it (PUT): `executed`. Ticks older
 *   than the last tick seen in the interval, ticks outside the session and ticks at or after the expiry never
 *   execute; a tick at or after the expiry expires the signal.
 *
 * Parameters set with `setParams` take effect at the next candle close, before that close is evaluated; a signal
 * already armed keeps its trigger and window. Candles whose interval differs from the parameters' interval are
 * not evaluated and restart the run (after an interval change the old interval's last candle gives no signal).
 */
export class ConsecutiveBreakout {
  private readonly calendar: SessionCalendar;
  private current: StrategyParams;
  private pending: StrategyParams | undefined;
  /** the current trading day's latest candles, oldest first, at most MAX_CONSECUTIVE_CANDLES */
  private readonly run: Candle[] = [];
  private runDate = '';
  private armedSignal: Signal | undefined;
  /** last tick seen inside the armed interval; older ticks there are late and never execute */
  private lastTickTime = -Infinity;

  constructor(options: ConsecutiveBreakoutOptions) {
    this.calendar = options.calendar;
    this.current = options.params ?? DEFAULT_STRATEGY_PARAMS;
  }

  /** The parameters in force (pending ones apply at the next candle close). */
  get params(): StrategyParams {
    return this.current;
  }

  /** The signal waiting for its trigger, if any. */
  get armed(): Signal | undefined {
    return this.armedSignal;
  }

  /** Schedules new parameters; they take effect at the next candle close. */
  setParams(params: StrategyParams): void {
    this.pending = params;
  }

  /** Processes a closed candle at its close instant; forming candles (`closed: false`) are ignored. */
  onCandle(candle: Candle): readonly StrategyEvent[] {
    if (!candle.closed) return NO_EVENTS;
    if (this.pending) {
      this.current = this.pending;
      this.pending = undefined;
    }
    const params = this.current;
    const closeTime = candle.time + candle.interval * MINUTE_MS;
    const expired = this.advanceTo(closeTime);
    const events: StrategyEvent[] = expired ? [expired] : [];

    if (candle.interval !== params.interval) {
      this.run.length = 0;
      return events;
    }
    const last = this.run.at(-1);
    if (last !== undefined && candle.time <= last.time) return events; // out of order: never counts twice
    const date = this.calendar.tradingDate(candle.time);
    if (date !== this.runDate || (last !== undefined && last.interval !== candle.interval)) {
      this.run.length = 0;
      this.runDate = date;
    }
    this.run.push(candle);
    if (this.run.length > MAX_CONSECUTIVE_CANDLES) this.run.shift();

    const type = this.setupType(params);
    if (type === undefined) return events;
    if (!(type === 'CALL' ? params.callEnabled : params.putEnabled)) return events;
    if (!this.calendar.isInEntryWindow(closeTime)) return events;

    const signal = this.makeSignal(type, candle, closeTime, params);
    if (params.tradingEnabled) {
      this.armedSignal = signal;
      this.lastTickTime = -Infinity;
      events.push({ kind: 'armed', signal });
    } else {
      events.push({ kind: 'suppressed', signal });
    }
    return events;
  }

  /** Processes a tick; returns `executed` or `expired` when the tick settles the armed signal. */
  onTick(tick: Tick): StrategyEvent | undefined {
    const signal = this.armedSignal;
    if (signal === undefined) return undefined;
    const t = tick.time;
    if (t >= signal.expiresAt) return this.expire(signal);
    // `!(a >= b)` so a NaN time is treated as late.
    if (!(t >= signal.time) || !(t >= this.lastTickTime)) return undefined;
    this.lastTickTime = t;
    const price = tick.price;
    const crossed = signal.type === 'CALL' ? price >= signal.entryTrigger : price <= signal.entryTrigger;
    if (!crossed || !this.calendar.isInSession(t)) return undefined;
    this.armedSignal = undefined;
    const executed: Signal = Object.freeze({
      ...signal,
      status: 'executed',
      executed: true,
      executedAt: t,
      executedPrice: price,
    });
    return { kind: 'executed', signal: executed };
  }

  /** Lets time pass to `time`: expires the armed signal if its interval has ended. */
  advanceTo(time: number): StrategyEvent | undefined {
    const signal = this.armedSignal;
    return signal !== undefined && time >= signal.expiresAt ? this.expire(signal) : undefined;
  }

  private expire(signal: Signal): StrategyEvent {
    this.armedSignal = undefined;
    const reason = `no tick ${signal.type === 'CALL' ? 'at or above' : 'at or below'} ${formatPrice(signal.entryTrigger)} within the next ${signal.interval}m candle`;
    return { kind: 'expired', signal: Object.freeze({ ...signal, status: 'expired', reason }) };
  }

  private setupType(params: StrategyParams): SignalType | undefined {
    const n = params.consecutiveCandles;
    if (this.run.length < n) return undefined;
    const minMove = params.minMovement - EPSILON;
    let bullish = true;
    let bearish = true;
    for (let i = this.run.length - n; i < this.run.length; i++) {
      const c = this.run[i] as Candle;
      const body = c.close - c.open;
      // A doji (close = open) is neither bullish nor bearish, whatever M is.
      if (!(body > 0 && body >= minMove)) bullish = false;
      if (!(body < 0 && -body >= minMove)) bearish = false;
    }
    return bullish ? 'CALL' : bearish ? 'PUT' : undefined;
  }

  private makeSignal(type: SignalType, candle: Candle, closeTime: number, params: StrategyParams): Signal {
    const bodies = this.run.slice(-params.consecutiveCandles).map((c) => formatSigned(c.close - c.open));
    const n = params.consecutiveCandles;
    const condition =
      type === 'CALL'
        ? `${n} bullish ${candle.interval}m candle${n === 1 ? '' : 's'}, each close−open ≥ ${formatPrice(params.minMovement)} pts (${bodies.join(', ')})`
        : `${n} bearish ${candle.interval}m candle${n === 1 ? '' : 's'}, each open−close ≥ ${formatPrice(params.minMovement)} pts (${bodies.join(', ')})`;
    const entryTrigger = roundPrice(
      type === 'CALL' ? candle.high + params.entryOffset : candle.low - params.entryOffset,
    );
    const signal: Signal = {
      key: `${type}-${candle.interval}m-${candle.time}`,
      time: closeTime,
      type,
      condition,
      entryTrigger,
      niftyPrice: candle.close,
      setupCandleTime: candle.time,
      interval: candle.interval,
      expiresAt: closeTime + candle.interval * MINUTE_MS,
      status: params.tradingEnabled ? 'armed' : 'suppressed',
      executed: false,
      ...(params.tradingEnabled ? {} : { reason: 'trading is disabled (tradingEnabled = false)' }),
    };
    return Object.freeze(signal);
  }
}

/** Rounds to 2 decimals so a trigger like high + E prints and compares as the exchange would quote it. */
function roundPrice(value: number): number {
  return Math.round(value * 100) / 100;
}

function formatPrice(value: number): string {
  return String(roundPrice(value));
}

/** `+6.2` / `−5.45` with a true minus sign, matching the condition text shown to users. */
function formatSigned(value: number): string {
  const rounded = roundPrice(value);
  return rounded < 0 ? `−${String(-rounded)}` : `+${String(rounded)}`;
}
