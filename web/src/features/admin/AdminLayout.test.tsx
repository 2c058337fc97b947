import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { browser } from '../../lib/browser';
import { signInAs } from '../../test/fixtures';
import { installFetch, json } from '../../test/http';
import { renderWithProviders } from '../../test/render';
import { AdminLayout } from './AdminLayout';

afterEach(() => vi.restoreAllMocks());

describe('admin side menu', () => {
  it('ends with Logout, which revokes the session and reloads at / (the menu is where a phone shows it)', async () => {
    signInAs('admin');
    const { requests } = installFetch({
      'POST /api/auth/logout': json(200, { success: true, message: 'bye' }),
    });
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
    renderWithProviders(
      <MemoryRouter initialEntries={['/admin/users']}>
        <AdminLayout>
          <p>page</p>
        </AdminLayout>
      </MemoryRouter>,
    );
    const menu = screen.getByRole('navigation', { name: 'Admin' });
    const items = [...menu.querySelectorAll('a, button')];
    expect(items.at(-1)?.textContent).toBe('Logout');
    fireEvent.click(within(menu).getByRole('button', { name: 'Logout' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/'));
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /api/auth/logout']);
    expect(localStorage.getItem('token')).toBeNull();
  });
});
