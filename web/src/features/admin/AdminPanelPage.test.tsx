import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { signInAs } from '../../test/fixtures';
import { mockApi } from '../../test/http';
import { renderWithProviders } from '../../test/render';
import { AdminPanelPage } from './AdminPanelPage';
import { ADMIN_LIVE_PATHS } from './live/adminLivePaths';
import { resetAdminLiveStore, useAdminLiveStore } from './live/adminLiveStore';
import { sampleHealth, sampleStats } from './test/overviewSamples';
import { defaultControls, sampleAdminTrade, sampleLog, sampleSignal } from './test/samples';

// No network socket in unit tests: a socket that never connects keeps the panel on REST.
vi.mock('socket.io-client', () => ({
  io: vi.fn(() => ({ connected: false, on: vi.fn(), connect: vi.fn(), disconnect: vi.fn() })),
}));

const page = <T,>(items: T[]) => ({ items, total: items.length, page: 1, pageSize: 50 });

function routes(extra: Parameters<typeof mockApi>[0] = {}) {
  return mockApi({
    ...extra,
    'GET /api/admin/stats': { body: sampleStats() },
    'GET /api/admin/system-health': { body: sampleHealth() },
    [`GET ${ADMIN_LIVE_PATHS.controls}`]: { body: defaultControls() },
    [`GET ${ADMIN_LIVE_PATHS.trades}`]: { body: page([sampleAdminTrade({ id: 3 })]) },
    [`GET ${ADMIN_LIVE_PATHS.signals}`]: {
      body: page([sampleSignal({ conditionMet: '3 bullish candles' })]),
    },
    [`GET ${ADMIN_LIVE_PATHS.logs}`]: { body: page([sampleLog({ description: 'Admin paused trading' })]) },
    'POST /api/admin/trading/flatten-all': {
      body: { success: true, message: '1 position squared off', closed: 1 },
    },
  });
}

function renderPage() {
  return renderWithProviders(
    <MemoryRouter>
      <AdminPanelPage />
    </MemoryRouter>,
  );
}

