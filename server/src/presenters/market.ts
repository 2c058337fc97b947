// Market data on the wire: `GET /api/market/nifty50` / `market:tick`, candles (`GET /api/market/candles`, closed ones
// on `market:candle`, the forming chart candle inside `market:tick`) and `feed:health`. Engine types stay inside the server; these copy an explicit list of fields.
import type { CandleDto, FeedHealthDto, MarketTickDto } from '../contract';
import { isoOrNull } from './time';

/** The server's running view of the index for the current trading day (built by the trading service). */
export interface IndexSnapshot {
  symbol: string;
  price: number;
  /** the previous session's last price; in a simulation without one, the session's first price */
  previousClose: number;
  open: number;
  high: number;
  low: number;
  volume: number;
  /** epoch ms of the last tick (engine clock) */
  time: number;
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

/** IndexSnapshot → MarketTickDto (change and percent rounded to 2 decimals). */
export function presentTick(snapshot: IndexSnapshot): MarketTickDto {
  const change = snapshot.price - snapshot.previousClose;
  return {
    symbol: snapshot.symbol,
    price: round2(snapshot.price),
    change: round2(change),
    changePercent: snapshot.previousClose > 0 ? round2((change / snapshot.previousClose) * 100) : 0,
    open: round2(snapshot.open),
    high: round2(snapshot.high),
    low: round2(snapshot.low),
    volume: snapshot.volume,
    timestamp: new Date(snapshot.time).toISOString(),
  };
}

/** The engine's candle shape (structurally; the server does not re-export engine types on the wire). */
export interface CandleLike {
  interval: 1 | 3 | 5 | 15;
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
  closed: boolean;
}

/** Engine candle → CandleDto. */
export function presentCandle(candle: CandleLike): CandleDto {
  return {
    interval: candle.interval,
    time: candle.time,
    open: candle.open,
    high: candle.high,
    low: candle.low,
    close: candle.close,
    volume: candle.volume,
    closed: candle.closed,
  };
}

/** Feed health (engine) + the feed's name → FeedHealthDto. */
export function presentFeedHealth(
  source: string,
  health: { status: 'live' | 'stale' | 'down'; lastTickAt: number | null },
): FeedHealthDto {
  return { source, status: health.status, lastTickAt: isoOrNull(health.lastTickAt) };
}
