import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { browser } from '../../lib/browser';
import { useSessionStore } from '../../stores/session';
import { mockApi } from '../../test/http';
import { renderWithProviders } from '../../test/render';
import { ANGEL_FORM_FIELDS, brokerOffer, EXPIRED_BROKER } from './brokerFixtures';
import { ReconnectBanner } from './ReconnectBanner';

const EXPIRED = EXPIRED_BROKER;
// 08:30 IST and 08:29 IST on 7 Jan 2026.
const AT_0830 = Date.UTC(2026, 0, 7, 3, 0);
const AT_0829 = Date.UTC(2026, 0, 7, 2, 59);

describe('Reconnect banner', () => {
  beforeEach(() => {
    window.localStorage.setItem('token', 'jwt');
    useSessionStore.setState({ token: 'jwt' });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('appears from 08:30 IST for an expired session and reconnects in one click', async () => {
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
    mockApi({
      'GET /api/user/broker': { body: EXPIRED },
      'POST /api/user/broker/connect': {
        body: {
          loginUrl: 'https://kite.example/connect/login?state=s2',
          expiresAt: '2026-01-07T03:10:00.000Z',
        },
      },
    });
    renderWithProviders(<ReconnectBanner now={() => AT_0830} />);
    expect(await screen.findByText('Broker session expired')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Reconnect' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://kite.example/connect/login?state=s2'));
  });

  it('stays hidden before 08:30 IST and while the session is valid', async () => {
    const api = mockApi({ 'GET /api/user/broker': { body: EXPIRED } });
    const early = renderWithProviders(<ReconnectBanner now={() => AT_0829} />);
    await waitFor(() => expect(api.called('GET', '/api/user/broker')).toHaveLength(1));
    expect(screen.queryByText('Broker session expired')).toBeNull();
    early.unmount();

    const valid = mockApi({
      'GET /api/user/broker': { body: { ...EXPIRED, session: 'connected', connected: true } },
    });
    renderWithProviders(<ReconnectBanner now={() => AT_0830} />);
    await waitFor(() => expect(valid.called('GET', '/api/user/broker')).toHaveLength(1));
    expect(screen.queryByText('Broker session expired')).toBeNull();
  });

  it('opens the daily login form for a broker that logs in by form, and hides once connected', async () => {
    const angel = { ...EXPIRED, brokerType: 'angelone' as const };
    const api = mockApi({
      'GET /api/user/broker': { body: angel },
      'GET /api/brokers': {
        body: { brokers: [brokerOffer('angelone', true, { form: ANGEL_FORM_FIELDS })], egressIp: null },
      },
      'POST /api/user/broker/login': {
        body: { success: true, message: 'Broker Connected', broker: { ...angel, session: 'connected' } },
      },
      'GET /api/auth/me': { body: null },
    });
    renderWithProviders(<ReconnectBanner now={() => AT_0830} />);
    expect(await screen.findByText('Broker session expired')).toBeTruthy();
    await waitFor(() => expect(api.called('GET', '/api/brokers')).toHaveLength(1));
    fireEvent.click(screen.getByRole('button', { name: 'Reconnect' }));
    expect(await screen.findByRole('dialog', { name: 'Log in to Angel One' })).toBeTruthy();
    expect(api.called('POST', '/api/user/broker/connect')).toHaveLength(0);
    fireEvent.change(screen.getByLabelText('Client code', { exact: false }), { target: { value: 'A1234' } });
    fireEvent.change(screen.getByLabelText('MPIN', { exact: false }), { target: { value: '1234' } });
    fireEvent.change(screen.getByLabelText('TOTP', { exact: false }), { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(api.called('POST', '/api/user/broker/login')).toHaveLength(1));
  });
});
