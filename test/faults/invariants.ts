// What must hold in the database file after any crash, read straight from the file (the server is dead or
// running; a read-only connection sees the last committed state either way). Each check returns the violations
// it found as sentences, so a failed trial says what broke and where.
import BetterSqlite3 from 'better-sqlite3';

export interface DbSnapshot {
  /** every trade's id and status */
  trades: Map<number, string>;
  openTrades: number;
  orders: number;
  /** orders not in a final state: resting stops, or sent and not yet answered when the kill came */
  ordersInFlight: number;
  payments: number;
  signals: number;
}

export interface Checked {
  snapshot: DbSnapshot;
  violations: string[];
}

type Row = Record<string, number | string | null>;

const FINAL_ORDER_STATES = ['FILLED', 'REJECTED', 'CANCELLED', 'EXPIRED'];

/** Reads the file and checks it against itself and against the snapshot taken before the last kill. */
export function checkDatabase(
  file: string,
  before: DbSnapshot | null,
  opts: { integrity: boolean },
): Checked {
  const db = new BetterSqlite3(file, { readonly: true, fileMustExist: true });
  try {
    const all = (sql: string) => db.prepare(sql).all() as Row[];
    const violations: string[] = [];
    if (opts.integrity) {
      const integrity = all('PRAGMA integrity_check')
        .map((r) => String(r.integrity_check))
        .join('; ');
      if (integrity !== 'ok') violations.push(`integrity_check: ${integrity}`);
    }

    // One order per intent: no signal entered twice for one account, no trade with two entry orders.
    for (const r of all(`SELECT signal_id, user_id, purpose, count(*) AS n FROM orders WHERE signal_id IS NOT NULL
                         GROUP BY signal_id, user_id, purpose HAVING n > 1`)) {
      violations.push(`signal ${r.signal_id}: ${r.n} ${r.purpose} orders for user ${r.user_id}`);
    }
    for (const r of all(`SELECT signal_id, user_id, count(*) AS n FROM trades WHERE signal_id IS NOT NULL
                         GROUP BY signal_id, user_id HAVING n > 1`)) {
      violations.push(`signal ${r.signal_id}: ${r.n} trades for user ${r.user_id}`);
    }
    for (const r of all(`SELECT trade_id, count(*) AS n FROM orders WHERE purpose = 'entry' AND trade_id IS NOT NULL
                         GROUP BY trade_id HAVING n > 1`)) {
      violations.push(`trade ${r.trade_id}: ${r.n} entry orders`);
    }
    // A stop resting at the broker sells the trade too (purpose 'stop').
    for (const r of all(`SELECT trade_id, count(*) AS n FROM orders WHERE purpose IN ('exit', 'stop') AND status = 'FILLED'
                         AND trade_id IS NOT NULL GROUP BY trade_id HAVING n > 1`)) {
      violations.push(`trade ${r.trade_id}: closed by ${r.n} filled exit orders`);
    }
    // Every open trade is protected: a stop, and the risk state a restart rebuilds it from.
    for (const r of all(`SELECT id, stop_loss_paise, risk_state FROM trades WHERE status = 'open'`)) {
      const stop = Number(r.stop_loss_paise);
      if (!(stop > 0)) violations.push(`open trade ${r.id}: no stop (${stop})`);
      if (r.risk_state === null) violations.push(`open trade ${r.id}: no risk state saved`);
    }

    // Payments: each captured payment extended the subscription exactly once.
    for (const r of all(`SELECT p.id, count(s.id) AS n FROM payments p
                         LEFT JOIN subscriptions s ON s.payment_id = p.id
                         WHERE p.status = 'captured' GROUP BY p.id HAVING n <> 1`)) {
      violations.push(`payment ${r.id}: ${r.n} subscription extensions`);
    }
    for (const r of all(`SELECT u.id, u.subscription_end_at AS end_at, max(s.ends_at) AS last FROM users u
                         JOIN subscriptions s ON s.user_id = u.id GROUP BY u.id`)) {
      if (Number(r.end_at) !== Number(r.last)) {
        violations.push(`user ${r.id}: subscription ends ${r.end_at}, its last period ends ${r.last}`);
      }
    }

    const trades = new Map(all('SELECT id, status FROM trades').map((r) => [Number(r.id), String(r.status)]));
    // No lost trade: whatever was committed before the kill is still there, and a closed trade stays closed.
    for (const [id, status] of before?.trades ?? []) {
      const now = trades.get(id);
      if (now === undefined) violations.push(`trade ${id} (${status} before the kill) is gone`);
      else if (status !== 'open' && now !== status)
        violations.push(`trade ${id} went from ${status} to ${now}`);
    }
    const count = (sql: string) => Number((db.prepare(sql).get() as Row).n);
    const snapshot: DbSnapshot = {
      trades,
      openTrades: [...trades.values()].filter((s) => s === 'open').length,
      orders: count('SELECT count(*) AS n FROM orders'),
      ordersInFlight: count(
        `SELECT count(*) AS n FROM orders WHERE status NOT IN (${FINAL_ORDER_STATES.map((s) => `'${s}'`).join(',')})`,
      ),
      payments: count(`SELECT count(*) AS n FROM payments WHERE status = 'captured'`),
      signals: count('SELECT count(*) AS n FROM signals'),
    };
    if (before !== null && snapshot.orders < before.orders) {
      violations.push(`orders went from ${before.orders} to ${snapshot.orders}`);
    }
    return { snapshot, violations };
  } finally {
    db.close();
  }
}
