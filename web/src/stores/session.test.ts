import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/client';
import { ADMIN, makeUser } from '../test/fixtures';
import { installFetch, json } from '../test/http';
import { resetAllStores } from './index';
import { displayNameOf, useSessionStore } from './session';
import { useUiStore } from './ui';

afterEach(() => {
  vi.unstubAllGlobals();
});

const state = () => useSessionStore.getState();

describe('session store: initial state', () => {
  it('is anonymous without a stored token', () => {
    expect(state().status).toBe('anonymous');
    expect(state().token).toBeNull();
  });

  it("is 'unknown' with a stored token until /api/auth/me answers", () => {
    localStorage.setItem('token', 'tok');
    resetAllStores();
    expect(state().status).toBe('unknown');
    expect(state().token).toBe('tok');
  });
});

describe('session store: login', () => {
  it('stores the token and sets the role from user.isAdmin', async () => {
    const user = makeUser();
    const { requests } = installFetch({
      'POST /api/auth/login': json(200, { success: true, token: 't1', user }),
    });
    await expect(state().login({ email: 'asha@example.com', password: 'Secret123' })).resolves.toEqual(user);
    expect(requests[0]?.body).toEqual({ email: 'asha@example.com', password: 'Secret123' });
    expect(localStorage.getItem('token')).toBe('t1');
    expect(state()).toMatchObject({ token: 't1', user, status: 'user' });
  });

  it("gives admins the 'admin' status", async () => {
    installFetch({ 'POST /api/auth/login': json(200, { success: true, token: 't2', user: ADMIN }) });
    await state().login({ email: ADMIN.email, password: 'Secret123' });
    expect(state().status).toBe('admin');
  });

  it('rejects with the server error and stays signed out', async () => {
    installFetch({ 'POST /api/auth/login': json(401, { error: 'invalid_credentials', message: 'Nope' }) });
    await expect(state().login({ email: 'a@b.co', password: 'x' })).rejects.toMatchObject({ status: 401 });
    expect(state().status).toBe('anonymous');
    expect(localStorage.getItem('token')).toBeNull();
  });
});

describe('session store: register', () => {
  it('stores the token of the new account', async () => {
    const user = makeUser({ id: 9 });
    installFetch({ 'POST /api/auth/register': json(201, { success: true, token: 'new', user }) });
    await state().register({
      firstName: 'Asha',
      lastName: 'Rao',
      email: 'asha@example.com',
      phone: '+91 98765 43210',
      password: 'Secret123',
    });
    expect(localStorage.getItem('token')).toBe('new');
    expect(state().status).toBe('user');
  });
});

describe('session store: admin login', () => {
  it('accepts an admin session and returns the server message', async () => {
    installFetch({
      'POST /api/auth/admin-login': json(200, {
        success: true,
        token: 'adm',
        message: 'Welcome',
        user: ADMIN,
      }),
    });
    await expect(state().adminLogin({ email: ADMIN.email, password: 'pw' })).resolves.toEqual({
      user: ADMIN,
      message: 'Welcome',
    });
    expect(state().status).toBe('admin');
  });

  it("uses the spec's fallbacks for replies that are not a session", async () => {
    installFetch({ 'POST /api/auth/admin-login': json(200, { success: false }) });
    await expect(state().adminLogin({ email: 'a@b.co', password: 'pw' })).rejects.toThrow(
      'Admin login failed',
    );
    installFetch({ 'POST /api/auth/admin-login': json(200, { success: true }) });
    await expect(state().adminLogin({ email: 'a@b.co', password: 'pw' })).rejects.toThrow(
      'Invalid admin login response',
    );
    expect(state().status).toBe('anonymous');
  });

  it('fetches the user when the reply carries only a token', async () => {
    installFetch({
      'POST /api/auth/admin-login': json(200, { success: true, token: 'adm' }),
      'GET /api/auth/me': json(200, ADMIN),
    });
    await state().adminLogin({ email: ADMIN.email, password: 'pw' });
    expect(state()).toMatchObject({ status: 'admin', user: ADMIN, token: 'adm' });
  });
});

