// Trades on the wire (REST `GET /api/user/trades` and the `user:trade` event). Premiums and P&L are stored in paise
// and shown in rupees; an open trade has no realised P&L yet, only its live mark-to-market one.
import { paiseToRupees } from '@optionpilot/engine/money';
import type { TradeDto } from '../contract';
import type { TradeRow } from '../db';
import { iso, isoOrNull } from './time';

/** TradeRow → TradeDto; `markPnl` is an open trade's P&L at the last quote (rupees), from the engine. */
export function presentTrade(trade: TradeRow, markPnl?: number | null): TradeDto {
  return {
    id: trade.id,
    userId: trade.user_id,
    symbol: trade.symbol,
    instrument: trade.instrument,
    tradeType: trade.trade_type,
    entryPrice: paiseToRupees(trade.entry_price_paise),
    exitPrice: trade.exit_price_paise === null ? null : paiseToRupees(trade.exit_price_paise),
    stopLoss: paiseToRupees(trade.stop_loss_paise),
    target: paiseToRupees(trade.target_paise),
    quantity: trade.quantity,
    pnl: trade.status === 'open' || trade.pnl_paise === null ? null : paiseToRupees(trade.pnl_paise),
    markPnl: trade.status === 'open' && markPnl !== undefined && markPnl !== null ? markPnl : null,
    status: trade.status,
    exitReason: trade.exit_reason,
    paper: trade.paper,
    timestamp: iso(trade.opened_at),
    createdAt: iso(trade.created_at),
    closedAt: isoOrNull(trade.closed_at),
  };
}
