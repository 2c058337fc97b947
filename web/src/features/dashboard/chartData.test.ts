import { describe, expect, it } from 'vitest';
import type { TickMarkType, Time, UTCTimestamp } from 'lightweight-charts';
import { sampleCandle, sampleTrade } from '../../live/testing';
import { istTickMarkFormatter, istTimeFormatter, toBar, tradeMarkers } from './chartData';

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
    const markers = tradeMarkers([trade], candles);
    expect(markers.map((m) => [m.id, m.time, m.shape])).toEqual([
      ['entry-5', (T0 + 60_000) / 1000, 'arrowDown'],
      ['exit-5', (T0 + 2 * 60_000) / 1000, 'circle'],
    ]);
  });

  it('leaves out trades outside the loaded candles and cancelled ones', () => {
    const before = sampleTrade({ id: 1, timestamp: new Date(T0 - 1).toISOString() });
    const after = sampleTrade({ id: 2, timestamp: new Date(T0 + 5 * 60_000).toISOString() });
    const cancelled = sampleTrade({ id: 3, status: 'cancelled', timestamp: new Date(T0).toISOString() });
    expect(tradeMarkers([before, after, cancelled], candles)).toEqual([]);
    expect(tradeMarkers([before], [])).toEqual([]);
  });
});
