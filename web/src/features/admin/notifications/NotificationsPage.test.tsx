import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { mockApi } from '../../../test/http';
import { pageOf, renderAdminPage } from '../test/renderAdmin';
import { NotificationsPage } from './NotificationsPage';

const FAILED = {
  id: 9,
  outboxId: 4,
  event: 'trade_closed',
  eventLabel: 'Trade closed',
  userId: 2,
  userEmail: 'asha@example.com',
  channel: 'telegram',
  status: 'failed',
  attempts: 5,
  lastError: 'Forbidden: bot was blocked by the user',
  detail: null,
  recordedAt: '2026-03-02T05:00:00.000Z',
  updatedAt: '2026-03-02T06:15:00.000Z',
  nextAttemptAt: null,
};

describe('/admin/notifications', { timeout: 20_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  it('lists deliveries with why they failed, and sends a test through a channel', async () => {
    const api = mockApi({
      'GET /api/admin/notifications/deliveries?page=1&pageSize=50': {
        body: pageOf([FAILED], { channels: ['email', 'telegram'] }),
      },
      'POST /api/admin/notifications/test': {
        body: {
          channel: 'email',
          status: 'sent',
          detail: null,
          error: null,
          message: 'Test sent by E-mail.',
        },
      },
    });
    renderAdminPage(<NotificationsPage />);
    const table = await screen.findByRole('table', { name: 'Deliveries' });
    const row = within(table).getByText('asha@example.com').closest('tr') as HTMLElement;
    expect(within(row).getByText('Trade closed')).toBeTruthy();
    expect(within(row).getByText('Failed')).toBeTruthy();
    expect(within(row).getByText('Forbidden: bot was blocked by the user')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Send test by Browser push' })).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Send test by E-mail' }));
    await waitFor(() =>
      expect(api.called('POST', '/api/admin/notifications/test')[0]?.body).toEqual({ channel: 'email' }),
    );
  });

  it('says so when no channel is set up', async () => {
    mockApi({
      'GET /api/admin/notifications/deliveries?page=1&pageSize=50': { body: pageOf([], { channels: [] }) },
    });
    renderAdminPage(<NotificationsPage />);
    expect(await screen.findByText('No channel is set up on this server.')).toBeTruthy();
    expect(screen.getByText('No deliveries yet.')).toBeTruthy();
  });
});
