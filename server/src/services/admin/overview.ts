// The overview cards (`GET /api/admin/stats`): active users are customers (no test account, no admin) and this
// month's revenue (net of refunds, with gross, refunds and the GST of its tax documents beside it) leaves test
// accounts out; trades and win rate are over every closed trade of a customer. The visitors' demo account is left
// out of all of them.
import type { AdminStatsDto } from '../../contract';
import type { Deps } from '../../deps';
import { countOf, toNumber } from '../../db';
import { istDate } from '@optionpilot/engine';
import { monthsOf, revenueByMonth } from './revenueSummary';
import { customersOnly } from './testAccounts';
import { excludingDemoAccount } from './demoAccount';
import { tradingEnabled } from './controls';

export async function adminStats(props: { deps: Pick<Deps, 'db'>; now: number }): Promise<AdminStatsDto> {
  const { deps, now } = props;
  const db = deps.db.knex;
  const active = db('users')
    .where('subscription_status', 'active')
    .where((w) => void w.whereNull('subscription_end_at').orWhere('subscription_end_at', '>', now));
  customersOnly(active);
  const customerTrades = db('trades');
  excludingDemoAccount(customerTrades, 'trades.user_id');
  const [trades] = (await customerTrades.select(
    db.raw('count(*) as n'),
    db.raw("sum(case when status = 'closed' then 1 else 0 end) as closed"),
    db.raw("sum(case when status = 'closed' and pnl_paise > 0 then 1 else 0 end) as wins"),
  )) as Array<Record<string, unknown>>;
  const closed = toNumber(trades?.closed);
  const thisMonth = istDate(now).slice(0, 7);
  const [month] = await revenueByMonth(db, monthsOf({ from: thisMonth, to: thisMonth }, now));
  return {
    activeUsers: countOf(await active.count({ n: '*' })),
    monthlyRevenue: month?.netPaise ?? 0,
    monthlyGrossPaise: month?.grossPaise ?? 0,
    monthlyRefundsPaise: month?.refundsPaise ?? 0,
    monthlyGst: {
      cgstPaise: month?.cgstPaise ?? 0,
      sgstPaise: month?.sgstPaise ?? 0,
      igstPaise: month?.igstPaise ?? 0,
    },
    totalTrades: countOf(trades),
    winRate: closed === 0 ? 0 : Math.round((toNumber(trades?.wins) / closed) * 10_000) / 100,
    botRunning: await tradingEnabled(deps),
  };
}