describe('Admin panel overview', () => {
  beforeEach(() => {
    resetAdminLiveStore();
    signInAs('admin');
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('shows the server figures with links, ₹ in en-IN grouping, and real health checks', async () => {
    routes();
    const view = renderPage();
    expect(await screen.findByText('₹1,23,45,678.00')).toBeTruthy();
    expect(screen.getByLabelText('Active Users value').textContent).toBe('42');
    expect(screen.getByLabelText('Total Trades value').textContent).toBe('1,234');
    expect(screen.getByLabelText('Win Rate value').textContent).toBe('57.1%');
    expect(screen.getByRole('link', { name: 'Monthly Revenue' }).getAttribute('href')).toBe('/admin/revenue');
    const revenue = screen.getByRole('region', { name: 'Monthly Revenue' });
    expect(
      within(revenue).getByText('Net of refunds · gross ₹1,24,45,678.00, refunds ₹1,00,000.00'),
    ).toBeTruthy();
    expect(
      within(revenue).getByText('GST: CGST ₹94,000.00 · SGST ₹94,000.00 · IGST ₹12,345.67'),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Active Users' }).getAttribute('href')).toBe('/admin/users');
    const health = screen.getByRole('region', { name: 'System Health' });
    expect(await within(health).findByText('3 valid, 1 expired')).toBeTruthy();
    expect(within(health).getByLabelText('Broker sessions status').textContent).toBe('Degraded');
    expect(within(health).getByText('Checked at 10:30:00 IST')).toBeTruthy();
    await waitFor(() => expect(screen.getByLabelText('Bot state').textContent).toBe('Running'));
    view.unmount();
    expect(useAdminLiveStore.getState().connection).toBe('idle');
  });

  it("shows next year's missing holiday list as a notice with its date, not as a fault", async () => {
    mockApi({
      'GET /api/admin/stats': { body: sampleStats() },
      'GET /api/admin/system-health': {
        body: sampleHealth({
          status: 'ok',
          checks: [
            { name: 'calendar', status: 'ok', detail: 'holidays known for 2026; 2027 needed by 2027-01-01' },
          ],
          notices: [
            {
              id: 'calendar_next_year',
              neededBy: '2027-01-01',
              message: 'The NSE holiday list for 2027 is not in engine/data/nse-calendar.json yet.',
            },
          ],
        }),
      },
    });
    renderPage();
    const health = screen.getByRole('region', { name: 'System Health' });
    expect(await within(health).findByText('Needed by Fri, 01 Jan 2027')).toBeTruthy();
    expect(within(health).getByText(/NSE holiday list for 2027 is not in/)).toBeTruthy();
    expect(within(health).getByLabelText('Overall health').textContent).toBe('OK');
    expect(within(health).getByLabelText('Market calendar status').textContent).toBe('OK');
  });

  it('shows the live tabs from the first snapshot', async () => {
    routes();
    renderPage();
    await waitFor(() => expect(useAdminLiveStore.getState().logs).toHaveLength(1));
    fireEvent.click(screen.getByRole('tab', { name: 'Signals' }));
    expect(await screen.findByText('3 bullish candles')).toBeTruthy();
    fireEvent.click(screen.getByRole('tab', { name: 'Logs' }));
    expect(await screen.findByText('Admin paused trading')).toBeTruthy();
    fireEvent.click(screen.getByRole('tab', { name: 'Trades' }));
    expect(await screen.findByRole('table', { name: 'Active trades' })).toBeTruthy();
    fireEvent.click(screen.getByRole('tab', { name: 'Strategy' }));
    expect(await screen.findByLabelText('Consecutive Candles Required')).toBeTruthy();
    expect(screen.getByRole('switch', { name: 'Master Trading Switch' })).toBeTruthy();
  });

  it('names the clock of every time, and says when the market clock is not the server clock', async () => {
    routes({
      'GET /api/market/session': {
        body: {
          facts: {
            mode: 'always',
            marketOpen: '09:15',
            marketClose: '15:30',
            entryStart: '09:15',
            entryEnd: '15:00',
            squareOff: '15:15',
          },
          marketClock: { kind: 'simulated', speed: 300 },
          state: { at: '2026-03-02T05:00:00.000Z', inSession: true, inEntryWindow: true, nextOpenAt: null },
        },
      },
    });
    renderPage();
    await waitFor(() => expect(useAdminLiveStore.getState().logs).toHaveLength(1));
    fireEvent.click(screen.getByRole('tab', { name: 'Signals' }));
    expect(await screen.findByRole('columnheader', { name: 'Market time (IST)' })).toBeTruthy();
    expect(await screen.findByText(/is on the simulated market’s clock \(300× real time\)/)).toBeTruthy();
    fireEvent.click(screen.getByRole('tab', { name: 'Logs' }));
    expect(await screen.findByRole('columnheader', { name: 'Server time (IST)' })).toBeTruthy();
  });

  it('flattens every position only after the confirmation', async () => {
    const api = routes();
    renderPage();
    fireEvent.click(screen.getByRole('button', { name: 'Flatten all' }));
    expect(await screen.findByText('Flatten all positions?')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(api.called('POST', '/api/admin/trading/flatten-all')).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: 'Flatten all' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Yes, flatten all' }));
    expect(await screen.findByText('1 position squared off')).toBeTruthy();
    expect(api.called('POST', '/api/admin/trading/flatten-all')[0]?.body).toEqual({ confirm: true });
  });

  it('says why the figures are missing when the server refuses', async () => {
    mockApi({
      'GET /api/admin/stats': { status: 403, body: { error: 'forbidden', message: 'Admins only' } },
    });
    renderPage();
    expect(await screen.findByText('Admins only')).toBeTruthy();
    expect(screen.getByLabelText('Active Users value').textContent).toBe('—');
  });
});
