import { describe, expect, it } from 'vitest';
import type { Candle } from '../core/types';
import { CandleSeries } from './candleSeries';

const candle = (i: number): Candle => ({
  interval: 1,
  time: 1_767_757_500_000 + i * 60_000,
  open: 100 + i,
  high: 101 + i,
  low: 99 + i,
  close: 100.5 + i,
  volume: i,
  closed: true,
});

describe('CandleSeries', () => {
  it('keeps every candle through growth and gives them back as rows, in order', () => {
    const series = new CandleSeries();
    for (let i = 0; i < 3000; i += 1) series.push(candle(i));
    expect(series.length).toBe(3000);
    expect(series.interval).toBe(1);
    expect(series.at(2999)).toEqual({
      time: candle(2999).time,
      open: 3099,
      high: 3100,
      low: 3098,
      close: 3099.5,
      volume: 2999,
    });
    expect(series.at(-1)).toEqual(series.at(2999));
    expect(series.at(3000)).toBeUndefined();
    const rows = JSON.parse(JSON.stringify(series)) as { time: number }[];
    expect(rows).toHaveLength(3000);
    expect(rows.map((r) => r.time)).toEqual([...series].map((r) => r.time));
    expect(Object.keys(rows[0]!)).toEqual(['time', 'open', 'high', 'low', 'close', 'volume']);
  });
});
