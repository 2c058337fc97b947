import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import type { PublicConfigDto } from '@optionpilot/server/contract';
import { stopLiveData } from '../../live/liveData';
import { resetLiveStore, useLiveStore } from '../../live/stores';
import { sampleBot, sampleStats, sampleTick } from '../../live/testing';
import { useSessionStore } from '../../stores/session';
import { makeUser } from '../../test/fixtures';
import { renderWithProviders } from '../../test/render';
import { mockApi } from '../../test/http';
import { TEST_MODE_BANNER, UserDashboard } from './UserDashboard';

// happy-dom has no canvas: the chart library is replaced; the app itself uses the real module.
vi.mock('lightweight-charts', () => {
  const series = { setData: vi.fn() };
  return {
    CandlestickSeries: {},
    createChart: vi.fn(() => ({
      addSeries: vi.fn(() => series),
      subscribeCrosshairMove: vi.fn(),
      unsubscribeCrosshairMove: vi.fn(),
      remove: vi.fn(),
    })),
    createSeriesMarkers: vi.fn(() => ({ setMarkers: vi.fn(), detach: vi.fn() })),
  };
});

// No network socket in unit tests: a socket that never connects keeps the page on REST polling.
vi.mock('socket.io-client', () => ({
  io: vi.fn(() => ({ connected: false, on: vi.fn(), connect: vi.fn(), disconnect: vi.fn() })),
}));

const USER = makeUser({
  email: 'asha@example.in',
  subscriptionStatus: 'active',
  subscriptionStartDate: '2026-03-02T00:00:00.000Z',
  subscriptionEndDate: '2026-04-02T00:00:00.000Z',
  createdAt: '2026-03-01T00:00:00.000Z',
});

const CONFIG: PublicConfigDto = {
  version: '0.1.0',
  paymentTestMode: true,
  razorpayKeyId: null,
  feed: { kind: 'sim', simulated: true },
  sessionMode: 'always',
  demoAvailable: true,
  operator: {
    legalName: 'OptionPilot Demo',
    address: '1 Demo Street, Bengaluru',
    stateCode: '29',
    gstin: '29AAAAA0000A1Z5',
    supportEmail: 'support@optionpilot.example',
    supportPhone: '+91 80 0000 0000',
    supportHours: 'Monday-Friday 9:00 AM-6:00 PM IST',
  },
};

describe('UserDashboard', () => {
  beforeEach(() => {
    resetLiveStore();
    window.localStorage.setItem('token', 'jwt');
    useSessionStore.setState({ token: 'jwt', user: USER, status: 'user' });
  });
  afterEach(() => {
    stopLiveData();
    vi.unstubAllGlobals();
  });

  it('greets the user, shows the test-mode banner, simulated-data badge and live figures', async () => {
    const api = mockApi({
      'GET /api/config': { body: CONFIG },
      'GET /api/user/subscription': {
        body: {
          status: 'active',
          plan: null,
          startDate: USER.subscriptionStartDate,
          endDate: USER.subscriptionEndDate,
          amount: 5898.82,
          amountPaise: 589_882,
          daysLeft: 30,
        },
      },
      'GET /api/user/stats': { body: sampleStats({ todayPnl: -420.5 }) },
      'GET /api/user/trades': { body: [] },
      'GET /api/user/bot-status': {
        body: sampleBot({ isRunning: false, enabled: false, reason: 'Bot switched off' }),
      },
      'GET /api/market/nifty50': { body: sampleTick() },
      'GET /api/market/candles?interval=1&limit=300': { body: [] },
      'GET /api/user/broker': { body: null },
      'GET /api/strategy': { status: 503, body: { error: 'unavailable', message: 'Engine starting' } },
    });
    renderWithProviders(
      <MemoryRouter>
        <UserDashboard />
      </MemoryRouter>,
    );
    expect(screen.getByText('Welcome, Asha')).toBeTruthy();
    expect(await screen.findByText(TEST_MODE_BANNER)).toBeTruthy();
    expect(screen.getByText('SIMULATED DATA')).toBeTruthy();
    expect(await screen.findByText('-₹420.50')).toBeTruthy();
    expect(screen.getByText('Stopped')).toBeTruthy();
    expect(screen.getByText('Bot switched off')).toBeTruthy();
    expect(screen.getByLabelText('NIFTY 50 price').textContent).toBe('24,512.35');
    expect(screen.getByText('123.46M')).toBeTruthy();
    expect(screen.getByText('₹5,898.82')).toBeTruthy();
    expect(screen.getByText('Not Connected')).toBeTruthy();
    // The strategy could not be read yet: the panel waits, and live data asks again (polling: no socket).
    expect(screen.getByLabelText('Loading strategy')).toBeTruthy();
    expect(api.called('GET', '/api/strategy').length).toBeGreaterThan(0);
    // The socket never connected, so the REST snapshot fed the page.
    expect(api.called('GET', '/api/user/bot-status').length).toBeGreaterThan(0);
    expect(useLiveStore.getState().connection).toBe('connecting');
  });

  it('links Manage Subscription to its page', async () => {
    mockApi({ 'GET /api/config': { body: { ...CONFIG, paymentTestMode: false } } });
    renderWithProviders(
      <MemoryRouter>
        <UserDashboard />
      </MemoryRouter>,
    );
    const link = await screen.findByRole('link', { name: 'Manage Subscription' });
    expect(link.getAttribute('href')).toBe('/subscription');
    expect(screen.queryByText(TEST_MODE_BANNER)).toBeNull();
  });

  it('closes live data when the session ends without a page load', async () => {
    mockApi({ 'GET /api/config': { body: CONFIG } });
    renderWithProviders(
      <MemoryRouter>
        <UserDashboard />
      </MemoryRouter>,
    );
    expect(useLiveStore.getState().connection).toBe('connecting');
    useSessionStore.getState().clearSession();
    await waitFor(() => expect(useLiveStore.getState().connection).toBe('idle'));
  });
});
