// The trading runtime's store port on the database: signals, trades (open, moved stops, closed) and, through the
// order store, every order before it reaches a broker. Each write is one short transaction (trades opened together
// share one: a group commit); the runtime emits its event only after the write resolved, so a socket never hears
// of a write that was rolled back (STYLE §7).
import { istDate, istMidnightOf } from '@optionpilot/engine';
import { rupeesToPaise } from '@optionpilot/engine/money';
import type { RuntimeStore, StrategyEvent, TradeClose, TradeOpen } from '@optionpilot/engine';
import {
  appendLog,
  appendLogs,
  closeTrade,
  findSignal,
  insertSignal,
  insertTrade,
  insertTrades,
  linkOrdersToTrades,
  markSignalExecuted,
  markSignalSkipped,
  updateOrderByClientId,
  toNumber,
  updateTrade,
  type Database,
  type Db,
  type LogRow,
  type NewLog,
  type NewTrade,
  type SignalRow,
  type TradeRow,
} from '../db';
import { systemClock, type Clock } from '../clock';
import { recordNotice, recordNotices, type TraderNotice } from '../notifications/outbox';
import type { Realtime } from '../realtime/publisher';
import { createGroupCommit } from '../db/groupCommit';
import { createDbOrderStore } from './orderStore';

/** What the event publisher needs of a write: the rows as committed. */
export interface StoredRows {
  signal(signalId: string): SignalRow | undefined;
  trade(tradeId: string): TradeRow | undefined;
  log(tradeId: string): LogRow | undefined;
  /** forgets a closed trade's rows once published */
  release(tradeId: string): void;
  /** forgets a signal's row once its last event is published */
  releaseSignal(signalId: string): void;
}

function rupeeText(value: number): string {
  return `₹${value.toFixed(2)}`;
}

/**
 * The trader's daily loss limit notice, once per IST trading date, when a losing close shows the account locked:
 * the engine force-closed it for the limit (`daily_loss`), or the realised loss of the day reached the limit (the
 * engine locks on that too, with nothing left to force-close). Only losing closes pay for the two reads.
 */
async function recordDailyLossLimit(trx: Db, row: TradeRow, reason: string, now: number): Promise<boolean> {
  const closedAt = row.closed_at ?? now;
  const date = istDate(closedAt);
  const settings = (await trx('user_settings')
    .where({ user_id: row.user_id })
    .first('max_daily_loss_paise')) as { max_daily_loss_paise: number | string } | undefined;
  const limitPaise = settings === undefined ? 0 : toNumber(settings.max_daily_loss_paise);
  const day = (await trx('trades')
    .where({ user_id: row.user_id, status: 'closed' })
    .where('closed_at', '>=', istMidnightOf(closedAt))
    .sum({ pnl: 'pnl_paise' })) as Array<{ pnl: unknown }>;
  const realisedPaise = toNumber(day[0]?.pnl ?? 0);
  if (reason !== 'daily_loss' && !(limitPaise > 0 && realisedPaise <= -limitPaise)) return false;
  await recordNotice(
    trx,
    {
      event: 'daily_loss_limit',
      userId: row.user_id,
      factKey: date,
      payload: { date, lossPaise: Math.max(0, -realisedPaise), limitPaise, at: closedAt },
    },
    now,
  );
  return true;
}

/** A trade opened and the log line that says so, as committed. */
interface OpenedRows {
  readonly row: TradeRow;
  readonly logRow: LogRow;
}

/** The `trades` row of an opened position. */
function tradeColumns(trade: TradeOpen): NewTrade {
  return {
    user_id: Number(trade.accountId),
    signal_id: Number(trade.signalId),
    symbol: trade.symbol,
    instrument: 'NIFTY',
    trade_type: trade.type,
    option_type: trade.optionType,
    strike_x100: Math.round(trade.strike * 100),
    expiry_at: trade.expiryAt,
    lots: trade.lots,
    quantity: trade.quantity,
    entry_price_paise: rupeesToPaise(trade.entryPremium),
    stop_loss_paise: rupeesToPaise(trade.risk.stopPrice),
    target_paise: rupeesToPaise(trade.risk.targetPrice),
    paper: trade.paper,
    risk_state: JSON.stringify(trade.risk),
    opened_at: trade.entryTime,
    status: 'open',
  };
}

