import { createECDH, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../../db/testing';
import { listPushSubscriptions } from '../../notifications/channels/pushSubscriptions';
import { loadOrCreateVapidKeys } from '../../notifications/channels/vapidKeys';
import { registration, startTestServer, type TestServer } from '../../testing/server';
import { isAllowedPushEndpoint } from './schema';

/** What a browser's `PushSubscription.toJSON()` gives. */
function browserSubscription(
  endpoint = `https://fcm.googleapis.com/fcm/send/${randomBytes(8).toString('hex')}`,
) {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return {
    endpoint,
    expirationTime: null,
    keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') },
  };
}

describe.each(testDialects())('push API (%s)', (dialect) => {
  let t: TestServer;
  let alice: { token: string; id: number };
  let bob: { token: string; id: number };
  const db = () => t.server.deps.db.knex;

  const signUp = async (n: string) => {
    const res = await t.request('POST', '/api/auth/register', { body: registration(n) });
    expect(res.status).toBe(201);
    return { token: res.json.token as string, id: (res.json.user as { id: number }).id };
  };

  beforeAll(async () => {
    t = await startTestServer({ dialect });
    alice = await signUp('push-alice');
    bob = await signUp('push-bob');
  });
  afterAll(async () => {
    await t.close();
  });

  it('gives anyone the VAPID public key from DATA_DIR/secrets, and nothing of the private one', async () => {
    const res = await t.request('GET', '/api/push/vapid-public-key');
    expect(res.status).toBe(200);
    const keys = loadOrCreateVapidKeys(t.config.dataDir);
    expect(res.json).toEqual({ publicKey: keys.publicKey });
    expect(res.text).not.toContain(keys.privateKey);
  });

  it('refuses to change subscriptions without a sign-in', async () => {
    const sub = browserSubscription();
    expect((await t.request('POST', '/api/user/push/subscriptions', { body: sub })).status).toBe(401);
    const del = await t.request('DELETE', '/api/user/push/subscriptions', {
      body: { endpoint: sub.endpoint },
    });
    expect(del.status).toBe(401);
  });

  it('saves a browser subscription for the signed-in user, once per endpoint', async () => {
    const sub = browserSubscription();
    const res = await t.request('POST', '/api/user/push/subscriptions', { token: alice.token, body: sub });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    // The same browser subscribing again (new keys) replaces its row.
    const renewed = { ...browserSubscription(sub.endpoint) };
    expect(
      (await t.request('POST', '/api/user/push/subscriptions', { token: alice.token, body: renewed })).status,
    ).toBe(204);
    const rows = await listPushSubscriptions(db(), alice.id);
    expect(rows.map((r) => [r.endpoint, r.p256dh, r.auth])).toEqual([
      [sub.endpoint, renewed.keys.p256dh, renewed.keys.auth],
    ]);
  });

  it('moves a browser to whoever subscribed on it last, so it never gets another account’s notices', async () => {
    const sub = browserSubscription();
    await t.request('POST', '/api/user/push/subscriptions', { token: alice.token, body: sub });
    await t.request('POST', '/api/user/push/subscriptions', { token: bob.token, body: sub });
    expect((await listPushSubscriptions(db(), alice.id)).map((r) => r.endpoint)).not.toContain(sub.endpoint);
    expect((await listPushSubscriptions(db(), bob.id)).map((r) => r.endpoint)).toContain(sub.endpoint);
  });

  it('forgets only the caller’s own subscription', async () => {
    const sub = browserSubscription();
    await t.request('POST', '/api/user/push/subscriptions', { token: alice.token, body: sub });
    // Bob naming Alice's endpoint removes nothing.
    const other = await t.request('DELETE', '/api/user/push/subscriptions', {
      token: bob.token,
      body: { endpoint: sub.endpoint },
    });
    expect(other.status).toBe(204);
    expect((await listPushSubscriptions(db(), alice.id)).map((r) => r.endpoint)).toContain(sub.endpoint);

    const own = await t.request('DELETE', '/api/user/push/subscriptions', {
      token: alice.token,
      body: { endpoint: sub.endpoint },
    });
    expect(own.status).toBe(204);
    expect((await listPushSubscriptions(db(), alice.id)).map((r) => r.endpoint)).not.toContain(sub.endpoint);
  });

  type Sub = ReturnType<typeof browserSubscription>;
  it.each<[string, (valid: Sub) => unknown, string]>([
    ['a missing endpoint', (v) => ({ ...v, endpoint: undefined }), 'endpoint'],
    [
      'a plain-http endpoint',
      (v) => ({ ...v, endpoint: 'http://fcm.googleapis.com/fcm/send/x' }),
      'endpoint',
    ],
    ['an endpoint that is not a URL', (v) => ({ ...v, endpoint: 'not a url' }), 'endpoint'],
    [
      'an endpoint with credentials',
      (v) => ({ ...v, endpoint: 'https://u:p@push.example.com/x' }),
      'endpoint',
    ],
    ['missing keys', (v) => ({ ...v, keys: undefined }), 'keys'],
    [
      'a p256dh that is not a P-256 point',
      (v) => ({ ...v, keys: { ...v.keys, p256dh: 'AAAA' } }),
      'keys.p256dh',
    ],
    ['an auth secret of the wrong size', (v) => ({ ...v, keys: { ...v.keys, auth: 'AAAA' } }), 'keys.auth'],
  ])('answers 400 naming the field for %s', async (_name, change, field) => {
    const body = change(browserSubscription());
    const res = await t.request('POST', '/api/user/push/subscriptions', { token: alice.token, body });
    expect(res.status, res.text).toBe(400);
    expect(res.json.field).toBe(field);
    expect(res.json.message).toMatch(new RegExp(`^${field.replace('.', '\\.')}: `));
  });

  it('answers 400 naming the endpoint when a removal names none', async () => {
    const res = await t.request('DELETE', '/api/user/push/subscriptions', { token: alice.token, body: {} });
    expect(res.status).toBe(400);
    expect(res.json.field).toBe('endpoint');
  });
});

describe('which push endpoints the server sends to', () => {
  it('accepts https push services and, outside production, the loopback fake', () => {
    expect(isAllowedPushEndpoint('https://fcm.googleapis.com/fcm/send/abc', false)).toBe(true);
    expect(isAllowedPushEndpoint('https://updates.push.services.mozilla.com/wpush/v2/abc', false)).toBe(true);
    expect(isAllowedPushEndpoint('https://127.0.0.1:4443/push/abc', true)).toBe(true);
  });

  it('refuses plain http, and in production IP addresses and local names (the server would POST there)', () => {
    expect(isAllowedPushEndpoint('http://fcm.googleapis.com/fcm/send/abc', true)).toBe(false);
    for (const endpoint of [
      'https://127.0.0.1:4443/push/abc',
      'https://[::1]/push',
      'https://10.0.0.5/push',
      'https://169.254.169.254/latest',
      'https://localhost/push',
      'https://db.internal/push',
      'https://printer.local/push',
      'https://intranet/push',
    ]) {
      expect(isAllowedPushEndpoint(endpoint, false), endpoint).toBe(false);
    }
  });
});
