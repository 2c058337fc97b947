import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { SESSION_EXPIRED_EVENT } from '../api/client';
import { browser } from '../lib/browser';
import { useSessionStore } from '../stores/session';
import { useUiStore } from '../stores/ui';
import { makeUser, signInAs } from '../test/fixtures';
import { installFetch, json } from '../test/http';
import { renderApp } from '../test/renderApp';

// The landing page is another feature's work; a marker keeps these tests about routing only.
vi.mock('../features/landing/LandingPage', () => ({ LandingPage: () => <div>landing page marker</div> }));
// The real dashboard opens sockets and polls; a stand-in inside the shell's signed-in frame keeps these tests about
// routing, the welcome and Logout.
vi.mock('../features/dashboard/UserDashboard', async () => {
  const { SignedInLayout } = await import('../components/SignedInLayout');
  return {
    UserDashboard: () => (
      <SignedInLayout>
        <h1>user dashboard marker</h1>
      </SignedInLayout>
    ),
  };
});

// The admin pages open the live socket; one that never connects keeps these tests off the network.
vi.mock('socket.io-client', () => ({
  io: vi.fn(() => ({ connected: false, on: vi.fn(), connect: vi.fn(), disconnect: vi.fn() })),
}));

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const LANDING = 'landing page marker';
const USER_DASHBOARD = { name: 'user dashboard marker', level: 1 } as const;
const ADMIN_PANEL = { name: 'Admin Panel', level: 1 } as const;