/** The `logs` line of an opened trade. */
function openedLog(trade: TradeOpen, tradeId: number): NewLog {
  const mode = trade.paper ? 'Paper' : 'Live';
  return {
    event_type: 'trade',
    description: `${mode} trade #${tradeId} opened: BUY ${trade.quantity} ${trade.symbol} @ ${rupeeText(trade.entryPremium)} on ${trade.type} signal #${trade.signalId}; stop ${rupeeText(trade.risk.stopPrice)}, target ${rupeeText(trade.risk.targetPrice)}`,
    user_id: Number(trade.accountId),
    data: {
      tradeId,
      signalId: Number(trade.signalId),
      symbol: trade.symbol,
      quantity: trade.quantity,
      entryPrice: trade.entryPremium,
    },
  };
}

/** The trader's notice of an opened trade, from its row as committed. */
function openedNotice(row: TradeRow): TraderNotice {
  return {
    event: 'trade_opened',
    userId: row.user_id,
    factKey: String(row.id),
    payload: {
      tradeId: row.id,
      symbol: row.symbol,
      quantity: row.quantity,
      entryPaise: row.entry_price_paise,
      stopPaise: row.stop_loss_paise,
      targetPaise: row.target_paise,
      paper: row.paper,
      openedAt: row.opened_at,
    },
  };
}

function rowAt(rows: readonly TradeRow[], i: number): TradeRow {
  const row = rows[i];
  if (row === undefined) throw new Error('a row per opened trade expected');
  return row;
}