describe('session store: refreshMe', () => {
  it('does not call the server without a token', async () => {
    const { fetchMock } = installFetch({});
    await expect(state().refreshMe()).resolves.toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
    expect(state().status).toBe('anonymous');
  });

  it('loads the user for a stored token, once even when asked twice at the same time', async () => {
    localStorage.setItem('token', 'tok');
    resetAllStores();
    const user = makeUser();
    const { requests } = installFetch({ 'GET /api/auth/me': json(200, user) });
    const [first] = await Promise.all([state().refreshMe(), state().refreshMe()]);
    expect(first).toEqual(user);
    expect(requests).toHaveLength(1);
    expect(requests[0]?.headers.Authorization).toBe('Bearer tok');
    expect(state().status).toBe('user');
  });

  it('forgets a token the server no longer accepts', async () => {
    localStorage.setItem('token', 'revoked');
    resetAllStores();
    installFetch({ 'GET /api/auth/me': json(401, { error: 'unauthorized', message: 'Session revoked' }) });
    await expect(state().refreshMe()).resolves.toBeNull();
    expect(state()).toMatchObject({ status: 'anonymous', token: null, user: null });
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('keeps the token when the server is unreachable, and does not retry', async () => {
    localStorage.setItem('token', 'tok');
    resetAllStores();
    const { requests } = installFetch({
      'GET /api/auth/me': { status: 503, statusText: 'Service Unavailable' },
    });
    await expect(state().refreshMe()).rejects.toBeInstanceOf(ApiError);
    expect(requests).toHaveLength(1);
    expect(state().status).toBe('anonymous');
    expect(localStorage.getItem('token')).toBe('tok');
  });
});

describe('session store: logout', () => {
  it('revokes the session on the server and forgets it locally', async () => {
    useSessionStore.getState().setSession('tok', makeUser());
    const { requests } = installFetch({
      'POST /api/auth/logout': json(200, { success: true, message: 'bye' }),
    });
    await state().logout();
    expect(requests.map((r) => `${r.method} ${r.path} ${r.headers.Authorization}`)).toEqual([
      'POST /api/auth/logout Bearer tok',
    ]);
    expect(state()).toMatchObject({ status: 'anonymous', token: null, user: null });
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('ends the local session even when the server call fails', async () => {
    useSessionStore.getState().setSession('tok', makeUser());
    installFetch({
      'POST /api/auth/logout': json(401, { error: 'unauthorized', message: 'already revoked' }),
    });
    await state().logout();
    expect(state().status).toBe('anonymous');
    expect(localStorage.getItem('token')).toBeNull();
  });
});

describe('resetAllStores', () => {
  it('returns every store to its initial state', () => {
    useSessionStore.getState().setSession('tok', makeUser());
    useUiStore.getState().openAuthDialog('signup');
    localStorage.clear();
    resetAllStores();
    expect(state()).toMatchObject({ status: 'anonymous', user: null, token: null });
    expect(useUiStore.getState()).toMatchObject({ authDialog: null, paymentDialogOpen: false });
  });
});

describe('ui store', () => {
  it('opens one auth dialog at a time, and the payment dialog replaces them', () => {
    const ui = useUiStore.getState();
    ui.openAuthDialog('login');
    ui.openAuthDialog('signup');
    expect(useUiStore.getState().authDialog).toBe('signup');
    ui.openPaymentDialog();
    expect(useUiStore.getState()).toMatchObject({ authDialog: null, paymentDialogOpen: true });
    ui.closePaymentDialog();
    expect(useUiStore.getState().paymentDialogOpen).toBe(false);
  });
});

describe('displayNameOf', () => {
  it('greets by first name, or by e-mail when there is none', () => {
    expect(displayNameOf(makeUser())).toBe('Asha');
    expect(displayNameOf(makeUser({ firstName: '  ' }))).toBe('asha@example.com');
    expect(displayNameOf(null)).toBe('');
  });
});
