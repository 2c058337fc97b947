import { afterEach, describe, expect, it, vi } from 'vitest';
import { createManualClock, type ManualClock } from '../clock';
import { insertUser, type Db } from '../db';
import { openTestDatabase, testDialects, type TestDatabase } from '../db/testing';
import { createLogger } from '../logger';
import { recordNotice } from './outbox';
import { writePreferences } from './preferences';
import { createNotificationSender, type NotificationSender, type OutboxNotice } from './sender';
import {
  PermanentDeliveryError,
  type ChannelName,
  type DeliveryOutcome,
  type NotificationChannel,
  type NotificationRecipient,
  type RenderedNotification,
} from './types';

interface Call {
  recipient: NotificationRecipient;
  message: RenderedNotification;
}

/** A channel whose n-th call (1-based, counted across every channel sharing `calls`) does what `answer` says. */
function fakeChannel(
  name: ChannelName,
  answer: (n: number) => Promise<DeliveryOutcome> = async () => ({ status: 'sent', detail: 'ok' }),
  calls: Call[] = [],
): NotificationChannel & { calls: Call[] } {
  return {
    name,
    calls,
    async deliver(recipient, message) {
      calls.push({ recipient, message });
      return answer(calls.length);
    },
    async close() {},
  };
}

const never = () => new Promise<DeliveryOutcome>(() => {});

