import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_KITE_APP } from '../../../../test/fakes/kite/fixtures';
import { startKiteFake, type KiteFake } from '../../../../test/fakes/kite/server';
import { completeKiteLogin, kiteLoginUrl, nextKiteExpiry, sessionChecksum } from './login';

const app = TEST_KITE_APP;

describe('Kite login', () => {
  let fake: KiteFake;
  beforeAll(async () => {
    fake = await startKiteFake({ apps: [app] });
  });
  afterAll(() => fake.close());

  it('builds the v3 login URL with the state inside redirect_params', () => {
    const url = new URL(kiteLoginUrl('https://kite.zerodha.com/connect/login', 'kitekey01', 'a b&c'));
    expect(url.origin + url.pathname).toBe('https://kite.zerodha.com/connect/login');
    expect(url.searchParams.get('v')).toBe('3');
    expect(url.searchParams.get('api_key')).toBe('kitekey01');
    expect(new URLSearchParams(url.searchParams.get('redirect_params') ?? '').get('state')).toBe('a b&c');
  });

  it('computes the session checksum as hex(sha256(api_key + request_token + api_secret))', () => {
    // sha256("abc") — the three parts are concatenated without separators.
    expect(sessionChecksum('a', 'b', 'c')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
  });

  it('expires sessions at the next 06:00 IST', () => {
    const before = Date.parse('2026-11-24T05:59:00+05:30');
    const after = Date.parse('2026-11-24T09:15:00+05:30');
    expect(nextKiteExpiry(before)).toBe(Date.parse('2026-11-24T06:00:00+05:30'));
    expect(nextKiteExpiry(after)).toBe(Date.parse('2026-11-25T06:00:00+05:30'));
  });

  it('follows the redirect back with the state and exchanges the request token for a session', async () => {
    const res = await fetch(kiteLoginUrl(`${fake.url}/connect/login`, app.apiKey, 'st-1'), {
      redirect: 'manual',
    });
    expect(res.status).toBe(302);
    const back = new URL(res.headers.get('location') ?? '');
    expect(back.pathname).toBe('/broker/zerodha/callback');
    const query = Object.fromEntries(back.searchParams);
    expect(query).toMatchObject({ state: 'st-1', status: 'success', action: 'login' });
    const now = Date.parse('2026-11-24T08:45:00+05:30');
    const session = await completeKiteLogin({
      apiRoot: fake.url,
      credentials: { apiKey: app.apiKey, apiSecret: app.apiSecret },
      query,
      now,
    });
    expect(session).toMatchObject({
      accountId: 'AB1234',
      accountName: 'Asha Rao',
      expiresAt: nextKiteExpiry(now),
    });
    expect(session.accessToken.length).toBeGreaterThan(10);
    // A request token is single-use.
    await expect(
      completeKiteLogin({
        apiRoot: fake.url,
        credentials: { apiKey: app.apiKey, apiSecret: app.apiSecret },
        query,
        now,
      }),
    ).rejects.toMatchObject({ kind: 'auth_expired', code: 'TokenException' });
  });

  it('refuses a wrong secret (bad checksum) and a cancelled login', async () => {
    const res = await fetch(kiteLoginUrl(`${fake.url}/connect/login`, app.apiKey, 'st-2'), {
      redirect: 'manual',
    });
    const query = Object.fromEntries(new URL(res.headers.get('location') ?? '').searchParams);
    const credentials = { apiKey: app.apiKey, apiSecret: 'wrong' };
    await expect(completeKiteLogin({ apiRoot: fake.url, credentials, query, now: 0 })).rejects.toMatchObject({
      code: 'TokenException',
    });
    await expect(
      completeKiteLogin({ apiRoot: fake.url, credentials, query: { status: 'cancelled' }, now: 0 }),
    ).rejects.toMatchObject({ kind: 'rejected' });
  });
});