/** Creates the database store; `rows` hands the committed rows to the publisher without reading them again. */
export function createRuntimeStore(props: {
  db: Database;
  publisher: Realtime;
  brokerOf: (accountId: string) => string;
  /** the strategy a signal belongs to, as stored (null for the default strategy) */
  strategyRowId: (strategyId: string) => number | null;
  /** stamps the notices recorded with a trade (default: the system clock) */
  clock?: Clock;
  /** a live trade's losing close locked the account for the day (called after the close is committed) */
  onDailyLossLock?: (userId: number) => void;
}): RuntimeStore & { rows: StoredRows } {
  const knex = props.db.knex;
  const clock = props.clock ?? systemClock;
  const signalIds = new Map<string, number>();
  const signals = new Map<string, SignalRow>();
  const trades = new Map<string, TradeRow>();
  const logs = new Map<string, LogRow>();

  // Fills that arrive together (a fan-out's entries) open their trades in one transaction: the trade rows, their
  // orders' links, their log lines and their notices in four statements per batch instead of a transaction each.
  const openings = createGroupCommit<TradeOpen, OpenedRows>({
    knex,
    work: async (trx, trade) => {
      const row = await insertTrade(trx, tradeColumns(trade));
      for (const clientOrderId of trade.orderIds) {
        await updateOrderByClientId(trx, clientOrderId, { trade_id: row.id });
      }
      const logRow = await appendLog(trx, openedLog(trade, row.id));
      await recordNotice(trx, openedNotice(row), clock.now());
      return { row, logRow };
    },
    workMany: async (trx, batch) => {
      const now = Date.now();
      const rows = await insertTrades(trx, batch.map(tradeColumns), now);
      await linkOrdersToTrades(
        trx,
        batch.flatMap((trade, i) =>
          trade.orderIds.map((clientOrderId) => ({ clientOrderId, tradeId: rowAt(rows, i).id })),
        ),
        now,
      );
      const logRows = await appendLogs(
        trx,
        batch.map((trade, i) => openedLog(trade, rowAt(rows, i).id)),
      );
      await recordNotices(trx, rows.map(openedNotice), clock.now());
      return rows.map((row, i) => {
        const logRow = logRows[i];
        if (logRow === undefined) throw new Error('a log line per opened trade expected');
        return { row, logRow };
      });
    },
  });

  async function saveSignal(strategyId: string, event: StrategyEvent): Promise<string> {
    const { signal } = event;
    let id = signalIds.get(`${strategyId}:${signal.key}`);
    if (id === undefined) {
      const { signal: row } = await insertSignal(knex, {
        strategy_id: props.strategyRowId(strategyId),
        signal_at: signal.time,
        type: signal.type,
        condition_met: signal.condition,
        entry_trigger_x100: Math.round(signal.entryTrigger * 100),
        nifty_price_x100: Math.round(signal.niftyPrice * 100),
        setup_candle_at: signal.setupCandleTime,
        expires_at: signal.expiresAt,
        interval_minutes: signal.interval,
      });
      id = row.id;
      signals.set(String(id), row);
      // Only an armed signal has more events to come.
      if (event.kind === 'armed') signalIds.set(`${strategyId}:${signal.key}`, id);
    } else {
      signalIds.delete(`${strategyId}:${signal.key}`);
    }
    if (event.kind === 'executed') {
      const row = await markSignalExecuted(
        knex,
        id,
        signal.executedAt ?? signal.time,
        Math.round((signal.executedPrice ?? signal.entryTrigger) * 100),
      );
      if (row !== undefined) signals.set(String(id), row);
    } else if (event.kind === 'expired' || event.kind === 'suppressed') {
      await markSignalSkipped(knex, id, signal.reason ?? event.kind);
      const row = await findSignal(knex, id);
      if (row !== undefined) signals.set(String(id), row);
    }
    return String(id);
  }

  async function openTrade(trade: TradeOpen): Promise<string> {
    const { row, logRow } = await openings.write(trade);
    trades.set(String(row.id), row);
    logs.set(String(row.id), logRow);
    return String(row.id);
  }

  async function saveRisk(tradeId: string, risk: TradeOpen['risk']): Promise<void> {
    const row = await updateTrade(knex, Number(tradeId), {
      risk_state: JSON.stringify(risk),
      stop_loss_paise: rupeesToPaise(risk.stopPrice),
      target_paise: rupeesToPaise(risk.targetPrice),
    });
    if (row !== undefined) trades.set(tradeId, row);
  }

  async function close(closing: TradeClose): Promise<void> {
    const id = Number(closing.tradeId);
    const reason = closing.reason.toLowerCase();
    const result = await knex.transaction(async (trx) => {
      await updateTrade(trx, id, {
        risk_state: JSON.stringify(closing.risk),
        stop_loss_paise: rupeesToPaise(closing.risk.stopPrice),
        target_paise: rupeesToPaise(closing.risk.targetPrice),
      });
      const row = await closeTrade(trx, id, {
        exit_price_paise: rupeesToPaise(closing.exitPremium),
        pnl_paise: rupeesToPaise(closing.netPnl),
        charges_paise: rupeesToPaise(closing.charges),
        exit_reason: reason,
        closed_at: closing.exitTime,
      });
      if (row === undefined) return undefined;
      const logRow = await appendLog(trx, {
        event_type: 'trade',
        description: `${row.paper ? 'Paper' : 'Live'} trade #${id} closed (${reason}): SELL ${row.quantity} ${row.symbol} @ ${rupeeText(closing.exitPremium)}; net P&L ${rupeeText(closing.netPnl)} after ${rupeeText(closing.charges)} charges`,
        user_id: row.user_id,
        data: {
          tradeId: id,
          exitPrice: closing.exitPremium,
          reason: closing.reason,
          grossPaise: rupeesToPaise(closing.grossPnl),
          chargesPaise: rupeesToPaise(closing.charges),
          netPaise: rupeesToPaise(closing.netPnl),
        },
      });
      await recordNotice(
        trx,
        {
          event: 'trade_closed',
          userId: row.user_id,
          factKey: String(id),
          payload: {
            tradeId: id,
            symbol: row.symbol,
            quantity: row.quantity,
            entryPaise: row.entry_price_paise,
            exitPaise: row.exit_price_paise,
            grossPaise: rupeesToPaise(closing.grossPnl),
            chargesPaise: row.charges_paise,
            netPaise: row.pnl_paise,
            reason,
            paper: row.paper,
            openedAt: row.opened_at,
            closedAt: row.closed_at,
          },
        },
        clock.now(),
      );
      const locked = (row.pnl_paise ?? 0) < 0 && (await recordDailyLossLimit(trx, row, reason, clock.now()));
      return { row, logRow, locked };
    });
    if (result === undefined) return;
    if (result.locked && !result.row.paper) props.onDailyLossLock?.(result.row.user_id);
    trades.set(closing.tradeId, result.row);
    logs.set(closing.tradeId, result.logRow);
  }

  return {
    orders: createDbOrderStore({ db: props.db, publisher: props.publisher, brokerOf: props.brokerOf }),
    saveSignal,
    openTrade,
    saveRisk,
    closeTrade: close,
    rows: {
      signal: (id) => signals.get(id),
      trade: (id) => trades.get(id),
      log: (id) => logs.get(id),
      release(tradeId) {
        trades.delete(tradeId);
        logs.delete(tradeId);
      },
      releaseSignal(signalId) {
        signals.delete(signalId);
      },
    },
  };
}
