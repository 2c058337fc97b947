import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../../../migrations';
import { checkDatabase } from './knex';
import { migrateLatest, pendingMigrations, rollbackAll } from './migrate';
import { openTestDatabase, testDialects, type TestDatabase } from './testing';

const TABLES = [
  'users',
  'sessions',
  'password_resets',
  'logs',
  'contact_messages',
  'user_settings',
  'trading_settings',
  'broker_accounts',
  'broker_oauth_states',
  'plans',
  'offers',
  'payment_orders',
  'payment_requests',
  'payments',
  'subscriptions',
  'invoice_counters',
  'invoices',
  'webhook_events',
  'upi_settings',
  'bank_details',
  'admin_controls',
  'strategies',
  'signals',
  'trades',
  'orders',
  'order_events',
];

describe.each(testDialects())('migrations on %s', (dialect) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await openTestDatabase(dialect, { migrate: false });
  });
  afterAll(async () => {
    await t.cleanup();
  });

  it('applies every migration in order, rolls all back, and applies them again', async () => {
    expect(await pendingMigrations(t.db)).toEqual(migrations.map((m) => m.name));
    expect(await migrateLatest(t.db)).toEqual(migrations.map((m) => m.name));
    for (const table of TABLES) expect(await t.db.knex.schema.hasTable(table)).toBe(true);
    expect(await pendingMigrations(t.db)).toEqual([]);

    const reverted = await rollbackAll(t.db);
    expect(reverted).toEqual(migrations.map((m) => m.name).reverse());
    for (const table of TABLES) expect(await t.db.knex.schema.hasTable(table)).toBe(false);

    expect(await migrateLatest(t.db)).toHaveLength(migrations.length);
    expect(await migrateLatest(t.db)).toEqual([]);
  });

  it('names migrations YYYYMMDDHHMMSS_<concern> in strictly increasing order', () => {
    const names = migrations.map((m) => m.name);
    for (const name of names) expect(name).toMatch(/^\d{14}_[a-z0-9_]+$/);
    expect([...names].sort()).toEqual(names);
    expect(new Set(names).size).toBe(names.length);
  });

  it('reports health', async () => {
    expect(await checkDatabase(t.db)).toEqual({ status: 'ok', detail: dialect });
  });
});
