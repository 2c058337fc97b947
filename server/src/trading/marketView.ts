// The server's in-memory view of the index for REST and sockets: the day's open/high/low/change, and a ring buffer
// of recent candles per interval (newest last). Everything here runs on the tick path, so it only touches memory;
// socket fan-out is throttled (TICK_BROADCAST_MS) and candles that close follow the next tick. One frame per tick: the
// forming chart candle rides inside `market:tick` (a second frame per tick per dashboard doubled the fan-out cost).
import type { SchedulerLike, Subscription } from 'rxjs';
import type { CandleDto, MarketTickDto, MarketTickEventDto } from '../contract';
import { presentCandle, presentTick, type CandleLike, type IndexSnapshot } from '../presenters/market';
import type { Realtime } from '../realtime/publisher';
import { createLatestThrottle } from './throttle';

export const INDEX_SYMBOL = 'NIFTY 50';
export const CANDLE_INTERVALS = [1, 3, 5, 15] as const;
export type CandleInterval = (typeof CANDLE_INTERVALS)[number];

/** How many candles each interval keeps (the candles endpoint's maximum `limit`). */
export const CANDLE_BUFFER_SIZE = 1000;

/** The dashboard chart's interval: its forming candle rides in `market:tick`. */
export const CHART_INTERVAL: CandleInterval = 1;

export interface MarketView {
  onTick(tick: { time: number; price: number; volume: number }): void;
  onCandle(candle: CandleLike): void;
  /** the latest index figures, or null before the first tick */
  tick(): MarketTickDto | null;
  /** the newest `limit` candles of `interval`, oldest first (the last one may still be forming) */
  candles(interval: CandleInterval, limit: number): CandleDto[];
  /**
   * intervals whose closed candles are pushed on `market:candle` (1 minute for the chart, plus the strategy's); the
   * chart's forming candle rides in `market:tick` while CHART_INTERVAL is among them
   */
  setBroadcastIntervals(intervals: readonly CandleInterval[]): void;
  dispose(): void;
}

/** Creates the view; `tradingDate` splits days (the session calendar's IST date). */
export function createMarketView(props: {
  publisher: Realtime;
  tradingDate: (time: number) => string;
  /** real-time scheduler of the throttles */
  scheduler: SchedulerLike;
  tickBroadcastMs: number;
}): MarketView {
  const { publisher, tradingDate, scheduler, tickBroadcastMs } = props;
  let snapshot: IndexSnapshot | null = null;
  let day = '';
  let broadcast = new Set<CandleInterval>([1]);
  const buffers = new Map<CandleInterval, CandleLike[]>(CANDLE_INTERVALS.map((i) => [i, []]));

  /** the chart's candle still forming, read when a tick goes out (the runtime hands it over before the tick) */
  let forming: CandleLike | null = null;

  const tickEvent = (s: IndexSnapshot): MarketTickEventDto =>
    forming === null ? presentTick(s) : { ...presentTick(s), candle: presentCandle(forming) };
  const tickThrottle = createLatestThrottle<IndexSnapshot>({
    periodMs: tickBroadcastMs,
    scheduler,
    emit: (s) => publisher.toMarket('market:tick', tickEvent(s)),
  });

  // A candle closes at the boundary where the next tick arrives: sent at once, its fan-out went out just ahead of
  // that tick's and delayed every dashboard's price once a minute. Closed candles now follow the next tick (or go
  // out after one broadcast period when no tick comes: the session's end, a stalled feed).
  let closedWaiting: CandleLike[] = [];
  let closedTimer: Subscription | undefined;
  const sendClosed = () => {
    closedTimer?.unsubscribe();
    closedTimer = undefined;
    const out = closedWaiting;
    closedWaiting = [];
    for (const c of out) publisher.toMarket('market:candle', presentCandle(c));
  };

  return {
    onTick(tick) {
      const date = tradingDate(tick.time);
      if (snapshot === null || date !== day) {
        // A new trading day: the previous day's last price is the reference; the very first tick of a run (a
        // simulation's start) is its own reference, so the change starts at zero.
        const previousClose = snapshot?.price ?? tick.price;
        day = date;
        snapshot = {
          symbol: INDEX_SYMBOL,
          price: tick.price,
          previousClose,
          open: tick.price,
          high: tick.price,
          low: tick.price,
          volume: tick.volume,
          time: tick.time,
        };
      } else {
        snapshot.price = tick.price;
        if (tick.price > snapshot.high) snapshot.high = tick.price;
        if (tick.price < snapshot.low) snapshot.low = tick.price;
        snapshot.volume += tick.volume;
        snapshot.time = tick.time;
      }
      tickThrottle.push({ ...snapshot });
      if (closedWaiting.length > 0) sendClosed();
    },

    onCandle(candle) {
      const interval = candle.interval;
      const buffer = buffers.get(interval);
      if (buffer === undefined) return;
      const last = buffer[buffer.length - 1];
      if (last !== undefined && last.time === candle.time) buffer[buffer.length - 1] = candle;
      else if (last === undefined || candle.time > last.time) {
        buffer.push(candle);
        if (buffer.length > CANDLE_BUFFER_SIZE) buffer.splice(0, buffer.length - CANDLE_BUFFER_SIZE);
      }
      if (!broadcast.has(interval)) {
        if (interval === CHART_INTERVAL) forming = null;
        return;
      }
      if (candle.closed) {
        // A tick still waiting in the throttle must not carry the forming version of a candle that has closed.
        if (interval === CHART_INTERVAL && forming !== null && forming.time <= candle.time) forming = null;
        closedWaiting.push(candle);
        closedTimer ??= scheduler.schedule(sendClosed, tickBroadcastMs);
      } else if (interval === CHART_INTERVAL) {
        // No push of its own: the tick that follows (same engine tick) carries it. Other intervals' forming
        // candles are drawn by nobody, so they stay off the wire (REST still serves them).
        forming = candle;
      }
    },

    tick() {
      return snapshot === null ? null : presentTick(snapshot);
    },

    candles(interval, limit) {
      const buffer = buffers.get(interval) ?? [];
      return buffer.slice(Math.max(0, buffer.length - limit)).map(presentCandle);
    },

    setBroadcastIntervals(intervals) {
      broadcast = new Set(intervals);
    },

    dispose() {
      tickThrottle.cancel();
      closedTimer?.unsubscribe();
      closedWaiting = [];
      forming = null;
    },
  };
}
