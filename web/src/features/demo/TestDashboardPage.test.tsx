import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import type { DemoDashboardDto, DemoUnavailableDto } from '@optionpilot/server/contract';
import { sampleCandle, sampleStats, sampleTick, sampleTrade } from '../../live/testing';
import { useUiStore } from '../../stores/ui';
import { mockApi } from '../../test/http';
import { renderApp } from '../../test/renderApp';

// happy-dom has no canvas: the chart library is replaced; the app itself uses the real module.
vi.mock('lightweight-charts', () => {
  const series = { setData: vi.fn() };
  return {
    CandlestickSeries: {},
    createChart: vi.fn(() => ({
      addSeries: vi.fn(() => series),
      remove: vi.fn(),
      subscribeCrosshairMove: vi.fn(),
      unsubscribeCrosshairMove: vi.fn(),
    })),
    createSeriesMarkers: vi.fn(() => ({ setMarkers: vi.fn(), detach: vi.fn() })),
  };
});

afterEach(() => {
  vi.unstubAllGlobals();
});

const DEMO: DemoDashboardDto = {
  available: true,
  market: 'simulated',
  tick: sampleTick(),
  feedHealth: { source: 'sim', status: 'live', lastTickAt: '2026-03-02T05:00:00.000Z' },
  bot: { isRunning: true },
  stats: sampleStats({ todayPnl: -1250.5, totalTrades: 3, winRate: 66.67, totalPnl: 84_500.25 }),
  trades: [
    sampleTrade({ id: 2, symbol: 'NIFTY03MAR2624550PE', tradeType: 'PUT', markPnl: 130 }),
    sampleTrade({
      id: 1,
      status: 'closed',
      exitPrice: 140.5,
      pnl: 1_250,
      closedAt: '2026-03-02T04:20:00.000Z',
    }),
  ],
  candles: [sampleCandle()],
  generatedAt: '2026-03-02T05:00:01.000Z',
};

describe('TestDashboardPage (/test-dashboard)', () => {
  it('shows a visitor the demo account on simulated data, clearly labelled, reading the demo endpoints only', async () => {
    const api = mockApi({
      'GET /api/demo': { body: DEMO },
      'GET /api/demo/candles?limit=300': { body: [sampleCandle({ time: DEMO.candles[0]!.time - 60_000 })] },
    });
    renderApp('/test-dashboard');

    expect(await screen.findByRole('heading', { name: 'Demo dashboard' })).toBeTruthy();
    expect(screen.getByText('DEMO')).toBeTruthy();
    expect(screen.getByText('SIMULATED DATA')).toBeTruthy();
    const notice = screen.getByText(/A demo on simulated data/).closest('[role="alert"]');
    expect(notice?.textContent).toMatch(/simulated NIFTY 50 market/);
    expect(notice?.textContent).toMatch(/No order reaches a broker and no money is involved/);
    expect(notice?.textContent).toMatch(/say nothing about what real trading would gain or lose/);

    expect(within(screen.getByRole('region', { name: 'Bot Status' })).getByText('Running')).toBeTruthy();
    expect(within(screen.getByRole('region', { name: "Today's P&L" })).getByText('-₹1,250.50')).toBeTruthy();
    expect(within(screen.getByRole('region', { name: 'Total P&L' })).getByText('+₹84,500.25')).toBeTruthy();
    expect(screen.getByLabelText('NIFTY 50 price').textContent).toBe('24,512.35');
    const trades = screen.getByRole('table', { name: 'Trading history' });
    expect(within(trades).getByText('NIFTY03MAR2624550PE')).toBeTruthy();
    expect(within(trades).getAllByText('paper')).toHaveLength(2);

    // Read-only: nothing but GETs, and only the demo's own endpoints besides the app shell's reads.
    expect(api.requests.every((r) => r.method === 'GET')).toBe(true);
    expect(api.requests.map((r) => r.path).filter((p) => p.startsWith('/api/demo'))).toEqual([
      '/api/demo',
      '/api/demo/candles?limit=300',
    ]);
    expect(screen.queryByRole('switch')).toBeNull();
  });

  it('offers a visitor sign-up from the demo', async () => {
    mockApi({ 'GET /api/demo': { body: DEMO }, 'GET /api/demo/candles?limit=300': { body: [] } });
    renderApp('/test-dashboard');
    fireEvent.click(await screen.findByRole('button', { name: 'Create an account' }));
    expect(useUiStore.getState().authDialog).toBe('signup');
  });

  it('says why a server shows no demo, and asks for nothing more', async () => {
    const unavailable: DemoUnavailableDto = {
      available: false,
      reason: 'live_feed',
      message: 'This server trades on the live market, so it shows no demo.',
    };
    const api = mockApi({ 'GET /api/demo': { body: unavailable } });
    renderApp('/test-dashboard');
    const status = await screen.findByRole('status');
    expect(status.textContent).toMatch(/This server trades on the live market/);
    expect(screen.queryByText('DEMO')).toBeNull();
    expect(api.requests.map((r) => r.path)).not.toContain('/api/demo/candles?limit=300');
  });
});
