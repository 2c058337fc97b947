import type { Knex } from 'knex';
import { isPostgres } from './helpers';

// What an order is for becomes typed columns (issue 19 item 2): `purpose` gains `stop` (a live position's stop
// resting at the broker, stored as `exit` until now), `sequence` is the n-th exit or stop of its trade (0 for an
// entry) and `leg` the freeze-quantity leg. `trade_id` and `signal_id` already hold the position and the signal.
// Existing rows are converted by reading their intent key once, here: the only place a key is ever parsed. The key
// stays as the idempotency key (the engine builds it from these fields), and one entry per signal, user and leg
// replaces one per signal and user (an entry split into freeze legs has several).

/** The key formats written before this migration: `<signal>:<user>:entry#<leg>`, `<trade>:exit|stop:<n>#<leg>`. */
const POSITION_KEY = /^\d+:(exit|stop):(\d+)(?:#(\d+))?$/;
const ENTRY_LEG = /#(\d+)$/;

interface Converted {
  readonly purpose: 'entry' | 'exit' | 'stop';
  readonly sequence: number;
  readonly leg: number;
}

function convert(intentKey: string): Converted {
  const position = POSITION_KEY.exec(intentKey);
  if (position !== null) {
    return {
      purpose: position[1] as 'exit' | 'stop',
      sequence: Number(position[2]),
      leg: Number(position[3] ?? 0),
    };
  }
  return { purpose: 'entry', sequence: 0, leg: Number(ENTRY_LEG.exec(intentKey)?.[1] ?? 0) };
}

const BATCH = 1_000;

/** Sets the new columns of every row whose key says other than the defaults (an entry's first leg). */
async function convertRows(knex: Knex): Promise<void> {
  let after = 0;
  for (;;) {
    const rows = (await knex('orders')
      .select('id', 'intent_key')
      .where('id', '>', after)
      .orderBy('id')
      .limit(BATCH)) as Array<{ id: number; intent_key: string }>;
    if (rows.length === 0) return;
    after = Number(rows[rows.length - 1]?.id);
    const groups = new Map<string, { converted: Converted; ids: number[] }>();
    for (const row of rows) {
      const converted = convert(row.intent_key);
      if (converted.purpose === 'entry' && converted.leg === 0) continue;
      const key = `${converted.purpose}/${converted.sequence}/${converted.leg}`;
      const group = groups.get(key) ?? { converted, ids: [] };
      group.ids.push(Number(row.id));
      groups.set(key, group);
    }
    for (const { converted, ids } of groups.values()) {
      await knex('orders').whereIn('id', ids).update(converted);
    }
  }
}

/** Rewrites the `purpose` CHECK to allow `values`. */
async function purposeValues(knex: Knex, values: readonly string[]): Promise<void> {
  // DDL takes no bound parameters; the values are this file's constants.
  const list = values.map((v) => `'${v}'`).join(', ');
  if (isPostgres(knex)) {
    // Knex's `enu` on PostgreSQL is a text column with the CHECK `orders_purpose_check`.
    await knex.raw('ALTER TABLE orders DROP CONSTRAINT IF EXISTS orders_purpose_check');
    await knex.raw(`ALTER TABLE orders ADD CONSTRAINT orders_purpose_check CHECK (purpose IN (${list}))`);
    return;
  }
  // SQLite changes a CHECK only by rebuilding the table (sqlite.org/lang_altertable.html, "other kinds of table
  // schema changes"): the same CREATE TABLE with the new CHECK, the rows copied, the indexes made again.
  const table = (await knex('sqlite_master').where({ type: 'table', name: 'orders' }).first()) as {
    sql: string;
  };
  const check = /check \(`purpose` in \([^)]*\)\)/;
  if (!check.test(table.sql)) throw new Error('orders: the purpose CHECK was not found');
  const rebuilt = table.sql
    .replace(check, `check (\`purpose\` in (${list}))`)
    .replace(/^CREATE TABLE [`"]?orders[`"]?/, 'CREATE TABLE `orders_rebuilt`');
  const indexes = (await knex('sqlite_master')
    .where({ type: 'index', tbl_name: 'orders' })
    .whereNotNull('sql')
    .pluck('sql')) as string[];
  await knex.raw(rebuilt);
  await knex.raw('INSERT INTO orders_rebuilt SELECT * FROM orders');
  await knex.raw('DROP TABLE orders');
  await knex.raw('ALTER TABLE orders_rebuilt RENAME TO orders');
  for (const index of indexes) await knex.raw(index);
}

/**
 * Runs `work` in one transaction. On SQLite with foreign keys off around it, as a table rebuild requires
 * (`order_events` rows point at `orders` while it is dropped and renamed), and checked before the commit.
 */
async function inTransaction(knex: Knex, work: (trx: Knex.Transaction) => Promise<void>): Promise<void> {
  if (isPostgres(knex)) {
    await knex.transaction(work);
    return;
  }
  await knex.raw('PRAGMA foreign_keys = OFF');
  try {
    await knex.transaction(async (trx) => {
      await work(trx);
      const broken = (await trx.raw('PRAGMA foreign_key_check')) as unknown[];
      if (broken.length > 0) throw new Error(`foreign keys broken: ${JSON.stringify(broken)}`);
    });
  } finally {
    await knex.raw('PRAGMA foreign_keys = ON');
  }
}

// Knex's own per-migration transaction is off: SQLite ignores `PRAGMA foreign_keys` inside a transaction.
export const config = { transaction: false };

export async function up(knex: Knex): Promise<void> {
  await inTransaction(knex, async (trx) => {
    await trx.schema.alterTable('orders', (t) => {
      t.integer('sequence').notNullable().defaultTo(0);
      t.integer('leg').notNullable().defaultTo(0);
    });
    await purposeValues(trx, ['entry', 'exit', 'stop']);
    await convertRows(trx);
    await trx.schema.alterTable('orders', (t) => {
      t.dropUnique(['signal_id', 'user_id', 'purpose']);
      t.unique(['signal_id', 'user_id', 'purpose', 'leg']);
    });
  });
}

export async function down(knex: Knex): Promise<void> {
  await inTransaction(knex, async (trx) => {
    await trx('orders').where({ purpose: 'stop' }).update({ purpose: 'exit' });
    await trx.schema.alterTable('orders', (t) => {
      t.dropUnique(['signal_id', 'user_id', 'purpose', 'leg']);
    });
    // An entry split into legs breaks the older unique (signal, user, purpose): only its first leg keeps the signal.
    await trx('orders').where({ purpose: 'entry' }).andWhere('leg', '>', 0).update({ signal_id: null });
    await purposeValues(trx, ['entry', 'exit']);
    await trx.schema.alterTable('orders', (t) => {
      t.unique(['signal_id', 'user_id', 'purpose']);
      t.dropColumn('sequence');
      t.dropColumn('leg');
    });
  });
}
