// Pure conversions for the NIFTY chart, kept apart from the canvas so they are tested without one.
// lightweight-charts wants UTC seconds; candles travel as epoch ms; people read IST.
import type { CandleDto, TradeDto } from '@optionpilot/server/contract';
import type { CandlestickData, SeriesMarker, TickMarkType, Time, UTCTimestamp } from 'lightweight-charts';

/** A candle as the chart's bar: time in UTC seconds. */
export function toBar(candle: CandleDto): CandlestickData<Time> {
  return {
    time: Math.floor(candle.time / 1000) as UTCTimestamp,
    open: candle.open,
    high: candle.high,
    low: candle.low,
    close: candle.close,
  };
}

const IST = 'Asia/Kolkata';
const istClock = new Intl.DateTimeFormat('en-IN', {
  timeZone: IST,
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});
const istDay = new Intl.DateTimeFormat('en-IN', { timeZone: IST, day: '2-digit', month: 'short' });
const istFull = new Intl.DateTimeFormat('en-IN', {
  timeZone: IST,
  day: '2-digit',
  month: 'short',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

function secondsOf(time: Time): number | null {
  return typeof time === 'number' ? time : null;
}

/** Crosshair label in IST, e.g. "02 Mar, 10:31". */
export function istTimeFormatter(time: Time): string {
  const s = secondsOf(time);
  return s === null ? String(time) : istFull.format(new Date(s * 1000));
}

/** Axis tick labels in IST: a date at day/month/year boundaries, else the time of day. */
export function istTickMarkFormatter(time: Time, tickMarkType: TickMarkType): string | null {
  const s = secondsOf(time);
  if (s === null) return null;
  const date = new Date(s * 1000);
  // TickMarkType: 0 Year, 1 Month, 2 DayOfMonth, 3 Time, 4 TimeWithSeconds (a const enum value, compared as a number
  // so this module needs no runtime import of the chart library).
  return (tickMarkType as number) <= 2 ? istDay.format(date) : istClock.format(date);
}

/** The start (ms) of the candle that contains `ms`, or null when it is outside the loaded candles. */
function bucketOf(ms: number, candles: readonly CandleDto[], intervalMs: number): number | null {
  const first = candles[0];
  const last = candles[candles.length - 1];
  if (!first || !last || ms < first.time || ms >= last.time + intervalMs) return null;
  // Binary search for the last candle starting at or before `ms` (intervals with no tick have no candle).
  let lo = 0;
  let hi = candles.length - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if ((candles[mid]?.time ?? Infinity) <= ms) lo = mid;
    else hi = mid - 1;
  }
  return candles[lo]?.time ?? null;
}

const ENTRY_CALL = '#2f9e44';
const ENTRY_PUT = '#e03131';
const EXIT = '#1c7ed6';

/** The chart's trade marks: shapes on the bars, and the words for each bar kept apart. */
export interface TradeMarks {
  /** shapes only: text drawn on a one-minute chart runs into the next bar's text and off the right edge */
  markers: SeriesMarker<Time>[];
  /** what happened on each marked bar (its time in UTC seconds), e.g. "10:31 CE buy @ ₹219.85", oldest first */
  notes: Map<number, string[]>;
}

const premium = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR' });

/** This user's entries and exits, snapped to the candle they happened in, oldest first. */
export function tradeMarks(
  trades: readonly TradeDto[],
  candles: readonly CandleDto[],
  intervalMs = 60_000,
): TradeMarks {
  const marks: Array<{ marker: SeriesMarker<Time>; note: string; sortKey: number }> = [];
  for (const trade of trades) {
    if (trade.status === 'cancelled') continue;
    const entry = bucketOf(Date.parse(trade.timestamp), candles, intervalMs);
    if (entry !== null) {
      const call = trade.tradeType === 'CALL';
      marks.push({
        sortKey: entry,
        marker: {
          id: `entry-${trade.id}`,
          time: (entry / 1000) as UTCTimestamp,
          position: call ? 'belowBar' : 'aboveBar',
          shape: call ? 'arrowUp' : 'arrowDown',
          color: call ? ENTRY_CALL : ENTRY_PUT,
        },
        note: `${istClock.format(new Date(trade.timestamp))} ${call ? 'CE' : 'PE'} buy @ ${premium.format(trade.entryPrice)}`,
      });
    }
    if (trade.closedAt && trade.exitPrice !== null) {
      const exit = bucketOf(Date.parse(trade.closedAt), candles, intervalMs);
      if (exit !== null) {
        marks.push({
          sortKey: exit,
          marker: {
            id: `exit-${trade.id}`,
            time: (exit / 1000) as UTCTimestamp,
            position: 'aboveBar',
            shape: 'circle',
            color: EXIT,
          },
          note: `${istClock.format(new Date(trade.closedAt))} exit @ ${premium.format(trade.exitPrice)}`,
        });
      }
    }
  }
  marks.sort((a, b) => a.sortKey - b.sortKey);
  const notes = new Map<number, string[]>();
  for (const { marker, note } of marks) {
    const time = marker.time as number;
    notes.set(time, [...(notes.get(time) ?? []), note]);
  }
  return { markers: marks.map((m) => m.marker), notes };
}

const axisPrice = new Intl.NumberFormat('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** Price-scale and crosshair labels with Indian digit grouping, e.g. 24,512.35. */
export function formatAxisPrice(price: number): string {
  return axisPrice.format(price);
}
