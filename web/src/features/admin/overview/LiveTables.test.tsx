import { beforeEach, describe, expect, it } from 'vitest';
import { act, screen, within } from '@testing-library/react';
import { renderWithProviders } from '../../../test/render';
import { resetAdminLiveStore, useAdminLiveStore } from '../live/adminLiveStore';
import { sampleAdminTrade, sampleLog, sampleSignal } from '../test/samples';
import { ActiveTradesTable, LogsTable, SignalsTable } from './LiveTables';

describe('overview live tables', () => {
  beforeEach(resetAdminLiveStore);

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

  it('shows signals in IST with the executed flag', () => {
    useAdminLiveStore.getState().setSignals([sampleSignal({ executed: true })]);
    renderWithProviders(<SignalsTable />);
    const table = screen.getByRole('table', { name: 'Signals' });
    expect(within(table).getByText('09:30:00 IST')).toBeTruthy();
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