describe.each(testDialects())('the notification sender on %s', (dialect) => {
  let t: TestDatabase | undefined;
  const senders: NotificationSender[] = [];
  afterEach(async () => {
    for (const sender of senders.splice(0)) await sender.stop();
    await t?.cleanup();
    t = undefined;
  });

  async function setup(): Promise<{ db: Db; clock: ManualClock; userId: number }> {
    t = await openTestDatabase(dialect);
    const db = t.db.knex;
    const user = await insertUser(db, {
      email: 'trader@example.com',
      first_name: 'Asha',
      last_name: 'Rao',
      password_hash: 'x',
    });
    return { db, clock: createManualClock(), userId: user.id };
  }

  function sender(
    db: Db,
    clock: ManualClock,
    channels: NotificationChannel[],
    extra: Partial<Parameters<typeof createNotificationSender>[0]> = {},
  ): NotificationSender & { rendered: OutboxNotice[] } {
    const rendered: OutboxNotice[] = [];
    const created = createNotificationSender({
      db,
      logger: createLogger({ level: 'silent' }),
      clock,
      channels,
      render: async (notice) => {
        rendered.push(notice);
        return {
          outboxId: notice.id,
          event: notice.event,
          title: `title ${notice.event}`,
          text: 'text',
          html: '<p>text</p>',
          path: '/dashboard',
          essential: false,
        };
      },
      unsubscribeUrlFor: async (userId, event) => `https://op.example/u/${userId}/${event}`,
      stopGraceMs: 10,
      ...extra,
    });
    senders.push(created);
    return Object.assign(created, { rendered });
  }

  const notice = (userId: number, factKey: string) => ({
    event: 'trade_closed' as const,
    userId,
    factKey,
    payload: { tradeId: Number(factKey), netPaise: -1_250 },
  });

  async function deliveries(db: Db) {
    return (await db('notification_deliveries')
      .orderBy(['outbox_id', 'channel'])
      .select('outbox_id', 'channel', 'status', 'attempts', 'last_error', 'next_attempt_at')) as Array<{
      outbox_id: number;
      channel: string;
      status: string;
      attempts: number;
      last_error: string | null;
      next_attempt_at: number | null;
    }>;
  }

  it('delivers a notice once on each channel, with the recipient and the parsed payload, then closes it', async () => {
    const { db, clock, userId } = await setup();
    const id = await recordNotice(db, notice(userId, '42'), clock.now());
    const email = fakeChannel('email');
    const telegram = fakeChannel('telegram');
    const s = sender(db, clock, [email, telegram]);

    await s.drainOnce();
    await s.drainOnce();

    expect(email.calls).toHaveLength(1);
    expect(telegram.calls).toHaveLength(1);
    expect(email.calls[0]?.recipient).toEqual({
      userId,
      email: 'trader@example.com',
      name: 'Asha Rao',
      unsubscribeUrl: `https://op.example/u/${userId}/trade_closed`,
    });
    expect(email.calls[0]?.message.outboxId).toBe(id);
    expect(s.rendered[0]?.payload).toEqual({ tradeId: 42, netPaise: -1_250 });
    expect((await deliveries(db)).map((d) => [d.channel, d.status, d.attempts])).toEqual([
      ['email', 'sent', 1],
      ['telegram', 'sent', 1],
    ]);
    expect(await db('notification_outbox').where({ id }).first('status')).toEqual({ status: 'done' });
  });

  it('retries a failing channel after 30 s, then 2 min, and records the last error until it succeeds', async () => {
    const { db, clock, userId } = await setup();
    await recordNotice(db, notice(userId, '1'), clock.now());
    const email = fakeChannel('email', async (n) => {
      if (n <= 2) throw new Error(`smtp busy ${n}`);
      return { status: 'sent' };
    });
    const s = sender(db, clock, [email]);
    const start = clock.now();

    await s.drainOnce();
    expect(await deliveries(db)).toMatchObject([
      { status: 'pending', attempts: 1, last_error: 'smtp busy 1', next_attempt_at: start + 30_000 },
    ]);
    clock.advance(29_999);
    await s.drainOnce();
    expect(email.calls).toHaveLength(1);
    clock.advance(1);
    await s.drainOnce();
    expect(email.calls).toHaveLength(2);
    expect(await deliveries(db)).toMatchObject([
      { status: 'pending', attempts: 2, last_error: 'smtp busy 2', next_attempt_at: clock.now() + 120_000 },
    ]);
    clock.advance(120_000);
    await s.drainOnce();
    expect(email.calls).toHaveLength(3);
    expect(await deliveries(db)).toMatchObject([{ status: 'sent', attempts: 3, next_attempt_at: null }]);
  });

  it('gives up after the last retry and marks the delivery failed with the reason', async () => {
    const { db, clock, userId } = await setup();
    const id = await recordNotice(db, notice(userId, '1'), clock.now());
    const email = fakeChannel('email', async () => {
      throw new Error('connection refused');
    });
    const s = sender(db, clock, [email]);
    for (let i = 0; i < 10; i += 1) {
      await s.drainOnce();
      clock.advance(3_600_000);
    }
    expect(email.calls).toHaveLength(5);
    expect(await deliveries(db)).toMatchObject([
      { status: 'failed', attempts: 5, last_error: 'connection refused', next_attempt_at: null },
    ]);
    expect(await db('notification_outbox').where({ id }).first('status')).toEqual({ status: 'done' });
  });

  it('fails at once on a PermanentDeliveryError and records no_address without retrying', async () => {
    const { db, clock, userId } = await setup();
    await recordNotice(db, notice(userId, '1'), clock.now());
    const telegram = fakeChannel('telegram', async () => {
      throw new PermanentDeliveryError('bot was blocked by the user');
    });
    const push = fakeChannel('push', async () => ({ status: 'no_address' }));
    const s = sender(db, clock, [telegram, push]);
    await s.drainOnce();
    clock.advance(86_400_000);
    await s.drainOnce();
    expect(telegram.calls).toHaveLength(1);
    expect(push.calls).toHaveLength(1);
    expect((await deliveries(db)).map((d) => [d.channel, d.status, d.last_error])).toEqual([
      ['push', 'no_address', null],
      ['telegram', 'failed', 'PermanentDeliveryError: bot was blocked by the user'],
    ]);
  });

  it("never calls a channel the user turned off for that event, and records it as 'off'", async () => {
    const { db, clock, userId } = await setup();
    await writePreferences(db, userId, [{ event: 'trade_closed', channel: 'email', enabled: false }], 1);
    await recordNotice(db, notice(userId, '1'), clock.now());
    const email = fakeChannel('email');
    const push = fakeChannel('push');
    const s = sender(db, clock, [email, push]);
    await s.drainOnce();
    expect(email.calls).toHaveLength(0);
    expect(push.calls).toHaveLength(1);
    expect((await deliveries(db)).map((d) => [d.channel, d.status])).toEqual([
      ['email', 'off'],
      ['push', 'sent'],
    ]);
  });

  it('fails a row whose event this version does not know, without calling the channel', async () => {
    const { db, clock, userId } = await setup();
    await db('notification_outbox').insert({
      event: 'test',
      user_id: userId,
      payload: '{}',
      dedupe_key: 'test:left-behind',
      status: 'pending',
      created_at: clock.now(),
    });
    const email = fakeChannel('email');
    await sender(db, clock, [email]).drainOnce();
    expect(email.calls).toHaveLength(0);
    expect(await deliveries(db)).toMatchObject([{ status: 'failed', last_error: 'unknown event test' }]);
  });

  it('sends each notice at most once per channel when two senders drain one database at the same time', async () => {
    const { db, clock, userId } = await setup();
    for (let i = 1; i <= 12; i += 1) await recordNotice(db, notice(userId, String(i)), clock.now());
    const calls: Call[] = [];
    const slow = async () => {
      await new Promise((resolve) => setImmediate(resolve));
      return { status: 'sent' } as const;
    };
    const a = sender(db, clock, [fakeChannel('email', slow, calls)], { concurrency: 3 });
    const b = sender(db, clock, [fakeChannel('email', slow, calls)], { concurrency: 3 });

    await Promise.all([a.drainOnce(), b.drainOnce(), a.drainOnce(), b.drainOnce()]);

    const outboxIds = calls.map((c) => c.message.outboxId).sort((x, y) => x - y);
    expect(outboxIds).toHaveLength(12);
    expect(new Set(outboxIds).size).toBe(12);
    const rows = await deliveries(db);
    expect(rows).toHaveLength(12);
    expect(rows.every((r) => r.status === 'sent' && r.attempts === 1)).toBe(true);
  });

  it("does not hold one channel's deliveries behind another channel that hangs", async () => {
    const { db, clock, userId } = await setup();
    const email = fakeChannel('email', never);
    let delivered: () => void = () => {};
    const telegramCalled = new Promise<void>((resolve) => {
      delivered = resolve;
    });
    const telegram = fakeChannel('telegram', async () => {
      delivered();
      return { status: 'sent' };
    });
    const s = sender(db, clock, [email, telegram], { concurrency: 1 });
    s.start();
    await recordNotice(db, notice(userId, '1'), clock.now());
    await recordNotice(db, notice(userId, '2'), clock.now());
    s.wake();

    await telegramCalled;
    await vi.waitFor(async () => {
      const rows = await db('notification_deliveries').where({ channel: 'telegram', status: 'sent' });
      expect(rows).toHaveLength(2);
    });
    // E-mail is stuck on its first attempt (one slot): its second notice waits, telegram's did not.
    expect(email.calls).toHaveLength(1);
    expect(telegram.calls).toHaveLength(2);
  });

  it('after a crash, delivers a notice recorded before it exactly once, and takes over an attempt cut off mid-call once its lease ran out', async () => {
    const { db, clock, userId } = await setup();
    // A process claims an attempt on a first notice and dies during the channel call (its call never returns).
    const cutOff = await recordNotice(db, notice(userId, '1'), clock.now());
    const dying = sender(db, clock, [fakeChannel('email', never)], { leaseMs: 120_000, concurrency: 1 });
    void dying.drainOnce();
    await vi.waitFor(async () => {
      expect(await db('notification_deliveries').where({ attempts: 1 })).toHaveLength(1);
    });
    senders.splice(senders.indexOf(dying), 1); // a dead process is never stopped
    // A second fact is committed, and the process is gone before sending its notice.
    const recorded = await recordNotice(db, notice(userId, '2'), clock.now());

    const email = fakeChannel('email');
    const restarted = sender(db, clock, [email], { leaseMs: 120_000 });
    await restarted.drainOnce();
    await restarted.drainOnce();
    expect(email.calls.map((c) => c.message.outboxId)).toEqual([recorded]);
    clock.advance(120_000);
    await restarted.drainOnce();
    await restarted.drainOnce();

    expect(email.calls.map((c) => c.message.outboxId)).toEqual([recorded, cutOff]);
    expect((await deliveries(db)).map((d) => [d.outbox_id, d.status, d.attempts])).toEqual([
      [cutOff, 'sent', 2],
      [recorded, 'sent', 1],
    ]);
  });

  it('pauses when the node stops leading: nothing is sent, listening stops and the channels stay open; start resumes both', async () => {
    const { db, clock, userId } = await setup();
    const events: string[] = [];
    const telegram = {
      ...fakeChannel('telegram'),
      async listen() {
        events.push('listen');
      },
      async stopListening() {
        events.push('stopListening');
      },
      async close() {
        events.push('close');
      },
    };
    const s = sender(db, clock, [telegram], { pollMs: 20 });
    s.start();
    expect(events).toEqual(['listen']);
    await recordNotice(db, notice(userId, '1'), clock.now());
    s.wake();
    await vi.waitFor(() => expect(telegram.calls).toHaveLength(1));

    await s.pause();
    expect(events).toEqual(['listen', 'stopListening']);
    // A notice recorded while another node leads is that node's to send: this one neither wakes nor polls.
    await recordNotice(db, notice(userId, '2'), clock.now());
    s.wake();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(telegram.calls).toHaveLength(1);

    s.start();
    await vi.waitFor(() => expect(telegram.calls).toHaveLength(2));
    expect(events).toEqual(['listen', 'stopListening', 'listen']);
    await s.stop();
    expect(events).toEqual(['listen', 'stopListening', 'listen', 'close']);
    senders.splice(senders.indexOf(s), 1);
  });
});
