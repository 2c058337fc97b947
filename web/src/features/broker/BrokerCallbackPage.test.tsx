import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { useSessionStore } from '../../stores/session';
import { makeUser } from '../../test/fixtures';
import { mockApi } from '../../test/http';
import { renderWithProviders } from '../../test/render';
import { BrokerCallbackPage } from './BrokerCallbackPage';

function renderAt(path: string) {
  const router = createMemoryRouter(
    [
      { path: '/broker/:broker/callback', element: <BrokerCallbackPage /> },
      { path: '/dashboard', element: <p>dashboard</p> },
    ],
    { initialEntries: [path] },
  );
  renderWithProviders(<RouterProvider router={router} />);
  return router;
}

describe('broker callback page', () => {
  beforeEach(() => {
    window.localStorage.setItem('token', 'jwt');
    useSessionStore.setState({ token: 'jwt' });
  });
  afterEach(() => vi.unstubAllGlobals());

  it('forwards the query once, says Broker Connected and returns to the dashboard', async () => {
    const api = mockApi({
      'POST /api/user/broker/callback': {
        body: { success: true, message: 'Broker Connected: authenticated for today.', broker: {} },
      },
      'GET /api/auth/me': { body: makeUser({ brokerConnected: true }) },
    });
    const router = renderAt(
      '/broker/zerodha/callback?request_token=rt-1&action=login&status=success&state=s1',
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(await screen.findByText('Broker Connected')).toBeTruthy();
    const calls = api.called('POST', '/api/user/broker/callback');
    expect(calls).toHaveLength(1);
    expect(calls[0]?.body).toEqual({
      broker: 'zerodha',
      query: { request_token: 'rt-1', action: 'login', status: 'success', state: 's1' },
    });
  });

  it('shows the server message when the login is refused and stays on the page', async () => {
    mockApi({
      'POST /api/user/broker/callback': {
        status: 400,
        body: {
          error: 'broker_login_invalid',
          message: 'This broker login has expired or was already used. Press Connect to try again.',
        },
      },
    });
    const router = renderAt('/broker/upstox/callback?code=c&state=old');
    expect((await screen.findByRole('alert')).textContent).toContain('expired or was already used');
    expect(router.state.location.pathname).toBe('/broker/upstox/callback');
  });
});
