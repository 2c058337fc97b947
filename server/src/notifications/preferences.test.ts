import { afterEach, describe, expect, it } from 'vitest';
import { migrations, StaticMigrationSource } from '../../../migrations';
import { insertUser, type Db } from '../db';
import { openTestDatabase, testDialects, type TestDatabase } from '../db/testing';
import { DEFAULT_PREFERENCES, eventsFor, isEnabled, readPreferences, writePreferences } from './preferences';
import { ADMIN_EVENTS, TRADER_EVENTS } from './types';

describe('the default notification table', () => {
  it('has trades, safety events and the summary on everywhere, money matters by e-mail only', () => {
    for (const event of [
      'trade_opened',
      'trade_closed',
      'order_rejected',
      'daily_loss_limit',
      'broker_session_expired',
      'daily_summary',
    ] as const)
      expect(DEFAULT_PREFERENCES[event], event).toEqual({ email: true, telegram: true, push: true });
    for (const event of ['renewal_reminder', 'payment_received', 'refund_issued'] as const)
      expect(DEFAULT_PREFERENCES[event], event).toEqual({ email: true, telegram: false, push: false });
    for (const event of ADMIN_EVENTS)
      expect(DEFAULT_PREFERENCES[event], event).toEqual({ email: true, telegram: true, push: true });
  });

  it('offers traders their events and admins both kinds', () => {
    expect(eventsFor({ is_admin: false })).toEqual(TRADER_EVENTS);
    expect(eventsFor({ is_admin: true })).toEqual([...TRADER_EVENTS, ...ADMIN_EVENTS]);
  });
});

describe.each(testDialects())('notification preferences on %s', (dialect) => {
  let t: TestDatabase | undefined;
  afterEach(async () => {
    await t?.cleanup();
    t = undefined;
  });

  const user = (db: Db, email: string) =>
    insertUser(db, { email, first_name: 'A', last_name: 'B', password_hash: 'x' }).then((u) => u.id);

  it('stores only the choices that differ from the defaults, and keeps locked e-mails on', async () => {
    t = await openTestDatabase(dialect);
    const db = t.db.knex;
    const id = await user(db, 'p@example.com');
    expect(await readPreferences(db, id)).toEqual(DEFAULT_PREFERENCES);

    await writePreferences(
      db,
      id,
      [
        { event: 'trade_opened', channel: 'push', enabled: false },
        { event: 'renewal_reminder', channel: 'telegram', enabled: true },
        { event: 'payment_received', channel: 'email', enabled: false },
        { event: 'daily_summary', channel: 'email', enabled: true },
      ],
      5,
    );
    const rows = await db('notification_preferences')
      .where({ user_id: id })
      .orderBy('event')
      .select('event', 'channel', 'enabled');
    expect(
      rows.map((r: { event: string; channel: string; enabled: unknown }) => [
        r.event,
        r.channel,
        Boolean(r.enabled),
      ]),
    ).toEqual([
      ['renewal_reminder', 'telegram', true],
      ['trade_opened', 'push', false],
    ]);
    expect(await isEnabled(db, id, 'trade_opened', 'push')).toBe(false);
    expect(await isEnabled(db, id, 'trade_opened', 'email')).toBe(true);
    expect(await isEnabled(db, id, 'renewal_reminder', 'telegram')).toBe(true);
    expect(await isEnabled(db, id, 'payment_received', 'email')).toBe(true);
    expect(await isEnabled(db, id, 'refund_issued', 'push')).toBe(false);

    // Back to the default: the row goes.
    await writePreferences(db, id, [{ event: 'trade_opened', channel: 'push', enabled: true }], 6);
    expect(await db('notification_preferences').where({ user_id: id, event: 'trade_opened' })).toEqual([]);
    const table = await readPreferences(db, id);
    expect(table.trade_opened.push).toBe(true);
    expect(table.renewal_reminder.telegram).toBe(true);
  });

  it('carries the old Settings switches over: what a user turned off stays off', async () => {
    t = await openTestDatabase(dialect, { migrate: false });
    const db = t.db.knex;
    const config = (list = migrations) => ({
      migrationSource: new StaticMigrationSource(list),
      tableName: 'knex_migrations',
    });
    const index = migrations.findIndex(
      (m) => m.name === '20261125220100_notification_preferences_from_settings',
    );
    expect(index).toBeGreaterThan(0);
    await db.migrate.latest(config(migrations.slice(0, index)));
    const quiet = await user(db, 'quiet@example.com');
    const noTrades = await user(db, 'notrades@example.com');
    const keen = await user(db, 'keen@example.com');
    await db('user_settings').insert([
      {
        user_id: quiet,
        notify_push: false,
        notify_trade_execution: true,
        notify_pnl_updates: false,
        notify_system_alerts: true,
        updated_at: 1,
      },
      {
        user_id: noTrades,
        notify_push: true,
        notify_trade_execution: false,
        notify_pnl_updates: true,
        notify_system_alerts: false,
        updated_at: 1,
      },
    ]);
    await db('user_settings').insert({ user_id: keen, updated_at: 1 });

    await db.migrate.latest(config());

    const quietTable = await readPreferences(db, quiet);
    expect(quietTable.trade_closed).toEqual({ email: true, telegram: true, push: false });
    expect(quietTable.daily_summary).toEqual({ email: false, telegram: false, push: false });
    expect(quietTable.broker_session_expired).toEqual({ email: true, telegram: true, push: false });
    expect(quietTable.payment_received).toEqual(DEFAULT_PREFERENCES.payment_received);

    const noTradesTable = await readPreferences(db, noTrades);
    for (const event of [
      'trade_opened',
      'trade_closed',
      'order_rejected',
      'daily_loss_limit',
      'broker_session_expired',
    ] as const)
      expect(noTradesTable[event], event).toEqual({ email: false, telegram: false, push: false });
    expect(noTradesTable.daily_summary).toEqual({ email: true, telegram: true, push: true });

    expect(await db('notification_preferences').where({ user_id: keen })).toEqual([]);
  });
});
