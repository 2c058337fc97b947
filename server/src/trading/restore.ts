// After a restart the runtime resumes every open trade with its stops where they were (its `risk_state`), and
// each account's realised P&L of the day, so the daily loss lock survives the restart. Read from the database, the
// one place positions are persisted.
import { paiseToRupees } from '@optionpilot/engine/money';
import {
  breachesDailyLoss,
  createPositionRisk,
  istMidnightOf,
  type AccountRiskState,
  type PositionRiskState,
  type RiskPosition,
  type RestoredTrade,
  type RiskSnapshot,
  type TradeOpen,
} from '@optionpilot/engine';
import {
  listOpenTrades,
  listOrders,
  listTradingCandidates,
  realisedPnlByUser,
  type Db,
  type TradeRow,
} from '../db';

/** What the runtime's `restore` takes. */
export interface Restored {
  readonly snapshot: RiskSnapshot;
  readonly trades: ReadonlyMap<string, RestoredTrade>;
}

function riskOf(trade: TradeRow): PositionRiskState {
  if (trade.risk_state !== null) return JSON.parse(trade.risk_state) as PositionRiskState;
  return createPositionRisk({
    entryPrice: paiseToRupees(trade.entry_price_paise),
    stopLoss: paiseToRupees(trade.entry_price_paise - trade.stop_loss_paise),
    target: paiseToRupees(trade.target_paise - trade.entry_price_paise),
    entryTime: trade.opened_at,
  });
}

/** The trade record the runtime keeps for an open trade row. */
function tradeOpenOf(
  trade: TradeRow,
  risk: PositionRiskState,
  orderIds: readonly string[],
  legs: number,
): TradeOpen {
  return {
    accountId: String(trade.user_id),
    strategyId: '',
    signalId: String(trade.signal_id ?? ''),
    signalTime: trade.opened_at,
    type: trade.trade_type,
    optionType: trade.option_type,
    strike: trade.strike_x100 / 100,
    expiry: '',
    expiryAt: trade.expiry_at,
    symbol: trade.symbol,
    lots: trade.lots,
    quantity: trade.quantity,
    legs,
    entryTime: trade.opened_at,
    entryIndex: 0,
    entryPremium: paiseToRupees(trade.entry_price_paise),
    paper: trade.paper,
    risk,
    orderIds,
  };
}

/** Reads open trades, their exit orders so far, and every candidate account's day, at engine time `now`. */
export async function loadRestored(
  db: Db,
  props: { now: number; tradingDate: (time: number) => string; tradingEnabled: boolean },
): Promise<Restored> {
  const open = await listOpenTrades(db);
  const candidates = await listTradingCandidates(db);
  const userIds = new Set<number>([...open.map((t) => t.user_id), ...candidates.map((c) => c.user.id)]);
  const settingsOf = new Map(
    (await listTradingCandidates(db, [...userIds])).map((c) => [c.user.id, c.settings]),
  );
  const realised = await realisedPnlByUser(db, istMidnightOf(props.now));
  const accounts: Record<string, AccountRiskState> = {};
  for (const userId of userIds) {
    const state: AccountRiskState = {
      accountId: String(userId),
      maxDailyLoss: paiseToRupees(settingsOf.get(userId)?.max_daily_loss_paise ?? 0),
      tradingDate: props.tradingDate(props.now),
      realisedPnl: paiseToRupees(realised.get(userId) ?? 0),
      unrealised: {},
      locked: false,
    };
    accounts[state.accountId] = { ...state, locked: breachesDailyLoss(state) };
  }
  const positions: Record<string, RiskPosition> = {};
  const trades = new Map<string, RestoredTrade>();
  for (const row of open) {
    const risk = riskOf(row);
    const id = String(row.id);
    positions[id] = {
      positionId: id,
      accountId: String(row.user_id),
      symbol: row.symbol,
      quantity: row.quantity,
      openedAt: row.opened_at,
      risk,
    };
    const orders = await listOrders(db, { tradeId: row.id });
    const entries = orders.filter((o) => o.purpose === 'entry');
    // The next exit after a restart takes the highest exit sequence + 1, never a used intent.
    const exitSeq = orders
      .filter((o) => o.purpose === 'exit')
      .reduce((max, o) => Math.max(max, o.sequence), 0);
    trades.set(id, {
      trade: tradeOpenOf(
        row,
        risk,
        entries.map((o) => o.client_order_id),
        Math.max(1, entries.length),
      ),
      exitSeq,
      // A kill between an exit's fill and the trade's close: the restart closes on these fills, never sells again.
      exitFills: orders
        .filter((o) => o.purpose !== 'entry' && o.filled_quantity > 0)
        .map((o) => ({
          clientOrderId: o.client_order_id,
          filledQty: o.filled_quantity,
          avgPrice: paiseToRupees(o.average_price_paise),
        })),
    });
  }
  return {
    snapshot: {
      version: 1,
      tradingState: props.tradingEnabled ? 'ACTIVE' : 'HALTED',
      accounts,
      positions,
    },
    trades,
  };
}
