import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { mockApi } from '../../../test/http';
import { pageOf, renderAdminPage } from '../test/renderAdmin';
import { makeAdminUser, makeAdminUserDetail } from '../test/userSamples';
import { UsersPage } from './UsersPage';

const SUMMARY = { total: 120, active: 80, pendingPayments: 7, newThisMonth: 12, admins: 1 };
const ASHA = makeAdminUser({ id: 7 });
const RAVI = makeAdminUser({
  id: 8,
  email: 'ravi@example.com',
  firstName: 'Ravi',
  lastName: 'Kumar',
  subscriptionStatus: 'pending',
});

function routes(extra: Parameters<typeof mockApi>[0] = {}) {
  const api = mockApi({
    'GET /api/admin/users?page=1&pageSize=25': { body: pageOf([ASHA, RAVI], { summary: SUMMARY }) },
    'GET /api/admin/users?page=1&pageSize=25&search=ravi': { body: pageOf([RAVI], { summary: SUMMARY }) },
    ...extra,
  });
  const userQueries = () =>
    api.requests.filter((r) => r.path.startsWith('/api/admin/users?')).map((r) => r.path);
  return { ...api, userQueries };
}

describe('/admin/users', { timeout: 20_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows the server counts and one page of users, and sends filters and search to the server', async () => {
    const api = routes();
    renderAdminPage(<UsersPage />);
    expect(await screen.findByText('ravi@example.com')).toBeTruthy();
    expect(screen.getByLabelText('Total Users value').textContent).toBe('120');
    expect(screen.getByLabelText('Pending Payments value').textContent).toBe('7');
    expect(api.userQueries()[0]).toBe('/api/admin/users?page=1&pageSize=25');
    fireEvent.change(screen.getByLabelText('Search'), { target: { value: 'ravi' } });
    await waitFor(() =>
      expect(api.userQueries().at(-1)).toBe('/api/admin/users?page=1&pageSize=25&search=ravi'),
    );
    await waitFor(() => expect(screen.queryByText('asha@example.com')).toBeNull());
    // Activate is offered for the pending user only.
    const table = screen.getByRole('table', { name: 'Users' });
    expect(within(table).getAllByRole('button', { name: 'Activate' })).toHaveLength(1);
  });

  it('lists admins apart from the customers, without subscription actions', async () => {
    const admin = makeAdminUser({
      id: 1,
      email: 'admin@example.com',
      firstName: 'Op',
      lastName: 'Admin',
      isAdmin: true,
      subscriptionStatus: 'pending',
    });
    const api = routes({
      'GET /api/admin/users?page=1&pageSize=25&role=admins': { body: pageOf([admin], { summary: SUMMARY }) },
    });
    renderAdminPage(<UsersPage />);
    await screen.findByText('ravi@example.com');
    fireEvent.click(screen.getByText('Admins (1)'));
    const table = await screen.findByRole('table', { name: 'Admins' });
    // The table may show before its rows arrive (a loaded CI machine did): wait for the row itself.
    expect(await within(table).findByText('admin@example.com')).toBeTruthy();
    expect(api.userQueries().at(-1)).toBe('/api/admin/users?page=1&pageSize=25&role=admins');
    expect(within(table).getByText('Admin')).toBeTruthy();
    expect(within(table).queryByText('Pending')).toBeNull();
    expect(within(table).queryByRole('button', { name: 'Activate' })).toBeNull();
    // The counts stay the customers'.
    expect(screen.getByLabelText('Total Users value').textContent).toBe('120');
  });

  it('activates a pending user with a recorded reason', async () => {
    const api = routes({
      'POST /api/admin/users/8/activate': {
        body: { success: true, message: 'ok', user: { ...RAVI, subscriptionStatus: 'active' } },
      },
    });
    renderAdminPage(<UsersPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Activate' }));
    const form = await screen.findByRole('form', { name: 'Activate user' });
    fireEvent.click(within(form).getByRole('button', { name: 'Activate' }));
    expect(await screen.findByText('reason is required')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Reason'), {
      target: { value: 'Paid by NEFT, UTR 123456789012' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Activate' }));
    expect(await screen.findByText('User Updated')).toBeTruthy();
    expect(api.called('POST', '/api/admin/users/8/activate')[0]?.body).toEqual({
      reason: 'Paid by NEFT, UTR 123456789012',
    });
  });

  it('View shows the masked broker key and no password', async () => {
    routes({ 'GET /api/admin/users/7': { body: makeAdminUserDetail({ id: 7 }) } });
    renderAdminPage(<UsersPage />);
    await screen.findByText('ravi@example.com');
    fireEvent.click(screen.getAllByRole('button', { name: 'View' })[0] as HTMLElement);
    expect(await screen.findByText('••••ab12')).toBeTruthy();
    expect(screen.getByText('•••• (encrypted, not shown)')).toBeTruthy();
    expect(screen.getByText('₹5,898.82')).toBeTruthy();
    expect(screen.queryByText(/password/i)).toBeNull();
  });

  it('Edit sends only the changed fields and reports a refusal as "Update Failed"', async () => {
    const api = routes({
      'PATCH /api/admin/users/7': {
        status: 409,
        body: { error: 'conflict', message: 'That e-mail is taken' },
      },
    });
    renderAdminPage(<UsersPage />);
    await screen.findByText('ravi@example.com');
    fireEvent.click(screen.getAllByRole('button', { name: 'Edit' })[0] as HTMLElement);
    fireEvent.change(await screen.findByLabelText('Email'), { target: { value: 'asha.rao@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Update Failed')).toBeTruthy();
    expect(screen.getByText('That e-mail is taken')).toBeTruthy();
    expect(api.called('PATCH', '/api/admin/users/7')[0]?.body).toEqual({ email: 'asha.rao@example.com' });
  });

  it('Edit sets a new password after checking the rules, and deactivates', async () => {
    const api = routes({
      'POST /api/admin/users/7/password': { body: { success: true, message: 'ok' } },
      'POST /api/admin/users/7/deactivate': {
        body: { success: true, message: 'ok', user: { ...ASHA, disabled: true } },
      },
    });
    renderAdminPage(<UsersPage />);
    await screen.findByText('ravi@example.com');
    fireEvent.click(screen.getAllByRole('button', { name: 'Edit' })[0] as HTMLElement);
    fireEvent.change(await screen.findByLabelText('Set a new password'), { target: { value: 'short' } });
    fireEvent.click(screen.getByRole('button', { name: 'Set password' }));
    expect(await screen.findByText(/at least 8 characters/)).toBeTruthy();
    expect(api.called('POST', '/api/admin/users/7/password')).toHaveLength(0);
    fireEvent.change(screen.getByLabelText('Set a new password'), { target: { value: 'N3wSecret!' } });
    fireEvent.click(screen.getByRole('button', { name: 'Set password' }));
    await waitFor(() => expect(api.called('POST', '/api/admin/users/7/password')).toHaveLength(1));
    expect(await screen.findByText('Password set; every session of this user was signed out.')).toBeTruthy();
    const deactivate = screen.getByRole('button', { name: 'Deactivate account' }) as HTMLButtonElement;
    await waitFor(() => expect(deactivate.disabled).toBe(false));
    fireEvent.click(deactivate);
    expect(await screen.findByRole('button', { name: 'Reactivate account' })).toBeTruthy();
  });
});
