import type { Candle, IntervalMinutes } from '../core/types';

/** A closed candle as the backtest reports it (the chart's shape: `time` is the bucket start, epoch ms). */
export type CandleRow = Omit<Candle, 'interval' | 'closed'>;

const FIELDS = 6;

/**
 * Closed candles stored column-wise in one growable Float64Array (six numbers a candle) instead of one object
 * each, so a long backtest keeps ~48 bytes per candle and the garbage collector has nothing to trace. Rows are
 * made on demand (`at`, iteration, `toJSON`).
 */
export class CandleSeries implements Iterable<CandleRow> {
  private data = new Float64Array(FIELDS * 1024);
  private count = 0;
  private lastInterval: IntervalMinutes | undefined;

  /** Number of candles. */
  get length(): number {
    return this.count;
  }

  /** The interval of the last candle added, if any. */
  get interval(): IntervalMinutes | undefined {
    return this.lastInterval;
  }

  /** Appends a closed candle. */
  push(candle: Candle): void {
    if (this.count * FIELDS === this.data.length) {
      const grown = new Float64Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    const d = this.data;
    const i = this.count * FIELDS;
    d[i] = candle.time;
    d[i + 1] = candle.open;
    d[i + 2] = candle.high;
    d[i + 3] = candle.low;
    d[i + 4] = candle.close;
    d[i + 5] = candle.volume;
    this.count += 1;
    this.lastInterval = candle.interval;
  }

  /** The candle at `index` (negative counts from the end), or undefined when out of range. */
  at(index: number): CandleRow | undefined {
    const i = index < 0 ? this.count + index : index;
    if (!(i >= 0 && i < this.count) || !Number.isInteger(i)) return undefined;
    const d = this.data;
    const o = i * FIELDS;
    return {
      time: d[o] as number,
      open: d[o + 1] as number,
      high: d[o + 2] as number,
      low: d[o + 3] as number,
      close: d[o + 4] as number,
      volume: d[o + 5] as number,
    };
  }

  *[Symbol.iterator](): Iterator<CandleRow> {
    for (let i = 0; i < this.count; i += 1) yield this.at(i) as CandleRow;
  }

  /** The candles as plain rows, so `JSON.stringify` of a result writes an array. */
  toJSON(): CandleRow[] {
    return Array.from(this);
  }
}
