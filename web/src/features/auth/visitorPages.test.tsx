import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { useSessionStore } from '../../stores/session';
import { ADMIN, makeUser, signInAs } from '../../test/fixtures';
import { installFetch, json } from '../../test/http';
import { renderApp } from '../../test/renderApp';
import { RESET_REDIRECT_DELAY_MS } from './ResetPasswordPage';

vi.mock('../landing/LandingPage', () => ({ LandingPage: () => <div>landing page marker</div> }));
vi.mock('../dashboard/UserDashboard', () => ({ UserDashboard: () => <h1>user dashboard marker</h1> }));
// The panel loads its data and opens its socket (its own tests cover that); here only the arrival at /admin counts.
vi.mock('../admin/AdminPanelPage', () => ({ AdminPanelPage: () => <h1>admin panel marker</h1> }));

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function type(label: string | RegExp, value: string) {
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
}

describe('/reset-password', () => {
  async function submitReset(path: string, newPassword: string, confirmPassword: string) {
    const view = renderApp(path);
    await screen.findByRole('heading', { name: 'Reset your password' });
    type('New Password', newPassword);
    type('Confirm Password', confirmPassword);
    fireEvent.click(screen.getByRole('button', { name: 'Reset Password' }));
    return view;
  }

  it('asks for the e-mailed link when the token is missing', async () => {
    const { fetchMock } = installFetch({});
    await submitReset('/reset-password', 'Secret123', 'Secret123');
    expect(
      await screen.findByText('Reset token is missing. Please use the link from your email.'),
    ).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it.each([
    ['', '', 'Please fill in all fields'],
    ['Secret123', 'Secret124', 'Passwords do not match'],
    ['Ab1', 'Ab1', 'Password must be at least 8 characters long'],
    ['ABCDEFG1', 'ABCDEFG1', 'Password must contain at least one lowercase letter'],
    ['abcdefg1', 'abcdefg1', 'Password must contain at least one uppercase letter'],
    ['Abcdefgh', 'Abcdefgh', 'Password must contain at least one number'],
  ])('rejects "%s"/"%s" with "%s"', async (password, confirm, message) => {
    const { fetchMock } = installFetch({});
    await submitReset('/reset-password?token=tok', password, confirm);
    expect(await screen.findByText(message)).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('has a show/hide toggle on each password field', async () => {
    renderApp('/reset-password?token=tok');
    const field = (await screen.findByLabelText('New Password')) as HTMLInputElement;
    expect(field.type).toBe('password');
    // Mantine toggles on mouse-down so the field keeps focus.
    fireEvent.mouseDown(screen.getByRole('button', { name: 'Show or hide the new entry' }));
    expect(field.type).toBe('text');
    expect(screen.getByRole('button', { name: 'Show or hide the confirmation' })).toBeTruthy();
  });

  it('sends token and new password, confirms, and moves to /login after 3 seconds', async () => {
    // Fake clock that still advances on its own, so Testing Library's polling keeps working.
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { requests } = installFetch({
      'POST /api/auth/reset-password': json(200, { success: true, message: 'Password updated.' }),
    });
    const { router } = await submitReset('/reset-password?token=tok123', 'Secret123', 'Secret123');
    expect(await screen.findByText(/Redirecting you to sign in/)).toBeTruthy();
    expect(requests[0]?.body).toEqual({ token: 'tok123', newPassword: 'Secret123' });
    expect(router.state.location.pathname).toBe('/reset-password');
    act(() => {
      vi.advanceTimersByTime(RESET_REDIRECT_DELAY_MS);
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  });

  it('titles a server failure "Password Reset Failed"', async () => {
    installFetch({
      'POST /api/auth/reset-password': json(400, {
        error: 'invalid_token',
        message: 'This link has expired',
      }),
    });
    await submitReset('/reset-password?token=old', 'Secret123', 'Secret123');
    expect(await screen.findByText('Password Reset Failed')).toBeTruthy();
    expect(screen.getByText('This link has expired')).toBeTruthy();
  });
});

describe('/forgot-password', () => {
  async function request(email: string) {
    renderApp('/forgot-password');
    await screen.findByRole('heading', { name: 'Forgot your password?' });
    type(/^Email/, email);
    fireEvent.click(screen.getByRole('button', { name: 'Send Reset Link' }));
  }

  it('confirms, and Try Again returns to the form', async () => {
    const { requests } = installFetch({
      'POST /api/auth/request-password-reset': json(200, { success: true, message: 'Check your inbox.' }),
    });
    await request('asha@example.com');
    expect(await screen.findByText('Check your inbox.')).toBeTruthy();
    expect(requests[0]?.body).toEqual({ email: 'asha@example.com' });
    fireEvent.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByRole('button', { name: 'Send Reset Link' })).toBeTruthy();
  });

  it('shows a returned reset link in a test-mode toast with a copy action', async () => {
    const link = 'http://127.0.0.1:3000/reset-password?token=abc';
    installFetch({
      'POST /api/auth/request-password-reset': json(200, { success: true, message: 'Sent', resetLink: link }),
    });
    await request('asha@example.com');
    const anchor = await screen.findByRole('link', { name: 'Password reset link' });
    expect(anchor.getAttribute('href')).toBe(link);
    expect(screen.getByRole('button', { name: 'Copy link' })).toBeTruthy();
  });

  it('reports failures under "Failed to request password reset"', async () => {
    installFetch({
      'POST /api/auth/request-password-reset': json(429, { error: 'rate_limited', message: 'Slow down' }),
    });
    await request('asha@example.com');
    expect(await screen.findByText('Failed to request password reset')).toBeTruthy();
    expect(screen.getByText('Slow down')).toBeTruthy();
  });

  it('calls a reply without success "Invalid response from server"', async () => {
    installFetch({ 'POST /api/auth/request-password-reset': json(200, { hello: 'world' }) });
    await request('asha@example.com');
    expect(await screen.findByText('Invalid response from server')).toBeTruthy();
  });
});

describe('/admin-login', () => {
  it('starts with an empty form (no default credentials)', async () => {
    renderApp('/admin-login');
    expect(((await screen.findByLabelText(/^Email/)) as HTMLInputElement).value).toBe('');
    expect((screen.getByLabelText(/^Password/) as HTMLInputElement).value).toBe('');
  });

  it('signs an admin in and goes to /admin', async () => {
    installFetch({
      'POST /api/auth/admin-login': json(200, {
        success: true,
        token: 'adm',
        message: 'Welcome',
        user: ADMIN,
      }),
    });
    const { router } = renderApp('/admin-login');
    type(/^Email/, ADMIN.email);
    type(/^Password/, 'Secret123');
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin'));
    expect(await screen.findByText('admin panel marker')).toBeTruthy();
    expect(useSessionStore.getState().status).toBe('admin');
  });

  it('titles failures "Admin Login Failed" with the server message', async () => {
    installFetch({
      'POST /api/auth/admin-login': json(403, { error: 'forbidden', message: 'Not an admin account' }),
    });
    renderApp('/admin-login');
    type(/^Email/, 'asha@example.com');
    type(/^Password/, 'Secret123');
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Admin Login Failed')).toBeTruthy();
    expect(screen.getByText('Not an admin account')).toBeTruthy();
    expect(useSessionStore.getState().status).toBe('anonymous');
  });

  it('sends an admin who is already signed in to /admin', async () => {
    signInAs('admin');
    const { router } = renderApp('/admin-login');
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin'));
    expect(await screen.findByText('admin panel marker')).toBeTruthy();
  });
});

describe('/create-admin', () => {
  it('creates the first admin and shows the one-time password with a copy button and a warning', async () => {
    installFetch({
      'POST /api/init-admin': json(201, {
        success: true,
        message: 'Admin created',
        email: 'admin@optionpilot.local',
        password: 'Gen3rated-Once!',
      }),
    });
    renderApp('/create-admin');
    fireEvent.click(await screen.findByRole('button', { name: 'Create admin' }));
    expect(await screen.findByText('Gen3rated-Once!')).toBeTruthy();
    expect(screen.getByText('admin@optionpilot.local')).toBeTruthy();
    expect(screen.getByText('Store this password now')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Copy password' })).toBeTruthy();
  });

  it("shows the server's message when an admin already exists", async () => {
    installFetch({
      'POST /api/init-admin': json(409, { error: 'conflict', message: 'An admin already exists' }),
    });
    renderApp('/create-admin');
    fireEvent.click(await screen.findByRole('button', { name: 'Create admin' }));
    expect(await screen.findByText('An admin already exists')).toBeTruthy();
  });

  it('keeps "Make admin" disabled while the e-mail is empty', async () => {
    renderApp('/create-admin');
    const button = (await screen.findByRole('button', { name: 'Make admin' })) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    type('User email', 'asha@example.com');
    expect(button.disabled).toBe(false);
  });

  it('promotes a user with the admin session, or shows why not', async () => {
    signInAs('user', makeUser());
    const { requests } = installFetch({
      'POST /api/make-admin': json(403, { error: 'forbidden', message: 'Admin rights required' }),
    });
    renderApp('/create-admin');
    type('User email', 'asha@example.com');
    fireEvent.click(await screen.findByRole('button', { name: 'Make admin' }));
    expect(await screen.findByText('Admin rights required')).toBeTruthy();
    expect(requests[0]?.headers.Authorization).toBe('Bearer user-token');
    expect(requests[0]?.body).toEqual({ email: 'asha@example.com' });
  });
});
