// A user's trading figures (`GET /api/user/stats` and the `user:stats` event), from paise to rupees at the edge.
import { paiseToRupees } from '@optionpilot/engine/money';
import type { UserStatsDto } from '../contract';

/** What the stats are computed from; money in integer paise. */
export interface UserStatsInput {
  /** realised (closed, net of charges) since the IST day began */
  todayRealisedPaise: number;
  /** realised of every closed trade */
  totalRealisedPaise: number;
  /** open positions marked to market, before charges */
  openPaise: number;
  openTrades: number;
  closedTrades: number;
  wins: number;
}

/** UserStatsInput → UserStatsDto: rupees with 2 decimals, win rate in percent with 2 decimals; the day's and the
 * all-time P&L include the open P&L. */
export function presentStats(input: UserStatsInput): UserStatsDto {
  const open = Math.round(input.openPaise);
  return {
    todayPnl: paiseToRupees(Math.round(input.todayRealisedPaise) + open),
    todayRealisedPnl: paiseToRupees(input.todayRealisedPaise),
    openPnl: paiseToRupees(open),
    openTrades: input.openTrades,
    totalTrades: input.closedTrades,
    winRate: input.closedTrades === 0 ? 0 : Math.round((input.wins / input.closedTrades) * 10_000) / 100,
    totalPnl: paiseToRupees(Math.round(input.totalRealisedPaise) + open),
    totalRealisedPnl: paiseToRupees(input.totalRealisedPaise),
  };
}
