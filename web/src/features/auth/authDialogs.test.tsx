import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useSessionStore } from '../../stores/session';
import { useUiStore } from '../../stores/ui';
import { ADMIN, makeUser } from '../../test/fixtures';
import { installFetch, json } from '../../test/http';
import { renderApp } from '../../test/renderApp';

vi.mock('../landing/LandingPage', () => ({ LandingPage: () => <div>landing page marker</div> }));
vi.mock('../dashboard/UserDashboard', () => ({ UserDashboard: () => <h1>user dashboard marker</h1> }));

afterEach(() => {
  vi.unstubAllGlobals();
});

function type(label: string | RegExp, value: string, container: HTMLElement = document.body) {
  fireEvent.change(within(container).getByLabelText(label), { target: { value } });
}

async function openLogin() {
  renderApp('/');
  useUiStore.getState().openAuthDialog('login');
  return screen.findByRole('dialog', { name: 'Welcome Back' });
}

describe('Login dialog', () => {
  it('has the spec controls: email, password, Sign In, forgot link, switch to signup', async () => {
    const dialog = await openLogin();
    expect(within(dialog).getByLabelText(/^Email/)).toBeTruthy();
    expect(within(dialog).getByLabelText(/^Password/)).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Sign In' })).toBeTruthy();
    expect(within(dialog).getByRole('link', { name: 'Forgot your password?' }).getAttribute('href')).toBe(
      '/forgot-password',
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Sign up' }));
    expect(await screen.findByRole('dialog', { name: 'Get Started' })).toBeTruthy();
  });

  it('signs an admin in, toasts and goes to /admin', async () => {
    installFetch({ 'POST /api/auth/login': json(200, { success: true, token: 'adm', user: ADMIN }) });
    const { router } = renderApp('/');
    useUiStore.getState().openAuthDialog('login');
    const dialog = await screen.findByRole('dialog', { name: 'Welcome Back' });
    type(/^Email/, ADMIN.email, dialog);
    type(/^Password/, 'Secret123', dialog);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Logged in successfully')).toBeTruthy();
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin'));
    expect(localStorage.getItem('token')).toBe('adm');
    expect(screen.queryByRole('dialog', { name: 'Welcome Back' })).toBeNull();
  });

  it('sends a user to /', async () => {
    installFetch({ 'POST /api/auth/login': json(200, { success: true, token: 'u', user: makeUser() }) });
    const { router } = renderApp('/login');
    const dialog = await screen.findByRole('dialog', { name: 'Welcome Back' });
    type(/^Email/, 'asha@example.com', dialog);
    type(/^Password/, 'Secret123', dialog);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Sign In' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(await screen.findByRole('heading', { name: 'user dashboard marker' })).toBeTruthy();
  });

  it('shows "Invalid credentials" for a 401, titled Error', async () => {
    installFetch({
      'POST /api/auth/login': json(401, { error: 'invalid_credentials', message: 'whatever' }),
    });
    const dialog = await openLogin();
    type(/^Email/, 'asha@example.com', dialog);
    type(/^Password/, 'wrong', dialog);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Invalid credentials')).toBeTruthy();
    expect(screen.getByText('Error')).toBeTruthy();
    expect(useSessionStore.getState().status).toBe('anonymous');
  });

  it("shows other failures' messages as given", async () => {
    installFetch({
      'POST /api/auth/login': json(429, { error: 'rate_limited', message: 'Too many attempts, try later' }),
    });
    const dialog = await openLogin();
    type(/^Email/, 'asha@example.com', dialog);
    type(/^Password/, 'pw', dialog);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Too many attempts, try later')).toBeTruthy();
  });

  it('requires e-mail and password before calling the server', async () => {
    const { fetchMock } = installFetch({});
    const dialog = await openLogin();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Sign In' }));
    expect(await within(dialog).findByText('password is required')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

describe('Signup dialog', () => {
  async function openSignup() {
    renderApp('/');
    useUiStore.getState().openAuthDialog('signup');
    return screen.findByRole('dialog', { name: 'Get Started' });
  }

  function fill(dialog: HTMLElement) {
    type(/^First Name/, 'Asha', dialog);
    type(/^Last Name/, 'Rao', dialog);
    type(/^Email/, 'asha@example.com', dialog);
    type(/^Phone/, '+91 98765 43210', dialog);
    type(/^Password/, 'Secret123', dialog);
  }

  it('shows the +91 phone placeholder and the terms checkbox', async () => {
    const dialog = await openSignup();
    expect(within(dialog).getByPlaceholderText('+91 98765 43210')).toBeTruthy();
    expect(within(dialog).getByLabelText('I agree to the Terms of Service and Privacy Policy')).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Create Account & Subscribe' })).toBeTruthy();
  });

  it('links the terms and the privacy policy from the checkbox, in a new tab, without ticking it', async () => {
    const dialog = await openSignup();
    const checkbox = within(dialog).getByLabelText<HTMLInputElement>(
      'I agree to the Terms of Service and Privacy Policy',
    );
    for (const [name, href] of [
      ['Terms of Service', '/terms'],
      ['Privacy Policy', '/privacy'],
    ] as const) {
      const link = within(dialog).getByRole('link', { name });
      expect(link.getAttribute('href')).toBe(href);
      expect(link.getAttribute('target')).toBe('_blank');
      expect(link.getAttribute('rel')).toContain('noopener');
    }
    expect(checkbox.checked).toBe(false);
  });

  it('refuses to continue until the terms are accepted', async () => {
    const { fetchMock } = installFetch({});
    const dialog = await openSignup();
    fill(dialog);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create Account & Subscribe' }));
    expect(await screen.findByText('Please accept the terms and conditions')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("checks the fields with the server's schema", async () => {
    const { fetchMock } = installFetch({});
    const dialog = await openSignup();
    fill(dialog);
    type(/^Phone/, '12345', dialog);
    type(/^Password/, 'short', dialog);
    fireEvent.click(within(dialog).getByLabelText('I agree to the Terms of Service and Privacy Policy'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create Account & Subscribe' }));
    expect(
      await within(dialog).findByText('phone must be an Indian mobile number like +91 98765 43210'),
    ).toBeTruthy();
    expect(within(dialog).getByText('Password must be at least 8 characters long')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('creates the account, stores the token, toasts and opens the payment dialog', async () => {
    const { requests } = installFetch({
      'POST /api/auth/register': json(201, { success: true, token: 'new', user: makeUser() }),
    });
    const dialog = await openSignup();
    fill(dialog);
    fireEvent.click(within(dialog).getByLabelText('I agree to the Terms of Service and Privacy Policy'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create Account & Subscribe' }));
    expect(await screen.findByText('Account created successfully')).toBeTruthy();
    expect(requests[0]?.body).toEqual({
      firstName: 'Asha',
      lastName: 'Rao',
      email: 'asha@example.com',
      phone: '+91 98765 43210',
      password: 'Secret123',
    });
    expect(localStorage.getItem('token')).toBe('new');
    expect(useUiStore.getState()).toMatchObject({ authDialog: null, paymentDialogOpen: true });
    expect(await screen.findByRole('dialog', { name: 'Complete Payment' })).toBeTruthy();
  });

  it("shows the server's message when signup fails", async () => {
    installFetch({
      'POST /api/auth/register': json(409, {
        error: 'email_taken',
        message: 'That e-mail is already registered',
      }),
    });
    const dialog = await openSignup();
    fill(dialog);
    fireEvent.click(within(dialog).getByLabelText('I agree to the Terms of Service and Privacy Policy'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create Account & Subscribe' }));
    expect(await screen.findByText('That e-mail is already registered')).toBeTruthy();
    expect(useSessionStore.getState().status).toBe('anonymous');
  });
});
