import { beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen } from '@testing-library/react';
import type { MouseEventParams, Time } from 'lightweight-charts';
import { resetLiveStore, useLiveStore } from '../../live/stores';
import { sampleCandle, sampleTick, sampleTrade } from '../../live/testing';
import { renderWithProviders } from '../../test/render';
import { MARKS_LEGEND, RIGHT_OFFSET_BARS } from './CandleChart';
import { MarketCard } from './MarketCard';

// happy-dom has no canvas: the chart library is replaced by a recorder of what the card asks of it.
const chart = vi.hoisted(() => ({
  options: [] as unknown[],
  seriesOptions: [] as unknown[],
  markers: [] as unknown[],
  crosshair: null as ((param: MouseEventParams<Time>) => void) | null,
}));
vi.mock('lightweight-charts', () => ({
  CandlestickSeries: {},
  createChart: vi.fn((_el: unknown, options: unknown) => {
    chart.options.push(options);
    return {
      addSeries: vi.fn((_type: unknown, options: unknown) => {
        chart.seriesOptions.push(options);
        return { setData: vi.fn() };
      }),
      subscribeCrosshairMove: (handler: (param: MouseEventParams<Time>) => void) => {
        chart.crosshair = handler;
      },
      unsubscribeCrosshairMove: vi.fn(),
      remove: vi.fn(),
    };
  }),
  createSeriesMarkers: vi.fn(() => ({
    setMarkers: (markers: unknown[]) => chart.markers.push(markers),
    detach: vi.fn(),
  })),
}));

const T0 = Date.parse('2026-03-02T03:45:00.000Z'); // 09:15 IST

describe('Live NIFTY 50 card', () => {
  beforeEach(() => {
    resetLiveStore();
    chart.options.length = 0;
    chart.seriesOptions.length = 0;
    chart.markers.length = 0;
    chart.crosshair = null;
  });

  it('hides the volume of an index that trades none, and shows it where a feed has one', () => {
    useLiveStore.getState().applyTick(sampleTick({ volume: 0 }));
    const view = renderWithProviders(<MarketCard />);
    expect(screen.getByText('Open')).toBeTruthy();
    expect(screen.queryByText('Volume')).toBeNull();
    expect(screen.queryByText('0.00M')).toBeNull();
    view.unmount();
    resetLiveStore();
    useLiveStore.getState().applyTick(sampleTick({ volume: 123_456_789 }));
    renderWithProviders(<MarketCard />);
    expect(screen.getByText('Volume')).toBeTruthy();
    expect(screen.getByText('123.46M')).toBeTruthy();
  });

  it('marks trades with shapes only, reads a marked candle out, and keeps room at the right edge', () => {
    useLiveStore.getState().setCandles(
      1,
      [0, 1, 2].map((i) => sampleCandle({ time: T0 + i * 60_000 })),
    );
    useLiveStore.getState().setTrades([
      sampleTrade({
        id: 4,
        timestamp: new Date(T0 + 61_000).toISOString(),
        closedAt: new Date(T0 + 62_000).toISOString(),
        exitPrice: 140.25,
        status: 'closed',
        pnl: 1200,
      }),
    ]);
    renderWithProviders(<MarketCard />);
    expect(chart.options[0]).toMatchObject({ timeScale: { rightOffset: RIGHT_OFFSET_BARS } });
    expect(chart.seriesOptions[0]).toMatchObject({ lastValueVisible: false });
    const markers = chart.markers.at(-1) as Array<{ text?: string }>;
    expect(markers).toHaveLength(2);
    expect(markers.every((m) => m.text === undefined)).toBe(true);
    expect(screen.getByText(MARKS_LEGEND)).toBeTruthy();

    act(() => chart.crosshair?.({ time: ((T0 + 60_000) / 1000) as Time } as MouseEventParams<Time>));
    expect(screen.getByLabelText('Marked candle').textContent).toBe(
      '09:16 CE buy @ ₹120.50 · 09:16 exit @ ₹140.25',
    );
    act(() => chart.crosshair?.({ time: (T0 / 1000) as Time } as MouseEventParams<Time>));
    expect(screen.getByLabelText('Marked candle').textContent).toBe('');
  });
});
