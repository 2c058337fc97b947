import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useAdminLiveStore } from '../live/adminLiveStore';
import { mockApi } from '../../../test/http';
import { pageOf, renderAdminPage } from '../test/renderAdmin';
import { sampleAdminTrade } from '../test/samples';
import { TradesPage } from './TradesPage';

const SUMMARY = {
  total: 340,
  winRate: 61.25,
  totalPnl: 125_430.5,
  totalPnlPaise: 12_543_050,
  realisedPnl: 125_378.5,
  realisedPnlPaise: 12_537_850,
  openPnl: 52,
  openPnlPaise: 5_200,
  openTrades: 3,
};
const CLOSED = sampleAdminTrade({ id: 2, status: 'closed', exitPrice: 160.5, pnl: 2600 });
const OPEN = sampleAdminTrade({ id: 3, markPnl: 40 });

describe('/admin/trades', { timeout: 20_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows the server totals and rows, and sends search and filters to the server', async () => {
    const api = mockApi({
      'GET /api/admin/trades?page=1&pageSize=25': { body: pageOf([CLOSED], { summary: SUMMARY }) },
      'GET /api/admin/trades?page=1&pageSize=25&search=24450': {
        body: pageOf([CLOSED], { summary: SUMMARY }),
      },
      'GET /api/admin/trades?page=1&pageSize=25&search=24450&status=closed': {
        body: pageOf([], { summary: { ...SUMMARY, total: 0 } }),
      },
    });
    renderAdminPage(<TradesPage />);
    const table = await screen.findByRole('table', { name: 'Trades' });
    expect(within(table).getByText('+₹2,600.00')).toBeTruthy();
    expect(screen.getByLabelText('Total P&L value').textContent).toBe('+₹1,25,430.50');
    expect(
      within(screen.getByRole('region', { name: 'Total P&L' })).getByText(
        'Realised +₹1,25,378.50 · Open +₹52.00',
      ),
    ).toBeTruthy();
    expect(screen.getByLabelText('Win Rate value').textContent).toBe('61.3%');
    expect(screen.getByLabelText('Open Trades value').textContent).toBe('3');
    fireEvent.change(screen.getByLabelText('Search'), { target: { value: '24450' } });
    await waitFor(() =>
      expect(api.called('GET', '/api/admin/trades?page=1&pageSize=25&search=24450')).toHaveLength(1),
    );
    fireEvent.click(screen.getByRole('combobox', { name: 'Status' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Closed' }));
    expect(await screen.findByText('No trades match.')).toBeTruthy();
  });

  it("shows the option symbol and an open trade's live P&L, following the admin live feed", async () => {
    mockApi({
      'GET /api/admin/trades?page=1&pageSize=25': { body: pageOf([OPEN, CLOSED], { summary: SUMMARY }) },
    });
    renderAdminPage(<TradesPage />);
    const table = await screen.findByRole('table', { name: 'Trades' });
    expect(within(table).getAllByText('NIFTY26MAR24450CE')).toHaveLength(2);
    expect(within(table).getByText('+₹40.00')).toBeTruthy();
    act(() => useAdminLiveStore.getState().applyTrade(sampleAdminTrade({ id: 3, markPnl: -12.5 })));
    expect(within(table).getByText('-₹12.50')).toBeTruthy();
    expect(within(table).queryByText('+₹40.00')).toBeNull();
  });

  it("shows the server's error instead of rows", async () => {
    mockApi({
      'GET /api/admin/trades?page=1&pageSize=25': {
        status: 403,
        body: { error: 'forbidden', message: 'Admins only' },
      },
    });
    renderAdminPage(<TradesPage />);
    expect(await screen.findByText('Admins only')).toBeTruthy();
  });
});
