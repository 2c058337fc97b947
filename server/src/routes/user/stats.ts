// The dashboard's trading statistics for one user, from the trades table (the caller's rows only). The wire
// format is `presentStats`, the same the `user:stats` event uses.
import { istMidnightOf } from '@optionpilot/engine';
import type { UserStatsDto } from '../../contract';
import { userTradeTotals, type Db } from '../../db';
import { presentStats } from '../../presenters/stats';
import type { TradingHooks } from './tradingHooks';

/**
 * Today's P&L (IST day) is the net P&L of trades closed since IST midnight plus, when the engine exposes it, the
 * open positions' unrealised P&L; total trades, win rate and total P&L cover closed trades.
 */
export async function userStats(props: {
  db: Db;
  userId: number;
  now: number;
  hooks: Pick<TradingHooks, 'unrealisedPnlPaise'>;
}): Promise<UserStatsDto> {
  const { db, userId, now, hooks } = props;
  const [{ all, today }, unrealised] = await Promise.all([
    userTradeTotals(db, userId, istMidnightOf(now)),
    hooks.unrealisedPnlPaise ? hooks.unrealisedPnlPaise(userId) : 0,
  ]);
  return presentStats({
    todayPnlPaise: today.pnlPaise + unrealised,
    totalPnlPaise: all.pnlPaise,
    closedTrades: all.closedTrades,
    wins: all.wins,
  });
}
