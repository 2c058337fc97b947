// The server's in-memory view of the index for REST and sockets: the day's open/high/low/change, and a ring buffer
// of recent candles per interval (newest last). Everything here runs on the tick path, so it only touches memory;
// socket fan-out is throttled (TICK_BROADCAST_MS) and candles that close are pushed at once.
import type { SchedulerLike } from 'rxjs';
import type { CandleDto, MarketTickDto } from '../contract';
import { presentCandle, presentTick, type CandleLike, type IndexSnapshot } from '../presenters/market';
import type { Realtime } from '../realtime/publisher';
import { createLatestThrottle, type LatestThrottle } from './throttle';

export const INDEX_SYMBOL = 'NIFTY 50';
export const CANDLE_INTERVALS = [1, 3, 5, 15] as const;
export type CandleInterval = (typeof CANDLE_INTERVALS)[number];

/** How many candles each interval keeps (the candles endpoint's maximum `limit`). */
export const CANDLE_BUFFER_SIZE = 1000;

export interface MarketView {
  onTick(tick: { time: number; price: number; volume: number }): void;
  onCandle(candle: CandleLike): void;
  /** the latest index figures, or null before the first tick */
  tick(): MarketTickDto | null;
  /** the newest `limit` candles of `interval`, oldest first (the last one may still be forming) */
  candles(interval: CandleInterval, limit: number): CandleDto[];
  /** intervals whose candles are pushed on `market:candle` (1 minute for the chart, plus the strategy's) */
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

  const tickThrottle = createLatestThrottle<IndexSnapshot>({
    periodMs: tickBroadcastMs,
    scheduler,
    emit: (s) => publisher.toMarket('market:tick', presentTick(s)),
  });
  const formingThrottles = new Map<CandleInterval, LatestThrottle<CandleLike>>(
    CANDLE_INTERVALS.map((interval) => [
      interval,
      createLatestThrottle<CandleLike>({
        periodMs: tickBroadcastMs,
        scheduler,
        emit: (c) => publisher.toMarket('market:candle', presentCandle(c)),
      }),
    ]),
  );

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
      if (!broadcast.has(interval)) return;
      const throttle = formingThrottles.get(interval);
      if (candle.closed) {
        // A forming snapshot still waiting must not arrive after the closed candle it preceded.
        throttle?.cancel();
        publisher.toMarket('market:candle', presentCandle(candle));
      } else {
        throttle?.push(candle);
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
      for (const throttle of formingThrottles.values()) throttle.cancel();
    },
  };
}
