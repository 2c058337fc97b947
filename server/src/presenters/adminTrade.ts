// Trades as admins see them (`GET /api/admin/trades` and the `admin:trade` event): the user's trade plus who it
// belongs to. Only name and e-mail of the user are copied.
import type { AdminTradeDto } from '../contract';
import type { TradeRow, UserRow } from '../db';
import { presentTrade } from './trade';

/** TradeRow + its user → AdminTradeDto. */
export function presentAdminTrade(
  trade: TradeRow,
  user: Pick<UserRow, 'first_name' | 'last_name' | 'email'>,
): AdminTradeDto {
  return {
    ...presentTrade(trade),
    user: { firstName: user.first_name, lastName: user.last_name, email: user.email },
  };
}
