import { afterEach, describe, expect, it, vi } from 'vitest';
import { installFetch, json } from '../test/http';
import {
  ApiError,
  SESSION_EXPIRED_EVENT,
  api,
  apiRequest,
  getByKey,
  type SessionExpiredDetail,
} from './client';

afterEach(() => {
  vi.unstubAllGlobals();
});

async function failureOf(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

describe('apiRequest: requests (spec §7 common behaviour)', () => {
  it('always sends cookies, and the bearer token when one is stored', async () => {
    const { requests } = installFetch({ 'GET /api/user/stats': json(200, { totalTrades: 3 }) });
    await api.get('/api/user/stats');
    expect(requests[0]?.credentials).toBe('include');
    expect(requests[0]?.headers.Authorization).toBeUndefined();

    localStorage.setItem('token', 'abc.def');
    await expect(api.get('/api/user/stats')).resolves.toEqual({ totalTrades: 3 });
    expect(requests[1]?.headers.Authorization).toBe('Bearer abc.def');
  });

  it('sends a body as JSON with its content type, and none without a body', async () => {
    const { requests } = installFetch({
      'POST /api/auth/login': json(200, { ok: true }),
      'POST /api/x': json(200, {}),
    });
    await api.post('/api/auth/login', { email: 'a@b.co', password: 'pw' });
    expect(requests[0]?.headers['Content-Type']).toBe('application/json');
    expect(requests[0]?.body).toEqual({ email: 'a@b.co', password: 'pw' });
    await api.post('/api/x');
    expect(requests[1]?.headers['Content-Type']).toBeUndefined();
    expect(requests[1]?.body).toBeUndefined();
  });

  it('resolves undefined for an empty success body', async () => {
    installFetch({ 'DELETE /api/thing': { status: 204 } });
    await expect(api.delete('/api/thing')).resolves.toBeUndefined();
  });

  it('joins query key parts with "/" for default reads', async () => {
    const { requests } = installFetch({ 'GET /api/user/trades': json(200, []) });
    await getByKey(['/api/user', 'trades']);
    expect(requests[0]?.path).toBe('/api/user/trades');
  });
});

describe('apiRequest: errors (spec §8)', () => {
  it("uses the server's message for our { error, message } JSON and keeps status and error id", async () => {
    installFetch({
      'POST /api/auth/register': json(409, {
        error: 'email_taken',
        message: 'That e-mail is already registered',
      }),
    });
    const error = await failureOf(api.post('/api/auth/register', {}));
    expect(error.message).toBe('That e-mail is already registered');
    expect(error.status).toBe(409);
    expect(error.errorId).toBe('email_taken');
  });

  it('keeps the offending field of a validation error', async () => {
    installFetch({
      'POST /api/auth/register': json(400, {
        error: 'validation',
        message: 'phone is invalid',
        field: 'phone',
      }),
    });
    const error = await failureOf(api.post('/api/auth/register', {}));
    expect(error.field).toBe('phone');
  });

  it('formats any other body as "<status>: <text>"', async () => {
    installFetch({ 'GET /api/a': { status: 502, text: 'Bad gateway from proxy' } });
    const error = await failureOf(api.get('/api/a'));
    expect(error.message).toBe('502: Bad gateway from proxy');
    expect(error.status).toBe(502);
    expect(error.errorId).toBeNull();
  });

  it('treats JSON without both error and message as plain text', async () => {
    installFetch({ 'GET /api/a': { status: 500, text: '{"message":"only message"}' } });
    const error = await failureOf(api.get('/api/a'));
    expect(error.message).toBe('500: {"message":"only message"}');
  });

  it('falls back to the status text when the body is empty', async () => {
    installFetch({ 'GET /api/a': { status: 503, statusText: 'Service Unavailable' } });
    const error = await failureOf(api.get('/api/a'));
    expect(error.message).toBe('503: Service Unavailable');
  });

  it('reports an unreachable server as status 0 with a readable message', async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    const error = await failureOf(api.get('/api/a'));
    expect(error.status).toBe(0);
    expect(error.message).toMatch(/reach the server/);
  });

  it('rejects a success response that is not JSON', async () => {
    installFetch({ 'GET /api/a': { status: 200, text: '<html>' } });
    const error = await failureOf(api.get('/api/a'));
    expect(error.message).toBe('Invalid response from server');
  });
});

describe('apiRequest: 401 on an authenticated call', () => {
  function listenForExpiry() {
    const events: SessionExpiredDetail[] = [];
    const listener = (event: Event) => events.push((event as CustomEvent<SessionExpiredDetail>).detail);
    window.addEventListener(SESSION_EXPIRED_EVENT, listener);
    return { events, stop: () => window.removeEventListener(SESSION_EXPIRED_EVENT, listener) };
  }

  it('clears the stored token and announces the expired session', async () => {
    localStorage.setItem('token', 'stale');
    installFetch({ 'GET /api/user/stats': json(401, { error: 'unauthorized', message: 'Session revoked' }) });
    const expiry = listenForExpiry();
    const error = await failureOf(api.get('/api/user/stats'));
    expiry.stop();
    expect(error.status).toBe(401);
    expect(localStorage.getItem('token')).toBeNull();
    expect(expiry.events).toEqual([{ message: 'Session revoked' }]);
  });

  it('leaves things alone when no token was sent (a visitor is just not signed in)', async () => {
    installFetch({ 'POST /api/make-admin': json(401, { error: 'unauthorized', message: 'Sign in first' }) });
    const expiry = listenForExpiry();
    await failureOf(api.post('/api/make-admin', { email: 'x@y.co' }));
    expiry.stop();
    expect(expiry.events).toHaveLength(0);
  });

  it('leaves the session alone for credential checks that opt out', async () => {
    localStorage.setItem('token', 'keep-me');
    installFetch({
      'POST /api/auth/login': json(401, { error: 'invalid_credentials', message: 'Wrong password' }),
    });
    const expiry = listenForExpiry();
    const error = await failureOf(
      apiRequest('/api/auth/login', { method: 'POST', body: {}, expireSessionOnUnauthorized: false }),
    );
    expiry.stop();
    expect(error.message).toBe('Wrong password');
    expect(localStorage.getItem('token')).toBe('keep-me');
    expect(expiry.events).toHaveLength(0);
  });
});
