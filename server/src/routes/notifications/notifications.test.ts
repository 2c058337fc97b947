// The notification routes: the caller's per-event × per-channel table (GET/PUT /api/user/notifications), the
// signed unsubscribe link, and the admin's deliveries list and test send.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../../db/testing';
import { recordNotice } from '../../notifications/outbox';
import { createUnsubscribeLinks, UNSUBSCRIBE_TOKEN_DAYS } from '../../notifications/unsubscribe';
import type {
  DeliveryOutcome,
  NotificationChannel,
  NotificationRecipient,
  RenderedNotification,
} from '../../notifications/types';
import { registerTrader, signInFirstAdmin, type Caller } from '../../testing/admin';
import { startTestServer, type TestServer } from '../../testing/server';

interface NotificationEventRow {
  event: string;
  audience: string;
  channels: Record<string, { enabled: boolean; locked: boolean }>;
}

describe.each(testDialects())('notification routes on %s', (dialect) => {
  let t: TestServer;
  let admin: Caller;
  let trader: Caller;
  const delivered: Array<{ recipient: NotificationRecipient; message: RenderedNotification }> = [];
  const email: NotificationChannel = {
    name: 'email',
    async deliver(recipient, message): Promise<DeliveryOutcome> {
      delivered.push({ recipient, message });
      return { status: 'sent', detail: 'queued as 250' };
    },
    async close() {},
  };
  const telegram: NotificationChannel = {
    name: 'telegram',
    async deliver() {
      throw new Error('telegram is down');
    },
    async close() {},
  };

  beforeAll(async () => {
    t = await startTestServer({ dialect, overrides: { notificationChannels: [email, telegram] } });
    admin = await signInFirstAdmin(t);
    trader = await registerTrader(t, 'notify');
  });
  afterAll(async () => {
    await t.close();
  });

  const events = (json: Record<string, unknown>) => json.events as NotificationEventRow[];

  describe('GET/PUT /api/user/notifications', () => {
    it('answers 401 without a token', async () => {
      expect((await t.request('GET', '/api/user/notifications')).status).toBe(401);
      const put = await t.request('PUT', '/api/user/notifications', {
        body: { changes: [{ event: 'trade_opened', channel: 'email', enabled: false }] },
      });
      expect(put.status).toBe(401);
    });

    it('shows a trader only trader events, an admin both, and which channels this server has', async () => {
      const mine = await t.request('GET', '/api/user/notifications', { token: trader.token });
      expect(mine.status).toBe(200);
      expect(events(mine.json).every((e) => e.audience === 'trader')).toBe(true);
      expect(events(mine.json).map((e) => e.event)).toContain('trade_closed');
      expect(mine.json.channels).toEqual([
        { channel: 'email', label: 'E-mail', available: true },
        { channel: 'telegram', label: 'Telegram', available: true },
        { channel: 'push', label: 'Browser push', available: false },
      ]);
      const payment = events(mine.json).find((e) => e.event === 'payment_received');
      expect(payment?.channels.email).toEqual({ enabled: true, locked: true });
      expect(payment?.channels.push).toEqual({ enabled: false, locked: false });

      const theirs = await t.request('GET', '/api/user/notifications', { token: admin.token });
      expect(events(theirs.json).map((e) => e.event)).toContain('feed_down');
    });

    it('saves the changed switches and shows them back', async () => {
      const res = await t.request('PUT', '/api/user/notifications', {
        token: trader.token,
        body: {
          changes: [
            { event: 'trade_opened', channel: 'email', enabled: false },
            { event: 'renewal_reminder', channel: 'telegram', enabled: true },
          ],
        },
      });
      expect(res.status).toBe(200);
      const table = events(res.json);
      expect(table.find((e) => e.event === 'trade_opened')?.channels.email.enabled).toBe(false);
      expect(table.find((e) => e.event === 'renewal_reminder')?.channels.telegram.enabled).toBe(true);
      const again = await t.request('GET', '/api/user/notifications', { token: trader.token });
      expect(events(again.json)).toEqual(table);
    });

    it.each([
      [{}, 'changes'],
      [{ changes: [] }, 'changes'],
      [{ changes: [{ event: 'trade_opened', channel: 'sms', enabled: false }] }, 'changes.0.channel'],
      [{ changes: [{ event: 'trade_opened', channel: 'email', enabled: 'no' }] }, 'changes.0.enabled'],
      [{ changes: [{ event: 'marketing', channel: 'email', enabled: true }] }, 'changes.0.event'],
      // An admin event is not a trader's to choose.
      [
        {
          changes: [
            { event: 'trade_opened', channel: 'push', enabled: false },
            { event: 'feed_down', channel: 'email', enabled: false },
          ],
        },
        'changes.1.event',
      ],
      // The payment receipt carries the tax invoice.
      [{ changes: [{ event: 'payment_received', channel: 'email', enabled: false }] }, 'changes.0.enabled'],
    ])('refuses %j with 400 naming %s and changes nothing', async (body, field) => {
      const before = await t.request('GET', '/api/user/notifications', { token: trader.token });
      const res = await t.request('PUT', '/api/user/notifications', { token: trader.token, body });
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({ error: 'validation_failed', field });
      const after = await t.request('GET', '/api/user/notifications', { token: trader.token });
      expect(after.json).toEqual(before.json);
    });

    it('lets an admin choose about admin events', async () => {
      const res = await t.request('PUT', '/api/user/notifications', {
        token: admin.token,
        body: { changes: [{ event: 'feed_down', channel: 'telegram', enabled: false }] },
      });
      expect(res.status).toBe(200);
      expect(events(res.json).find((e) => e.event === 'feed_down')?.channels.telegram.enabled).toBe(false);
    });
  });

  describe('the unsubscribe link', () => {
    const pathOf = (url: string) => {
      const u = new URL(url);
      return `${u.pathname}${u.search}`;
    };
    const emailOn = async (event: string) => {
      const res = await t.request('GET', '/api/user/notifications', { token: trader.token });
      return events(res.json).find((e) => e.event === event)?.channels.email.enabled;
    };

    it('shows a confirmation on GET without changing anything, and turns the e-mail off on POST', async () => {
      const url = await t.server.deps.unsubscribe.unsubscribeUrlFor(trader.id, 'daily_summary');
      expect(url.startsWith(`${t.config.publicUrl}/api/notifications/unsubscribe?token=`)).toBe(true);
      const shown = await t.request('GET', pathOf(url));
      expect(shown.status).toBe(200);
      expect(shown.headers.get('content-type')).toContain('text/html');
      expect(shown.text).toContain('Daily summary');
      expect(shown.text).toContain('<form method="post">');
      expect(await emailOn('daily_summary')).toBe(true);

      const done = await t.request('POST', pathOf(url));
      expect(done.status).toBe(200);
      expect(done.text).toContain('Unsubscribed');
      expect(await emailOn('daily_summary')).toBe(false);
      // Other channels of the event are untouched.
      const res = await t.request('GET', '/api/user/notifications', { token: trader.token });
      expect(events(res.json).find((e) => e.event === 'daily_summary')?.channels.telegram.enabled).toBe(true);
    });

    it("accepts a mail client's RFC 8058 one-click POST (a form body)", async () => {
      const url = await t.server.deps.unsubscribe.unsubscribeUrlFor(trader.id, 'trade_closed');
      const res = await t.request('POST', pathOf(url), {
        rawBody: 'List-Unsubscribe=One-Click',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(res.status).toBe(200);
      expect(await emailOn('trade_closed')).toBe(false);
    });

    it('refuses a forged token, an expired one, one for an essential e-mail, and a missing one', async () => {
      const forger = createUnsubscribeLinks(randomBytes(32), t.clock, t.config.publicUrl);
      const forged = await forger.unsubscribeUrlFor(trader.id, 'order_rejected');
      for (const method of ['GET', 'POST']) {
        const res = await t.request(method, pathOf(forged));
        expect(res.status, method).toBe(400);
        expect(res.text).toContain('invalid or has expired');
      }

      const old = await t.server.deps.unsubscribe.unsubscribeUrlFor(trader.id, 'order_rejected');
      t.clock.advance((UNSUBSCRIBE_TOKEN_DAYS + 1) * 86_400_000);
      try {
        const res = await t.request('POST', pathOf(old));
        expect(res.status).toBe(400);
        expect(res.text).toContain('invalid or has expired');
      } finally {
        t.clock.advance(-(UNSUBSCRIBE_TOKEN_DAYS + 1) * 86_400_000);
      }
      expect(await emailOn('order_rejected')).toBe(true);

      const receipt = await t.server.deps.unsubscribe.unsubscribeUrlFor(trader.id, 'payment_received');
      const essential = await t.request('POST', pathOf(receipt));
      expect(essential.status).toBe(400);
      expect(await emailOn('payment_received')).toBe(true);

      const missing = await t.request('GET', '/api/notifications/unsubscribe');
      expect(missing.status).toBe(400);
      expect(missing.json.error).toBe('validation_failed');
    });
  });

  describe('admin: deliveries and test send', () => {
    it('refuses a trader (403) and an anonymous caller (401)', async () => {
      for (const [method, path] of [
        ['GET', '/api/admin/notifications/deliveries'],
        ['POST', '/api/admin/notifications/test'],
      ] as const) {
        const body = method === 'POST' ? { channel: 'email' } : undefined;
        expect((await t.request(method, path, { body })).status).toBe(401);
        expect((await t.request(method, path, { token: trader.token, body })).status).toBe(403);
      }
      expect(delivered).toHaveLength(0);
    });

    it('sends a test to the calling admin now and lists it, with a failing channel and its reason', async () => {
      const sent = await t.request('POST', '/api/admin/notifications/test', {
        token: admin.token,
        body: { channel: 'email' },
      });
      expect(sent.status).toBe(200);
      expect(sent.json).toMatchObject({ channel: 'email', status: 'sent', detail: 'queued as 250' });
      expect(delivered.at(-1)?.recipient.email).toBe(admin.email);

      const failed = await t.request('POST', '/api/admin/notifications/test', {
        token: admin.token,
        body: { channel: 'telegram' },
      });
      expect(failed.status).toBe(200);
      expect(failed.json).toMatchObject({ status: 'failed', error: 'telegram is down' });

      const list = await t.request('GET', '/api/admin/notifications/deliveries', { token: admin.token });
      expect(list.status).toBe(200);
      expect(list.json.channels).toEqual(['email', 'telegram']);
      const items = list.json.items as Array<Record<string, unknown>>;
      expect(items.slice(0, 2)).toMatchObject([
        {
          event: 'test',
          channel: 'telegram',
          status: 'failed',
          lastError: 'telegram is down',
          userEmail: admin.email,
        },
        { event: 'test', channel: 'email', status: 'sent', detail: 'queued as 250', attempts: 1 },
      ]);
      const onlyFailed = await t.request('GET', '/api/admin/notifications/deliveries?status=failed', {
        token: admin.token,
      });
      expect((onlyFailed.json.items as unknown[]).length).toBe(onlyFailed.json.total);
      expect((onlyFailed.json.items as Array<{ status: string }>).every((i) => i.status === 'failed')).toBe(
        true,
      );
    });

    it('lists a real notice delivered by the running sender, newest first', async () => {
      const id = await recordNotice(
        t.server.deps.db.knex,
        { event: 'order_rejected', userId: trader.id, factKey: 'r1', payload: { reason: 'margin' } },
        t.clock.now(),
      );
      t.server.deps.notifications.wake();
      await expect
        .poll(async () => {
          const res = await t.request('GET', '/api/admin/notifications/deliveries?channel=email', {
            token: admin.token,
          });
          return (res.json.items as Array<{ outboxId: number; status: string }>).find(
            (i) => i.outboxId === id,
          )?.status;
        })
        .toBe('sent');
      expect(delivered.some((d) => d.message.outboxId === id && d.recipient.email === trader.email)).toBe(
        true,
      );
    });

    it.each([
      [{}, 400, 'channel'],
      [{ channel: 'sms' }, 400, 'channel'],
      [{ channel: 'push' }, 409, 'channel'],
    ])('refuses a test send with %j (%i naming %s)', async (body, status, field) => {
      const res = await t.request('POST', '/api/admin/notifications/test', { token: admin.token, body });
      expect(res.status).toBe(status);
      expect(res.json.field).toBe(field);
    });

    it('refuses a bad deliveries query with 400', async () => {
      const res = await t.request('GET', '/api/admin/notifications/deliveries?pageSize=1000', {
        token: admin.token,
      });
      expect(res.status).toBe(400);
      expect(res.json.message).toContain('pageSize');
    });
  });
});
