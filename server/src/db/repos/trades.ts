import { insertRows, selectRows, type Db } from '../knex';
import { countOf, rowMapper, toNumber } from '../normalise';
import type { TradeRow, TradeStatusValue } from '../rows';

const toTrade = rowMapper<TradeRow>(['paper']);

export type NewTrade = Omit<
  TradeRow,
  | 'id'
  | 'exit_price_paise'
  | 'pnl_paise'
  | 'charges_paise'
  | 'status'
  | 'exit_reason'
  | 'closed_at'
  | 'created_at'
  | 'updated_at'
> &
  Partial<Pick<TradeRow, 'charges_paise' | 'status'>>;

/** Opens a position; a second trade for the same (signal, user) raises a unique violation. */
export async function insertTrade(db: Db, trade: NewTrade, now = Date.now()): Promise<TradeRow> {
  const [row] = await db('trades')
    .insert({ ...trade, created_at: now, updated_at: now })
    .returning('*');
  return toTrade(row);
}

/**
 * Opens several positions in one statement; returns their rows in the order given (ids follow insertion order,
 * RETURNING's own order is not guaranteed on SQLite). A repeated (signal, user) fails the whole statement.
 */
export async function insertTrades(
  db: Db,
  trades: readonly NewTrade[],
  now = Date.now(),
): Promise<TradeRow[]> {
  if (trades.length === 0) return [];
  const rows = await insertRows(
    db,
    'trades',
    trades.map((trade) => ({ ...trade, created_at: now, updated_at: now })),
    'returning *',
  );
  return rows.map(toTrade).sort((a, b) => a.id - b.id);
}

export async function findTrade(db: Db, id: number): Promise<TradeRow | undefined> {
  const row: unknown = await db('trades').where({ id }).first();
  return row ? toTrade(row) : undefined;
}

export type TradePatch = Partial<Omit<TradeRow, 'id' | 'user_id' | 'created_at' | 'updated_at'>>;

export async function updateTrade(
  db: Db,
  id: number,
  patch: TradePatch,
  now = Date.now(),
): Promise<TradeRow | undefined> {
  const [row] = await db('trades')
    .where({ id })
    .update({ ...patch, updated_at: now })
    .returning('*');
  return row ? toTrade(row) : undefined;
}

/** Closes an open trade; undefined when it was not open (already closed by another exit path). */
export async function closeTrade(
  db: Db,
  id: number,
  close: {
    exit_price_paise: number;
    pnl_paise: number;
    charges_paise: number;
    exit_reason: string;
    closed_at: number;
  },
  now = Date.now(),
): Promise<TradeRow | undefined> {
  const [row] = await db('trades')
    .where({ id, status: 'open' })
    .update({ ...close, status: 'closed', updated_at: now })
    .returning('*');
  return row ? toTrade(row) : undefined;
}

export interface ListTradesFilter {
  userId?: number;
  status?: TradeStatusValue;
  tradeType?: 'CALL' | 'PUT';
  paper?: boolean;
  /** inclusive bound on opened_at */
  since?: number;
  /** exclusive bound on opened_at */
  until?: number;
  limit?: number;
  offset?: number;
}

/** Most recently opened first. */
export async function listTrades(db: Db, filter: ListTradesFilter = {}): Promise<TradeRow[]> {
  const query = db('trades').select('*');
  if (filter.userId !== undefined) query.where({ user_id: filter.userId });
  if (filter.status) query.where({ status: filter.status });
  if (filter.tradeType) query.where({ trade_type: filter.tradeType });
  if (filter.paper !== undefined) query.where({ paper: filter.paper });
  if (filter.since !== undefined) query.where('opened_at', '>=', filter.since);
  if (filter.until !== undefined) query.where('opened_at', '<', filter.until);
  query.orderBy([
    { column: 'opened_at', order: 'desc' },
    { column: 'id', order: 'desc' },
  ]);
  if (filter.limit !== undefined) query.limit(filter.limit);
  if (filter.offset !== undefined) query.offset(filter.offset);
  return (await query).map(toTrade);
}

/** Every open position (the engine reloads them at start to keep managing risk). */
export async function listOpenTrades(db: Db, userId?: number): Promise<TradeRow[]> {
  return listTrades(db, { status: 'open', ...(userId !== undefined ? { userId } : {}) });
}

export interface TradeStats {
  closedTrades: number;
  wins: number;
  pnlPaise: number;
}

/** Closed-trade totals for a user (or everyone), optionally since an instant (e.g. the IST day start). */
export async function tradeStats(
  db: Db,
  filter: { userId?: number; since?: number } = {},
): Promise<TradeStats> {
  const query = db('trades')
    .where({ status: 'closed' })
    .count({ n: '*' })
    .sum({ wins: db.raw('CASE WHEN pnl_paise > 0 THEN 1 ELSE 0 END') })
    .sum({ pnl: 'pnl_paise' });
  if (filter.userId !== undefined) query.where({ user_id: filter.userId });
  if (filter.since !== undefined) query.where('closed_at', '>=', filter.since);
  const [row] = (await query) as Array<Record<string, unknown>>;
  return { closedTrades: countOf(row), wins: toNumber(row?.wins), pnlPaise: toNumber(row?.pnl) };
}

// Hand-written (see selectRows): every stats poll and user:stats push runs it.
const USER_TRADE_TOTALS_SQL = `select count(*) as "n",
    sum(case when "pnl_paise" > 0 then 1 else 0 end) as "wins",
    sum("pnl_paise") as "pnl",
    sum(case when "closed_at" >= ? then 1 else 0 end) as "today_n",
    sum(case when "closed_at" >= ? and "pnl_paise" > 0 then 1 else 0 end) as "today_wins",
    sum(case when "closed_at" >= ? then "pnl_paise" else 0 end) as "today_pnl"
  from "trades" where "user_id" = ? and "status" = 'closed'`;

/**
 * One user's closed-trade totals, all time and since `dayStart` (the IST midnight), in one query — the dashboard
 * asks for both on every stats poll. Served from the covering index trades(user_id, status, closed_at, pnl_paise).
 */
export async function userTradeTotals(
  db: Db,
  userId: number,
  dayStart: number,
): Promise<{ all: TradeStats; today: TradeStats }> {
  const [row] = await selectRows(db, USER_TRADE_TOTALS_SQL, [dayStart, dayStart, dayStart, userId]);
  return {
    all: { closedTrades: countOf(row), wins: toNumber(row?.wins), pnlPaise: toNumber(row?.pnl) },
    today: {
      closedTrades: toNumber(row?.today_n),
      wins: toNumber(row?.today_wins),
      pnlPaise: toNumber(row?.today_pnl),
    },
  };
}

/** Realised net P&L (paise) of each user's trades closed since `since`, in one query: for the daily loss lock. */
export async function realisedPnlByUser(db: Db, since: number): Promise<Map<number, number>> {
  const rows = (await db('trades')
    .where({ status: 'closed' })
    .where('closed_at', '>=', since)
    .groupBy('user_id')
    .select('user_id')
    .sum({ pnl: 'pnl_paise' })) as Array<Record<string, unknown>>;
  return new Map(rows.map((r) => [Number(r.user_id), toNumber(r.pnl)]));
}
