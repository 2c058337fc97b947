import { describe, expect, it } from 'vitest';
import type { TickMarkType, Time, UTCTimestamp } from 'lightweight-charts';
import { sampleCandle, sampleTrade } from '../../live/testing';
import { formatAxisPrice, istTickMarkFormatter, istTimeFormatter, toBar, tradeMarks } from './chartData';

const T0 = Date.parse('2026-03-02T03:45:00.000Z'); // 09:15 IST
const candles = [0, 1, 2, 4].map((i) => sampleCandle({ time: T0 + i * 60_000 })); // 09:18 had no tick

describe('chart data', () => {
  it('turns candle ms into UTC seconds', () => {
    expect(toBar(sampleCandle({ time: T0 })).time).toBe(T0 / 1000);
  });

  it('labels times in IST', () => {
    const t = (T0 / 1000) as UTCTimestamp;
    expect(istTimeFormatter(t)).toContain('09:15');
    expect(istTickMarkFormatter(t, 3 as TickMarkType)).toBe('09:15');
    expect(istTickMarkFormatter(t, 2 as TickMarkType)).toBe('02 Mar');
    expect(istTickMarkFormatter('2026-03-02' as Time, 3 as TickMarkType)).toBeNull();
  });

  it('marks entries and exits on the candle they fall in', () => {
    const trade = sampleTrade({
      id: 5,
      tradeType: 'PUT',
      timestamp: new Date(T0 + 60_000 + 30_000).toISOString(), // inside the 09:16 candle
      closedAt: new Date(T0 + 3 * 60_000 + 10_000).toISOString(), // 09:18, no candle: snaps to 09:17
      exitPrice: 150,
      status: 'closed',
    });
    const { markers, notes } = tradeMarks([trade], candles);
    expect(markers.map((m) => [m.id, m.time, m.shape])).toEqual([
      ['entry-5', (T0 + 60_000) / 1000, 'arrowDown'],
      ['exit-5', (T0 + 2 * 60_000) / 1000, 'circle'],
    ]);
    // No words on the bars (they ran into each other and off the right edge): they are read out per bar instead.
    expect(markers.every((m) => m.text === undefined)).toBe(true);
    expect(notes.get((T0 + 60_000) / 1000)).toEqual(['09:16 PE buy @ ₹120.50']);
    expect(notes.get((T0 + 2 * 60_000) / 1000)).toEqual(['09:18 exit @ ₹150.00']);
  });

  it('keeps every note of a bar with two marks', () => {
    const trade = sampleTrade({
      id: 6,
      timestamp: new Date(T0 + 5_000).toISOString(),
      closedAt: new Date(T0 + 50_000).toISOString(),
      exitPrice: 1234.5,
      status: 'closed',
    });
    const { markers, notes } = tradeMarks([trade], candles);
    expect(markers).toHaveLength(2);
    expect(notes.get(T0 / 1000)).toEqual(['09:15 CE buy @ ₹120.50', '09:15 exit @ ₹1,234.50']);
  });

  it('groups axis prices the Indian way', () => {
    expect(formatAxisPrice(24512.3)).toBe('24,512.30');
    expect(formatAxisPrice(123456.789)).toBe('1,23,456.79');
  });

  it('leaves out trades outside the loaded candles and cancelled ones', () => {
    const before = sampleTrade({ id: 1, timestamp: new Date(T0 - 1).toISOString() });
    const after = sampleTrade({ id: 2, timestamp: new Date(T0 + 5 * 60_000).toISOString() });
    const cancelled = sampleTrade({ id: 3, status: 'cancelled', timestamp: new Date(T0).toISOString() });
    expect(tradeMarks([before, after, cancelled], candles).markers).toEqual([]);
    expect(tradeMarks([before], []).notes.size).toBe(0);
  });
});