describe('route guards (spec §2 route table)', () => {
  describe('/', () => {
    it('shows the landing page to visitors', async () => {
      signInAs('visitor');
      renderApp('/');
      expect(await screen.findByText(LANDING)).toBeTruthy();
    });

    it('shows the user dashboard with the welcome and Logout to users', async () => {
      signInAs('user', makeUser({ firstName: 'Asha' }));
      renderApp('/');
      expect(await screen.findByRole('heading', USER_DASHBOARD)).toBeTruthy();
      expect(screen.getByText('Welcome, Asha')).toBeTruthy();
      expect(screen.getByRole('button', { name: 'Logout' })).toBeTruthy();
      expect(screen.queryByText(LANDING)).toBeNull();
    });

    it('greets by e-mail when the first name is empty', async () => {
      signInAs('user', makeUser({ firstName: '', email: 'nofirst@example.com' }));
      renderApp('/');
      expect(await screen.findByText('Welcome, nofirst@example.com')).toBeTruthy();
    });

    it('shows the admin panel to admins', async () => {
      signInAs('admin');
      installFetch({}); // the panel's data calls answer 404 here: only the route is under test
      renderApp('/');
      expect(await screen.findByRole('heading', ADMIN_PANEL)).toBeTruthy();
    });

    it('waits for GET /api/auth/me when a token is stored, then routes by role', async () => {
      localStorage.setItem('token', 'tok');
      useSessionStore.setState({ token: 'tok', status: 'unknown' });
      installFetch({ 'GET /api/auth/me': json(200, makeUser({ isAdmin: true, firstName: 'Root' })) });
      renderApp('/');
      expect(screen.getByRole('status', { name: 'Loading' })).toBeTruthy();
      expect(await screen.findByRole('heading', ADMIN_PANEL)).toBeTruthy();
      expect(screen.getByText('Welcome, Root')).toBeTruthy();
    });
  });

  describe('/admin/users', () => {
    it('sends visitors to the admin sign-in', async () => {
      signInAs('visitor');
      const { router } = renderApp('/admin/users');
      expect(await screen.findByRole('heading', { name: 'Admin sign-in' })).toBeTruthy();
      expect(router.state.location.pathname).toBe('/admin-login');
    });

    it('sends signed-in non-admins to /', async () => {
      signInAs('user');
      const { router } = renderApp('/admin/users');
      expect(await screen.findByRole('heading', USER_DASHBOARD)).toBeTruthy();
      expect(router.state.location.pathname).toBe('/');
    });

    it('shows the users page to admins', async () => {
      signInAs('admin');
      installFetch({}); // the page's data calls answer 404 here: only the route is under test
      const { router } = renderApp('/admin/users');
      expect(await screen.findByRole('heading', { name: 'Users', level: 1 })).toBeTruthy();
      expect(router.state.location.pathname).toBe('/admin/users');
    });
  });

  it.each(['revenue', 'trades', 'payments', 'brokers', 'subscriptions', 'strategies'])(
    '/admin/%s is admin only',
    async (section) => {
      signInAs('user');
      const { router } = renderApp(`/admin/${section}`);
      await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    },
  );

  describe('/dashboard', () => {
    it('sends visitors to /', async () => {
      signInAs('visitor');
      const { router } = renderApp('/dashboard');
      expect(await screen.findByText(LANDING)).toBeTruthy();
      expect(router.state.location.pathname).toBe('/');
    });

    it('shows the user dashboard to admins too', async () => {
      signInAs('admin');
      renderApp('/dashboard');
      expect(await screen.findByRole('heading', USER_DASHBOARD)).toBeTruthy();
    });
  });

  describe('/dev-dashboard', () => {
    it('sends visitors to the demo at /test-dashboard', async () => {
      signInAs('visitor');
      installFetch({ 'GET /api/demo': json(200, { available: false, reason: 'off', message: 'Demo off.' }) });
      const { router } = renderApp('/dev-dashboard');
      expect(await screen.findByRole('heading', { name: 'Demo dashboard' })).toBeTruthy();
      expect(router.state.location.pathname).toBe('/test-dashboard');
    });

    it('shows the user dashboard to anyone signed in', async () => {
      signInAs('user');
      const { router } = renderApp('/dev-dashboard');
      expect(await screen.findByRole('heading', USER_DASHBOARD)).toBeTruthy();
      expect(router.state.location.pathname).toBe('/dev-dashboard');
    });
  });

  describe('unknown routes', () => {
    it('show "Page Not Found" with a link home', async () => {
      const { router } = renderApp('/no/such/page');
      expect(await screen.findByRole('heading', { name: 'Page Not Found' })).toBeTruthy();
      expect(document.title).toBe('Page Not Found · OptionPilot');
      fireEvent.click(screen.getByRole('link', { name: 'Go to home page' }));
      await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    });

    it('include unknown admin sub-pages', async () => {
      signInAs('admin');
      renderApp('/admin/nonsense');
      expect(await screen.findByRole('heading', { name: 'Page Not Found' })).toBeTruthy();
    });
  });

  describe('/login', () => {
    it('opens the landing page with the login dialog for visitors', async () => {
      renderApp('/login');
      expect(await screen.findByText(LANDING)).toBeTruthy();
      expect(await screen.findByRole('dialog', { name: 'Welcome Back' })).toBeTruthy();
    });

    it('returns to / when the dialog is closed', async () => {
      const { router } = renderApp('/login');
      await screen.findByRole('dialog', { name: 'Welcome Back' });
      useUiStore.getState().closeAuthDialog();
      await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    });

    it('sends signed-in users to /', async () => {
      signInAs('user');
      const { router } = renderApp('/login');
      await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    });
  });

  it.each([
    ['/create-admin', 'Admin setup'],
    ['/forgot-password', 'Forgot your password?'],
    ['/reset-password?token=abc', 'Reset your password'],
  ])('%s is open to visitors', async (path, heading) => {
    renderApp(path);
    expect(await screen.findByRole('heading', { name: heading })).toBeTruthy();
  });
});

describe('session lifecycle in the shell', () => {
  it('Logout revokes the session, removes the token and reloads at /', async () => {
    signInAs('user');
    const { requests } = installFetch({
      'POST /api/auth/logout': json(200, { success: true, message: 'bye' }),
    });
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
    renderApp('/dashboard');
    fireEvent.click(await screen.findByRole('button', { name: 'Logout' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/'));
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /api/auth/logout']);
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('an expired session (401 on an authenticated call) signs out, toasts and returns to /', async () => {
    signInAs('user');
    const { router } = renderApp('/dashboard');
    await screen.findByRole('heading', USER_DASHBOARD);
    window.dispatchEvent(new CustomEvent(SESSION_EXPIRED_EVENT, { detail: { message: 'Session revoked' } }));
    expect(await screen.findByText('Session expired')).toBeTruthy();
    expect(screen.getByText('Session revoked')).toBeTruthy();
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(useSessionStore.getState().status).toBe('anonymous');
    expect(await screen.findByText(LANDING)).toBeTruthy();
  });
});
