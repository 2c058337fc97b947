// Renewal reminders: 3 days and 1 day before the end, once each per end date, caught up after downtime without a
// late 3-day notice, recorded afresh after a renewal, never for a lapsed subscription. Each is a `renewal_reminder`
// notice in the notification outbox, recorded in the same transaction as its claim; the sender delivers it.
import { beforeEach, describe, expect, it } from 'vitest';
import { createManualClock } from '../clock';
import { loadConfig } from '../config';
import { insertUser, updateUser, type Database } from '../db';
import { testDialects, useTestDatabase } from '../db/testing';
import { renderNotice } from '../notifications/render';
import { recordDueReminders, reminderDue } from './renewalReminders';

const DAY = 86_400_000;
const HOUR = 3_600_000;

describe('reminderDue', () => {
  it('picks the nearest reminder not yet passed', () => {
    expect(reminderDue(4 * DAY)).toBeNull();
    expect(reminderDue(3 * DAY)).toBe('3d');
    expect(reminderDue(DAY + 1)).toBe('3d');
    expect(reminderDue(DAY)).toBe('1d');
    expect(reminderDue(1)).toBe('1d');
    expect(reminderDue(0)).toBeNull();
  });
});

describe.each(testDialects())('recordDueReminders (%s)', (dialect) => {
  const knex = useTestDatabase(dialect);
  let clock: ReturnType<typeof createManualClock>;
  beforeEach(() => {
    clock = createManualClock(Date.UTC(2026, 10, 23, 4, 0, 0));
  });
  const deps = () => ({
    db: { knex: knex() } as unknown as Database,
    clock,
    realtime: { toAdmins: () => undefined } as never,
  });
  let n = 0;
  async function subscriber(endAt: number, status = 'active') {
    n += 1;
    const user = await insertUser(knex(), {
      email: `remind${n}@example.com`,
      first_name: 'Asha',
      last_name: 'Rao',
      password_hash: 'x',
    });
    await updateUser(knex(), user.id, {
      subscription_status: status as 'active',
      subscription_end_at: endAt,
    });
    return user;
  }
  const rows = async (userId: number) =>
    (await knex()('renewal_reminders').where({ user_id: userId }).orderBy('kind')) as Array<{
      kind: string;
      status: string;
    }>;
  const notices = async (userId?: number) =>
    (
      (await knex()('notification_outbox')
        .where(userId === undefined ? {} : { user_id: userId })
        .orderBy('id')
        .select('id', 'event', 'user_id', 'payload', 'created_at')) as Array<{
        id: number;
        event: string;
        user_id: number;
        payload: string;
        created_at: number | string;
      }>
    ).map((r) => ({ ...r, payload: JSON.parse(r.payload) as Record<string, unknown> }));

  it('records the 3-day reminder once, then the 1-day one, then nothing', async () => {
    const endAt = clock.now() + 3 * DAY - HOUR;
    const user = await subscriber(endAt);
    expect(await recordDueReminders({ deps: deps() })).toBe(1);
    expect(await recordDueReminders({ deps: deps() })).toBe(0);
    clock.advance(2 * DAY);
    expect(await recordDueReminders({ deps: deps() })).toBe(1);
    clock.advance(HOUR / 2);
    expect(await recordDueReminders({ deps: deps() })).toBe(0);
    expect(await rows(user.id)).toMatchObject([
      { kind: '1d', status: 'sent' },
      { kind: '3d', status: 'sent' },
    ]);
    expect((await notices(user.id)).map((r) => [r.event, r.payload])).toEqual([
      ['renewal_reminder', { kind: '3d', endAt }],
      ['renewal_reminder', { kind: '1d', endAt }],
    ]);
    const audit = await knex()('logs').where({ user_id: user.id });
    expect(audit).toHaveLength(2);
  });

  it('after downtime records only the 1-day reminder and the 3-day one as skipped', async () => {
    const endAt = clock.now() + 20 * HOUR;
    const user = await subscriber(endAt);
    expect(await recordDueReminders({ deps: deps() })).toBe(1);
    expect((await notices(user.id)).map((r) => r.payload)).toEqual([{ kind: '1d', endAt }]);
    expect(await rows(user.id)).toMatchObject([
      { kind: '1d', status: 'sent' },
      { kind: '3d', status: 'skipped' },
    ]);
  });

  it('reminds again for the new end date after a renewal', async () => {
    const user = await subscriber(clock.now() + 2 * DAY);
    await recordDueReminders({ deps: deps() });
    await updateUser(knex(), user.id, { subscription_end_at: clock.now() + 2 * DAY + 30 * DAY });
    clock.advance(30 * DAY);
    expect(await recordDueReminders({ deps: deps() })).toBe(1);
    expect(await notices(user.id)).toHaveLength(2);
  });

  it('reminds nobody whose subscription is not active or ends later', async () => {
    const users = [
      await subscriber(clock.now() + 2 * DAY, 'expired'),
      await subscriber(clock.now() + 2 * DAY, 'inactive'),
      await subscriber(clock.now() + 5 * DAY),
      await subscriber(clock.now() - HOUR),
    ];
    expect(await recordDueReminders({ deps: deps() })).toBe(0);
    for (const user of users) expect(await notices(user.id)).toEqual([]);
  });

  it('a reminder claimed by another process is not recorded twice', async () => {
    const endAt = clock.now() + 2 * DAY;
    const user = await subscriber(endAt);
    await knex()('renewal_reminders').insert({
      user_id: user.id,
      end_at: endAt,
      kind: '3d',
      status: 'sent',
      created_at: clock.now(),
    });
    expect(await recordDueReminders({ deps: deps() })).toBe(0);
    expect(await notices(user.id)).toEqual([]);
  });

  it('renders the end in IST with a link to Manage Subscription', async () => {
    const endAt = Date.UTC(2026, 10, 25, 10, 0, 0);
    const user = await subscriber(endAt);
    await recordDueReminders({ deps: deps() });
    const [row] = await notices(user.id);
    const message = await renderNotice(
      { db: deps().db, config: loadConfig({ PUBLIC_URL: 'https://trade.example.in' }) },
      {
        id: row!.id,
        event: 'renewal_reminder',
        userId: user.id,
        payload: row!.payload as never,
        createdAt: Number(row!.created_at),
      },
    );
    expect(message.title).toBe('Your OptionPilot subscription ends in 3 days');
    expect(message.text).toMatch(/25 Nov 2026, 3:30\s?pm IST/i);
    expect(message.text).toContain('https://trade.example.in/subscription');
    expect(message.path).toBe('/subscription');
    expect(message.essential).toBe(false);
  });
});
