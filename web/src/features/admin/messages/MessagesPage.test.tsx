import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { mockApi } from '../../../test/http';
import { pageOf, renderAdminPage } from '../test/renderAdmin';
import { MessagesPage } from './MessagesPage';

const MESSAGE = {
  id: 3,
  name: 'Vikram',
  email: 'vikram@example.com',
  message: 'Do you support Dhan?',
  userId: null,
  createdAt: '2026-03-02T05:00:00.000Z',
  readAt: null,
};

describe('/admin/messages', { timeout: 20_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  it('lists contact messages with the unread count and marks one read', async () => {
    const api = mockApi({
      'GET /api/admin/contact-messages?page=1&pageSize=20': { body: pageOf([MESSAGE], { unreadCount: 1 }) },
      'PATCH /api/admin/contact-messages/3': { body: { success: true, message: 'ok' } },
    });
    renderAdminPage(<MessagesPage />);
    expect(await screen.findByText('Do you support Dhan?')).toBeTruthy();
    expect(screen.getByText('1 unread')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Mark as read' }));
    await waitFor(() =>
      expect(api.called('PATCH', '/api/admin/contact-messages/3')[0]?.body).toEqual({ read: true }),
    );
    // …and the list is read again, so the badge and the unread count follow.
    await waitFor(() =>
      expect(api.called('GET', '/api/admin/contact-messages?page=1&pageSize=20')).toHaveLength(2),
    );
  });
});
