// A user's trading figures (`GET /api/user/stats` and the `user:stats` event), from paise to rupees at the edge.
import type { UserStatsDto } from '../contract';

/** What the stats are computed from; money in integer paise. */
export interface UserStatsInput {
  todayPnlPaise: number;
  totalPnlPaise: number;
  closedTrades: number;
  wins: number;
}

/** UserStatsInput → UserStatsDto: rupees with 2 decimals, win rate in percent with 2 decimals. */
export function presentStats(input: UserStatsInput): UserStatsDto {
  return {
    todayPnl: Math.round(input.todayPnlPaise) / 100,
    totalTrades: input.closedTrades,
    winRate: input.closedTrades === 0 ? 0 : Math.round((input.wins / input.closedTrades) * 10_000) / 100,
    totalPnl: Math.round(input.totalPnlPaise) / 100,
  };
}
