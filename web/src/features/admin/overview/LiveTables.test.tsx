import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import { renderWithProviders } from '../../../test/render';
import { mockApi } from '../../../test/http';
import { resetAdminLiveStore, useAdminLiveStore } from '../live/adminLiveStore';
import { sampleAdminTrade, sampleLog, sampleSignal } from '../test/samples';
import { ActiveTradesTable, LogsTable, SignalsTable } from './LiveTables';

describe('overview live tables', () => {
  let api: ReturnType<typeof mockApi>;
  beforeEach(() => {
    resetAdminLiveStore();
    // The clock note asks GET /api/market/session; a broker feed's market runs on the real clock.
    api = mockApi({
      'GET /api/market/session': {
        body: {
          facts: {
            mode: 'market',
            marketOpen: '09:15',
            marketClose: '15:30',
            entryStart: '09:15',
            entryEnd: '15:00',
            squareOff: '15:15',
          },
          marketClock: { kind: 'real', speed: 1 },
          state: { at: '2026-03-02T05:00:00.000Z', inSession: true, inEntryWindow: true, nextOpenAt: null },
        },
      },
    });
  });
  afterEach(() => vi.unstubAllGlobals());

  it('lists active trades with their user, option symbol and live P&L, and removes one when it closes', () => {
    useAdminLiveStore.getState().setActiveTrades([sampleAdminTrade({ id: 4, markPnl: -325.5 })]);
    renderWithProviders(<ActiveTradesTable />);
    const table = screen.getByRole('table', { name: 'Active trades' });
    expect(within(table).getByText('Asha Rao')).toBeTruthy();
    expect(within(table).getByText('#7 · asha@example.com')).toBeTruthy();
    // The symbol the trader sees (strike and expiry), not the bare underlying.
    expect(within(table).getByText('NIFTY26MAR24450CE')).toBeTruthy();
    expect(within(table).getByText('₹120.50')).toBeTruthy();
    expect(within(table).getByText('-₹325.50')).toBeTruthy();
    expect(within(table).getByText('live')).toBeTruthy();
    // A newer mark pushed over the socket replaces the figure.
    act(() => useAdminLiveStore.getState().applyTrade(sampleAdminTrade({ id: 4, markPnl: 52 })));
    expect(within(table).getByText('+₹52.00')).toBeTruthy();
    act(() =>
      useAdminLiveStore.getState().applyTrade(sampleAdminTrade({ id: 4, status: 'closed', pnl: 10 })),
    );
    expect(screen.getByText('No active trades.')).toBeTruthy();
  });

  it('shows signals in IST on the market clock, dated, with the executed flag', async () => {
    useAdminLiveStore.getState().setSignals([sampleSignal({ executed: true })]);
    renderWithProviders(<SignalsTable />);
    const table = screen.getByRole('table', { name: 'Signals' });
    expect(within(table).getByRole('columnheader', { name: 'Market time (IST)' })).toBeTruthy();
    expect(within(table).getByText('02 Mar 2026, 09:30 IST')).toBeTruthy();
    // On the real clock there is nothing to explain, once the answer is in.
    await waitFor(() => expect(api.called('GET', '/api/market/session')).toHaveLength(1));
    await act(async () => {});
    expect(screen.queryByRole('note')).toBeNull();
    expect(within(table).getByText('24,512.00')).toBeTruthy();
    expect(within(table).getByText('Yes')).toBeTruthy();
  });

  it('shows a log line pushed over the socket', () => {
    renderWithProviders(<LogsTable />);
    expect(screen.getByText('No log entries yet.')).toBeTruthy();
    act(() =>
      useAdminLiveStore.getState().addLog(sampleLog({ eventType: 'error', description: 'Broker timeout' })),
    );
    expect(screen.getByText('Broker timeout')).toBeTruthy();
    expect(screen.getByText('#7')).toBeTruthy();
  });
});
