// The overview cards (`GET /api/admin/stats`): active users are customers (no test account, no admin) and this
// month's revenue leaves test accounts out; trades and win rate are over every closed trade.
import type { AdminStatsDto } from '../../contract';
import type { Deps } from '../../deps';
import { countOf, toNumber } from '../../db';
import { istMonthStart } from './listing';
import { revenueBetween } from './revenue';
import { customersOnly } from './testAccounts';
import { tradingEnabled } from './controls';

export async function adminStats(props: { deps: Pick<Deps, 'db'>; now: number }): Promise<AdminStatsDto> {
  const { deps, now } = props;
  const db = deps.db.knex;
  const active = db('users')
    .where('subscription_status', 'active')
    .where((w) => void w.whereNull('subscription_end_at').orWhere('subscription_end_at', '>', now));
  customersOnly(active);
  const [trades] = (await db('trades').select(
    db.raw('count(*) as n'),
    db.raw("sum(case when status = 'closed' then 1 else 0 end) as closed"),
    db.raw("sum(case when status = 'closed' and pnl_paise > 0 then 1 else 0 end) as wins"),
  )) as Array<Record<string, unknown>>;
  const closed = toNumber(trades?.closed);
  return {
    activeUsers: countOf(await active.count({ n: '*' })),
    monthlyRevenue: await revenueBetween(db, istMonthStart(now), now + 1),
    totalTrades: countOf(trades),
    winRate: closed === 0 ? 0 : Math.round((toNumber(trades?.wins) / closed) * 10_000) / 100,
    botRunning: await tradingEnabled(deps),
  };
}
