// Trades as admins see them (`GET /api/admin/trades` and the `admin:trades` event): the user's trade — the same
// symbol and mark-to-market P&L the trader sees — plus who it belongs to. Only name and e-mail of the user are copied.
import type { AdminTradeDto } from '../contract';
import type { TradeRow, UserRow } from '../db';
import { presentTrade } from './trade';

/** TradeRow + its user → AdminTradeDto; `markPnl` as for {@link presentTrade}. */
export function presentAdminTrade(
  trade: TradeRow,
  user: Pick<UserRow, 'first_name' | 'last_name' | 'email'>,
  markPnl?: number | null,
): AdminTradeDto {
  return {
    ...presentTrade(trade, markPnl),
    user: { firstName: user.first_name, lastName: user.last_name, email: user.email },
  };
}
