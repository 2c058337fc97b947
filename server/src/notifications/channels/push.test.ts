import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { request as httpsRequest, type Agent } from 'node:https';
import { Writable } from 'node:stream';
import { SignJWT } from 'jose';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  startFakePushService,
  type FakePushService,
  type FakePushSubscription,
} from '../../../../test/fakes/push/server';
import { createManualClock } from '../../clock';
import { insertUser } from '../../db';
import { openTestDatabase, type TestDatabase } from '../../db/testing';
import { createLogger } from '../../logger';
import { PermanentDeliveryError, type NotificationRecipient, type RenderedNotification } from '../types';
import { createPushChannel } from './push';
import { listPushSubscriptions, savePushSubscription } from './pushSubscriptions';
import type { VapidKeys } from './vapidKeys';
import webpush from 'web-push';

const NOW = Date.UTC(2026, 10, 25, 10, 0);
const SUBJECT = 'mailto:support@optionpilot.example';

let fake: FakePushService;
let agent: Agent;
beforeAll(async () => {
  fake = await startFakePushService();
  agent = fake.agent();
});
afterAll(async () => {
  agent.destroy();
  await fake.close();
});

/** A raw POST to the fake, for testing the fake's own checks. */
function post(url: string, headers: Record<string, string>, body = Buffer.alloc(0)): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(url, { method: 'POST', headers, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

function rawPublicKey(key: KeyObject): string {
  const jwk = key.export({ format: 'jwk' });
  return Buffer.concat([
    Buffer.from([0x04]),
    Buffer.from(jwk.x!, 'base64url'),
    Buffer.from(jwk.y!, 'base64url'),
  ]).toString('base64url');
}

async function vapidJwt(privateKey: KeyObject, claims: { aud: string; exp: number; sub?: string }) {
  return new SignJWT({ ...(claims.sub ? { sub: claims.sub } : {}) })
    .setProtectedHeader({ alg: 'ES256', typ: 'JWT' })
    .setAudience(claims.aud)
    .setExpirationTime(claims.exp)
    .sign(privateKey);
}

describe('the fake push service', () => {
  it('accepts a message web-push sends, verifying VAPID and decrypting the payload', async () => {
    const keys = webpush.generateVAPIDKeys();
    const sub = fake.subscribe({ applicationServerKey: keys.publicKey });
    const before = fake.received.length;
    await webpush.sendNotification(sub, 'hello, browser', {
      vapidDetails: { subject: SUBJECT, ...keys },
      TTL: 60,
      agent,
    });
    const got = fake.received.slice(before);
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({ payload: 'hello, browser', ttl: 60, vapidPublicKey: keys.publicKey });
    expect(got[0]?.claims).toMatchObject({ aud: fake.url, sub: SUBJECT });
  });

  it('refuses a message without VAPID, with a forged or expired JWT, for another audience or another key', async () => {
    const sub = fake.subscribe();
    const ours = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const forger = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const k = rawPublicKey(ours.publicKey);
    const exp = Math.floor(Date.now() / 1000) + 3600;
    const headers = (t: string, key = k) => ({
      authorization: `vapid t=${t}, k=${key}`,
      ttl: '60',
      'content-encoding': 'aes128gcm',
    });
    const statuses = {
      missing: await post(sub.endpoint, { ttl: '60', 'content-encoding': 'aes128gcm' }),
      // signed by another key than the k it claims
      forged: await post(
        sub.endpoint,
        headers(await vapidJwt(forger.privateKey, { aud: fake.url, exp, sub: SUBJECT })),
      ),
      expired: await post(
        sub.endpoint,
        headers(await vapidJwt(ours.privateKey, { aud: fake.url, exp: exp - 7200, sub: SUBJECT })),
      ),
      tooFar: await post(
        sub.endpoint,
        headers(await vapidJwt(ours.privateKey, { aud: fake.url, exp: exp + 2 * 86_400, sub: SUBJECT })),
      ),
      otherAudience: await post(
        sub.endpoint,
        headers(await vapidJwt(ours.privateKey, { aud: 'https://push.example.com', exp, sub: SUBJECT })),
      ),
      noContact: await post(sub.endpoint, headers(await vapidJwt(ours.privateKey, { aud: fake.url, exp }))),
    };
    expect(statuses).toEqual({
      missing: 401,
      forged: 403,
      expired: 403,
      tooFar: 403,
      otherAudience: 403,
      noContact: 403,
    });

    // A valid JWT that gets past VAPID still needs a payload that decrypts with the subscription's keys.
    const valid = await vapidJwt(ours.privateKey, { aud: fake.url, exp, sub: SUBJECT });
    expect(await post(sub.endpoint, headers(valid), Buffer.from('not encrypted at all'))).toBe(400);

    // A subscription made with one application server key refuses messages signed by another.
    const pinned = fake.subscribe({ applicationServerKey: rawPublicKey(forger.publicKey) });
    expect(await post(pinned.endpoint, headers(valid))).toBe(403);
    expect(await post(`${fake.url}/push/unknown`, headers(valid))).toBe(404);
  });
});

describe('the push channel', () => {
  let t: TestDatabase;
  let vapid: VapidKeys;
  let logs: string[];
  let userId: number;
  const clock = createManualClock(NOW);

  const recipient = (): NotificationRecipient => ({
    userId,
    email: 'asha@example.com',
    name: 'Asha Rao',
    unsubscribeUrl: 'http://127.0.0.1/unsubscribe',
  });
  const message: RenderedNotification = {
    outboxId: 41,
    event: 'trade_closed',
    title: 'Trade closed: NIFTY 24000 CE',
    text: 'Closed at the target. Net P&L ₹1,234.50.',
    html: '<p>ignored by push</p>',
    path: '/dashboard?tab=trades',
    essential: false,
  };

  function channel(keys = vapid) {
    const destination = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        logs.push(chunk.toString());
        callback();
      },
    });
    return createPushChannel({
      db: t.db.knex,
      logger: createLogger({ level: 'info', destination }),
      clock,
      vapid: keys,
      subject: SUBJECT,
      agent,
    });
  }

  async function register(
    sub: FakePushSubscription | { endpoint: string; keys: FakePushSubscription['keys'] },
  ) {
    await savePushSubscription(t.db.knex, {
      userId,
      endpoint: sub.endpoint,
      p256dh: sub.keys.p256dh,
      auth: sub.keys.auth,
      userAgent: 'test',
      now: NOW - 60_000,
    });
  }

  beforeEach(async () => {
    t = await openTestDatabase('sqlite');
    vapid = webpush.generateVAPIDKeys();
    logs = [];
    ({ id: userId } = await insertUser(t.db.knex, {
      email: 'asha@example.com',
      first_name: 'Asha',
      last_name: 'Rao',
      password_hash: 'x',
    }));
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it('sends the rendered notice to every browser of the user, encrypted to each and signed with VAPID', async () => {
    const laptop = fake.subscribe({ applicationServerKey: vapid.publicKey });
    const phone = fake.subscribe({ applicationServerKey: vapid.publicKey });
    await register(laptop);
    await register(phone);
    const before = fake.received.length;

    const outcome = await channel().deliver(recipient(), message);

    expect(outcome).toEqual({ status: 'sent', detail: '2 of 2 browsers' });
    const got = fake.received.slice(before);
    expect(got.map((m) => m.subscriptionId).sort()).toEqual(
      [laptop, phone].map((s) => s.endpoint.split('/').pop()).sort(),
    );
    for (const m of got) {
      expect(JSON.parse(m.payload)).toEqual({
        title: 'Trade closed: NIFTY 24000 CE',
        body: 'Closed at the target. Net P&L ₹1,234.50.',
        url: '/dashboard?tab=trades',
        tag: 'notice-41',
      });
      expect(m.vapidPublicKey).toBe(vapid.publicKey);
      expect(m.claims).toMatchObject({ aud: fake.url, sub: SUBJECT });
      // A trade an hour late is stale: the push service may drop it after that.
      expect(m.ttl).toBe(3600);
      expect(m.urgency).toBe('high');
    }
    const rows = await listPushSubscriptions(t.db.knex, userId);
    expect(rows.map((r) => r.last_success_at)).toEqual([NOW, NOW]);
  });

  it('keeps a receipt for a day at normal urgency', async () => {
    await register(fake.subscribe());
    const before = fake.received.length;
    await channel().deliver(recipient(), { ...message, event: 'payment_received', outboxId: 42 });
    expect(fake.received.slice(before).map((m) => [m.ttl, m.urgency])).toEqual([[86_400, 'normal']]);
  });

  it('answers no_address when the user has no browser subscribed, sending nothing', async () => {
    const before = fake.received.length + fake.refused.length;
    expect(await channel().deliver(recipient(), message)).toEqual({ status: 'no_address' });
    expect(fake.received.length + fake.refused.length).toBe(before);
  });

  it('forgets a browser whose push service answers 410 and still delivers to the others', async () => {
    const gone = fake.subscribe();
    const live = fake.subscribe();
    await register(gone);
    await register(live);
    fake.markGone(gone.endpoint);

    expect(await channel().deliver(recipient(), message)).toEqual({
      status: 'sent',
      detail: '1 of 2 browsers',
    });
    const rows = await listPushSubscriptions(t.db.knex, userId);
    expect(rows.map((r) => r.endpoint)).toEqual([live.endpoint]);
    expect(logs.join('')).toContain('push subscription gone, removed');
  });

  it('fails permanently when every browser is gone, and the user then has no address', async () => {
    const gone = fake.subscribe();
    await register(gone);
    fake.markGone(gone.endpoint);
    const push = channel();
    await expect(push.deliver(recipient(), message)).rejects.toThrow(PermanentDeliveryError);
    expect(await listPushSubscriptions(t.db.knex, userId)).toEqual([]);
    expect(await push.deliver(recipient(), message)).toEqual({ status: 'no_address' });
  });

  it('fails permanently, keeping the subscription, when the push service refuses our key (403)', async () => {
    const other = webpush.generateVAPIDKeys();
    await register(fake.subscribe({ applicationServerKey: other.publicKey }));
    const error = await channel()
      .deliver(recipient(), message)
      .catch((err: unknown) => err);
    expect(error).toBeInstanceOf(PermanentDeliveryError);
    expect((error as Error).message).toContain('403');
    expect(await listPushSubscriptions(t.db.knex, userId)).toHaveLength(1);
  });

  it.each([429, 503])('throws a retryable error on %i, keeping the subscription', async (status) => {
    const sub = fake.subscribe();
    await register(sub);
    fake.failNext(status);
    const error = await channel()
      .deliver(recipient(), message)
      .catch((err: unknown) => err);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(PermanentDeliveryError);
    expect((error as Error).message).toContain(`answered ${status}`);
    // The error is recorded by the sender: it names the service's host, never the subscription's private path.
    expect((error as Error).message).not.toContain(sub.endpoint.split('/').pop());
    expect(await listPushSubscriptions(t.db.knex, userId)).toHaveLength(1);
  });

  it('throws a retryable error when the push service cannot be reached', async () => {
    await register({
      endpoint: 'https://127.0.0.1:9/push/unreachable',
      keys: fake.subscribe().keys,
    });
    const error = await channel()
      .deliver(recipient(), message)
      .catch((err: unknown) => err);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(PermanentDeliveryError);
    expect((error as Error).message).toMatch(/127\.0\.0\.1:9 unreachable/);
  });

  it('never logs an endpoint or key', async () => {
    const gone = fake.subscribe();
    const refused = fake.subscribe({ applicationServerKey: webpush.generateVAPIDKeys().publicKey });
    await register(gone);
    await register(refused);
    fake.markGone(gone.endpoint);
    await channel()
      .deliver(recipient(), message)
      .catch(() => undefined);
    const text = logs.join('');
    expect(text).not.toBe('');
    for (const secret of [
      gone.endpoint,
      refused.endpoint,
      gone.keys.p256dh,
      gone.keys.auth,
      refused.keys.auth,
    ]) {
      expect(text).not.toContain(secret);
    }
  });
});
