// The overview's read-only tabs: logs (the audit trail), signals and trades with their users, each one page
// filtered on the server, newest first. Trades also carry the totals of every trade matching the filters.
import { paiseToRupees, rupeesToPaise } from '@optionpilot/engine/money';
import type { z } from 'zod';
import type {
  AdminLogDto,
  AdminTradesResponse,
  PageDto,
  SignalDto,
  logsQuerySchema,
  signalsQuerySchema,
  tradesQuerySchema,
} from '../../contract';
import {
  countOf,
  rowMapper,
  toNumber,
  type Db,
  type LogRow,
  type SignalRow,
  type TradeRow,
  type UserRow,
} from '../../db';
import { presentAdminTrade } from '../../presenters/adminTrade';
import { presentUserRef } from '../../presenters/adminUser';
import { presentLog } from '../../presenters/log';
import { presentSignal } from '../../presenters/signal';
import { inWindow, likePattern, pageOf, whereUserMatches, windowOf } from './listing';

const toSignal = rowMapper<SignalRow>(['executed']);
const toTrade = rowMapper<TradeRow>(['paper']);

type UserCols = Pick<UserRow, 'first_name' | 'last_name' | 'email'> & { uid: number | null };

/** `GET /api/admin/logs` */
export async function listAdminLogs(props: {
  db: Db;
  query: z.output<typeof logsQuerySchema>;
  now: number;
}): Promise<PageDto<AdminLogDto>> {
  const { db, query, now } = props;
  const builder = db('logs')
    .leftJoin('users', 'users.id', 'logs.user_id')
    .select('logs.*', 'users.id as uid', 'users.first_name', 'users.last_name', 'users.email');
  if (query.eventType) void builder.where('logs.event_type', query.eventType);
  if (query.userId !== undefined) void builder.where('logs.user_id', query.userId);
  if (query.search) {
    const pattern = likePattern(query.search);
    const search = query.search;
    void builder.where(
      (w) =>
        void w
          .whereRaw(`lower(logs.description) like ? escape '\\'`, [pattern])
          .orWhere((sub) => whereUserMatches(sub, search, 'users')),
    );
  }
  inWindow(builder, 'logs.at', windowOf(query, now));
  return pageOf<AdminLogDto>({
    builder,
    page: query.page,
    pageSize: query.pageSize,
    orderBy: [
      { column: 'logs.at', order: 'desc' },
      { column: 'logs.id', order: 'desc' },
    ],
    map: (raw) => {
      const row = raw as unknown as LogRow & UserCols;
      return {
        ...presentLog(row),
        actorId: row.actor_id,
        user: row.uid === null ? null : presentUserRef({ ...row, id: toNumber(row.uid) }),
      };
    },
  });
}

/** `GET /api/admin/signals` */
export async function listAdminSignals(props: {
  db: Db;
  query: z.output<typeof signalsQuerySchema>;
  now: number;
}): Promise<PageDto<SignalDto>> {
  const { db, query, now } = props;
  const builder = db('signals').select('signals.*');
  if (query.type) void builder.where('signals.type', query.type);
  if (query.executed) void builder.where('signals.executed', query.executed === 'true');
  if (query.search)
    void builder.whereRaw(`lower(signals.condition_met) like ? escape '\\'`, [likePattern(query.search)]);
  inWindow(builder, 'signals.signal_at', windowOf(query, now));
  return pageOf({
    builder,
    page: query.page,
    pageSize: query.pageSize,
    orderBy: [
      { column: 'signals.signal_at', order: 'desc' },
      { column: 'signals.id', order: 'desc' },
    ],
    map: (raw) => presentSignal(toSignal(raw)),
  });
}

/**
 * `GET /api/admin/trades`: search matches instrument, symbol, e-mail or name. Open trades carry their live
 * mark-to-market P&L (`markPnl`, rupees at the last quote, from the engine), as the trader sees them; the summary's
 * P&L is realised (closed) plus that open P&L, with both parts.
 */
export async function listAdminTrades(props: {
  db: Db;
  query: z.output<typeof tradesQuerySchema>;
  now: number;
  /** an open trade's P&L at the last quote (rupees), null when not quoted */
  markPnl: (tradeId: number) => number | null;
}): Promise<AdminTradesResponse> {
  const { db, query, now, markPnl } = props;
  const filtered = () => {
    // The visitors' demo account is not a customer: its paper trades stay out of this page and its figures.
    const b = db('trades').join('users', 'users.id', 'trades.user_id').where('users.is_demo', false);
    if (query.status) void b.where('trades.status', query.status);
    if (query.type) void b.where('trades.trade_type', query.type);
    if (query.userId !== undefined) void b.where('trades.user_id', query.userId);
    whereUserMatches(b, query.search, 'users', ['trades.instrument', 'trades.symbol']);
    inWindow(b, 'trades.opened_at', windowOf(query, now));
    return b;
  };
  const page = await pageOf({
    builder: filtered().select('trades.*', 'users.first_name', 'users.last_name', 'users.email'),
    page: query.page,
    pageSize: query.pageSize,
    orderBy: [
      { column: 'trades.opened_at', order: 'desc' },
      { column: 'trades.id', order: 'desc' },
    ],
    map: (raw) => {
      const user = raw as unknown as UserCols;
      const trade = toTrade(raw);
      return presentAdminTrade(trade, user, trade.status === 'open' ? markPnl(trade.id) : null);
    },
  });
  // Open trades are few (at most one per trader): their marks are summed here, over every matching one.
  const openIds = (await filtered().where('trades.status', 'open').select('trades.id')) as Array<{
    id: unknown;
  }>;
  const openPnlPaise = openIds.reduce((sum, row) => sum + rupeesToPaise(markPnl(toNumber(row.id)) ?? 0), 0);
  const [sums] = (await filtered().select(
    db.raw('count(*) as n'),
    db.raw("sum(case when trades.status = 'closed' then 1 else 0 end) as closed"),
    db.raw("sum(case when trades.status = 'closed' and trades.pnl_paise > 0 then 1 else 0 end) as wins"),
    db.raw("sum(case when trades.status = 'closed' then trades.pnl_paise else 0 end) as pnl"),
    db.raw("sum(case when trades.status = 'open' then 1 else 0 end) as open"),
  )) as Array<Record<string, unknown>>;
  const closed = toNumber(sums?.closed);
  const realisedPnlPaise = toNumber(sums?.pnl);
  const totalPnlPaise = realisedPnlPaise + openPnlPaise;
  return {
    ...page,
    summary: {
      total: countOf(sums),
      winRate: closed === 0 ? 0 : Math.round((toNumber(sums?.wins) / closed) * 10_000) / 100,
      totalPnl: paiseToRupees(totalPnlPaise),
      totalPnlPaise,
      realisedPnl: paiseToRupees(realisedPnlPaise),
      realisedPnlPaise,
      openPnl: paiseToRupees(openPnlPaise),
      openPnlPaise,
      openTrades: toNumber(sums?.open),
    },
  };
}
