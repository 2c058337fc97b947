// The invariant checks on a small file with just the columns they read, so each violation can be staged by hand.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { checkDatabase } from './invariants';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A healthy file: one open protected trade with its entry order, one payment with its one extension. */
function healthy(): { file: string; db: BetterSqlite3.Database } {
  const dir = mkdtempSync(join(tmpdir(), 'optionpilot-invariants-'));
  dirs.push(dir);
  const file = join(dir, 'db.sqlite3');
  const db = new BetterSqlite3(file);
  db.exec(`
    CREATE TABLE users (id INTEGER PRIMARY KEY, subscription_end_at INTEGER);
    CREATE TABLE trades (id INTEGER PRIMARY KEY, user_id INTEGER, signal_id INTEGER, status TEXT,
      stop_loss_paise INTEGER, risk_state TEXT);
    CREATE TABLE orders (id INTEGER PRIMARY KEY, user_id INTEGER, signal_id INTEGER, trade_id INTEGER,
      purpose TEXT, status TEXT);
    CREATE TABLE payments (id INTEGER PRIMARY KEY, user_id INTEGER, status TEXT);
    CREATE TABLE signals (id INTEGER PRIMARY KEY);
    CREATE TABLE subscriptions (id INTEGER PRIMARY KEY, user_id INTEGER, payment_id INTEGER, ends_at INTEGER);
    INSERT INTO users VALUES (1, 2000);
    INSERT INTO trades VALUES (1, 1, 7, 'open', 19175, '{}');
    INSERT INTO orders VALUES (1, 1, 7, 1, 'entry', 'FILLED');
    INSERT INTO orders VALUES (2, 1, NULL, 1, 'exit', 'ACCEPTED');
    INSERT INTO payments VALUES (1, 1, 'captured');
    INSERT INTO subscriptions VALUES (1, 1, 1, 2000);
  `);
  return { file, db };
}

describe('checkDatabase', () => {
  it('passes a sound file and snapshots it', () => {
    const { file, db } = healthy();
    db.close();
    const { snapshot, violations } = checkDatabase(file, null, { integrity: true });
    expect(violations).toEqual([]);
    expect(snapshot).toMatchObject({ openTrades: 1, orders: 2, ordersInFlight: 1, payments: 1 });
  });

  it('finds a signal entered twice, an unprotected trade and a payment applied twice', () => {
    const { file, db } = healthy();
    db.exec(`
      INSERT INTO orders VALUES (3, 1, 7, 2, 'entry', 'FILLED');
      INSERT INTO trades VALUES (2, 1, 7, 'open', 0, NULL);
      INSERT INTO subscriptions VALUES (2, 1, 1, 3000);
    `);
    db.close();
    expect(checkDatabase(file, null, { integrity: false }).violations).toEqual([
      'signal 7: 2 entry orders for user 1',
      'signal 7: 2 trades for user 1',
      'open trade 2: no stop (0)',
      'open trade 2: no risk state saved',
      'payment 1: 2 subscription extensions',
      'user 1: subscription ends 2000, its last period ends 3000',
    ]);
  });

  it('finds a trade lost or reopened since the snapshot before the kill', () => {
    const { file, db } = healthy();
    db.exec(`INSERT INTO trades VALUES (2, 1, 8, 'closed', 100, '{}')`);
    db.close();
    const before = checkDatabase(file, null, { integrity: false }).snapshot;
    const again = new BetterSqlite3(file);
    again.exec(`DELETE FROM trades WHERE id = 1; UPDATE trades SET status = 'open' WHERE id = 2`);
    again.close();
    expect(checkDatabase(file, before, { integrity: false }).violations).toEqual([
      'trade 1 (open before the kill) is gone',
      'trade 2 went from closed to open',
    ]);
  });
});
