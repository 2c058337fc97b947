import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, within } from '@testing-library/react';
import { notifications } from '@mantine/notifications';
import type { AdminBrokerAccountDto, BrokerStatusDto } from '@optionpilot/server/contract';
import { mockApi } from '../../../test/http';
import { pageOf, renderAdminPage } from '../test/renderAdmin';
import { makeAdminUser } from '../test/userSamples';
import { brokerOffer } from '../../broker/brokerFixtures';
import { BrokersPage } from './BrokersPage';

const STATUS: BrokerStatusDto = {
  totalUsers: 10,
  connectedUsers: 4,
  brokerBreakdown: { zerodha: 3, fyers: 1 },
  sessions: { valid: 4, expired: 1, error: 0, credentialsSaved: 2, disconnected: 3 },
};
const ACCOUNT: AdminBrokerAccountDto = {
  brokerType: 'fyers',
  apiKeyMasked: '••••9x7z',
  status: 'connected',
  connected: true,
  tokenExpiresAt: null,
  lastError: null,
  session: 'connected',
  accountName: null,
  redirectUrl: '/broker/fyers/callback',
  positionCheck: null,
  user: { id: 7, firstName: 'Asha', lastName: 'Rao', email: 'asha@example.com' },
  connectedAt: '2026-03-02T03:00:00.000Z',
  updatedAt: '2026-03-02T03:00:00.000Z',
};
const LIST = 'GET /api/admin/brokers?page=1&pageSize=25';
const BROKERS = {
  brokers: [brokerOffer('zerodha', true), brokerOffer('fyers', true), brokerOffer('groww', false)],
  egressIp: null,
};

describe('/admin/brokers', { timeout: 20_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows stats, tests a connection with the spec toasts, and disconnects a user', async () => {
    const api = mockApi({
      'GET /api/admin/broker-status': { body: STATUS },
      [LIST]: { body: pageOf([ACCOUNT]) },
      'POST /api/admin/test-broker': {
        body: {
          success: true,
          message: 'Profile read',
          check: 'profile',
          brokerType: 'fyers',
          profile: { name: 'ASHA RAO' },
        },
      },
      'POST /api/admin/force-broker-disconnect': {
        body: { success: true, message: 'Broker disconnected; bot stopped' },
      },
    });
    renderAdminPage(<BrokersPage />);
    const table = await screen.findByRole('table', { name: 'Broker accounts' });
    expect(screen.getByLabelText('Connected value').textContent).toBe('4');
    expect(screen.getByLabelText('By broker value').textContent).toBe('Zerodha 3 · Fyers 1');
    expect(within(table).getByText('••••9x7z')).toBeTruthy();
    fireEvent.click(within(table).getByRole('button', { name: 'Test' }));
    expect(await screen.findByText('Fyers Connection Success')).toBeTruthy();
    expect(screen.getByText('Profile read (ASHA RAO)')).toBeTruthy();
    expect(api.called('POST', '/api/admin/test-broker')[0]?.body).toEqual({ userId: 7 });
    // One toast at a time (spec §9): dismiss it so the next one shows.
    act(() => notifications.clean());
    fireEvent.click(within(table).getByRole('button', { name: 'Disconnect' }));
    expect(await screen.findByText('Broker disconnected; bot stopped')).toBeTruthy();
    expect(api.called('POST', '/api/admin/force-broker-disconnect')[0]?.body).toEqual({ userId: 7 });
  });

  it('reports a failed test as "Fyers Connection Failed" and a failed load as "Failed to fetch broker data"', async () => {
    const api = mockApi({
      'GET /api/admin/broker-status': { status: 500, body: { error: 'internal', message: 'boom' } },
      'GET /api/brokers': { body: BROKERS },
      [LIST]: { body: pageOf([]) },
      'POST /api/admin/brokers/fyers/test': {
        body: {
          success: false,
          check: 'api',
          brokerType: 'fyers',
          message:
            'Could not connect to Fyers API: https://api-t1.fyers.in: connection failed (ECONNREFUSED).',
        },
      },
    });
    renderAdminPage(<BrokersPage />);
    expect(await screen.findByText('Failed to fetch broker data')).toBeTruthy();
    act(() => notifications.clean());
    fireEvent.click(await screen.findByRole('button', { name: 'Test Fyers connection' }));
    expect(await screen.findByText('Fyers Connection Failed')).toBeTruthy();
    expect(screen.getByText(/Could not connect to Fyers API/)).toBeTruthy();
    expect(api.called('POST', '/api/admin/brokers/fyers/test')).toHaveLength(1);
  });

  it('offers a connection test for each registered broker only', async () => {
    mockApi({
      'GET /api/admin/broker-status': { body: STATUS },
      'GET /api/brokers': { body: BROKERS },
      [LIST]: { body: pageOf([]) },
    });
    renderAdminPage(<BrokersPage />);
    expect(await screen.findByRole('button', { name: 'Test Zerodha connection' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Test Fyers connection' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Test Groww connection' })).toBeNull();
  });

  it('creates a test user and shows its one-time password', async () => {
    const api = mockApi({
      'GET /api/admin/broker-status': { body: STATUS },
      [LIST]: { body: pageOf([]) },
      'POST /api/admin/create-test-user': {
        body: {
          success: true,
          message: 'Test user created',
          user: makeAdminUser({ email: 'test-1@optionpilot.test', isTest: true }),
          password: 'Tmp-Once-123',
        },
      },
    });
    renderAdminPage(<BrokersPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Create test user' }));
    expect((await screen.findByLabelText('Test user password')).textContent).toBe('Tmp-Once-123');
    expect(api.called('POST', '/api/admin/create-test-user')).toHaveLength(1);
  });
});
