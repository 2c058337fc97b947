// System Health from real checks (replacing the spec's fixed statuses): the market feed and its last tick, a
// database round trip, broker sessions, open positions, event-loop lag, memory and the exchange calendar's years.
// Next year's holidays missing is a notice with the date they are needed by, not a fault: NSE publishes the list
// in December, and until the year starts nothing trades on it.
import { monitorEventLoopDelay, performance, type IntervalHistogram } from 'node:perf_hooks';
import { addDays, istDate, parseCalendarData, weekdayOf } from '@optionpilot/engine';
import calendarJson from '../../../../engine/data/nse-calendar.json' with { type: 'json' };
import type { AdminNoticeDto, HealthCheckDto, SystemHealthDto } from '../../contract';
import type { SubsystemStatus } from '../../contract';
import type { Deps } from '../../deps';
import { toNumber } from '../../db';
import { isoOrNull } from '../../presenters/time';

/** Lag above this is degraded (a 1 s tick loop starts to slip); above the second, down. */
const LAG_DEGRADED_MS = 100;
const LAG_DOWN_MS = 1000;
const DB_SLOW_MS = 500;

const calendarYears = Object.keys(parseCalendarData(calendarJson).years)
  .map(Number)
  .sort((a, b) => a - b);

/** The first weekday of `year` (its holidays unknown, it is the first day that may trade), YYYY-MM-DD. */
export function firstWeekdayOf(year: number): string {
  let date = `${year}-01-01`;
  while (weekdayOf(date) === 0 || weekdayOf(date) === 6) date = addDays(date, 1);
  return date;
}

const longDate = new Intl.DateTimeFormat('en-IN', {
  weekday: 'long',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'UTC',
});

/** The notice an operator sees while next year's holiday list is missing. */
export function calendarNotice(nextYear: number): AdminNoticeDto {
  const neededBy = firstWeekdayOf(nextYear);
  return {
    id: 'calendar_next_year',
    neededBy,
    message:
      `The NSE holiday list for ${nextYear} is not in engine/data/nse-calendar.json yet. NSE publishes it in ` +
      `December; add it before ${longDate.format(new Date(`${neededBy}T00:00:00Z`))}, the first weekday of ` +
      `${nextYear}. Until then every ${nextYear} weekday would count as a trading day.`,
  };
}

/** Event-loop delay since the previous report; one histogram per server (its timer is unref'd by Node). */
export function createLagMonitor(): { read(): SystemHealthDto['eventLoop']; stop(): void } {
  const histogram: IntervalHistogram = monitorEventLoopDelay({ resolution: 20 });
  histogram.enable();
  return {
    read() {
      const ms = (ns: number) => Math.round((Number.isFinite(ns) ? ns : 0) / 1e4) / 100;
      const out = {
        meanMs: ms(histogram.mean),
        p99Ms: ms(histogram.percentile(99)),
        maxMs: ms(histogram.max),
      };
      histogram.reset();
      return out;
    },
    stop: () => histogram.disable(),
  };
}

const worst = (statuses: SubsystemStatus[]): SubsystemStatus =>
  statuses.includes('down') ? 'down' : statuses.includes('degraded') ? 'degraded' : 'ok';

/** `GET /api/admin/system-health` */
export async function systemHealth(props: {
  deps: Pick<Deps, 'db' | 'trading'>;
  now: number;
  lag: SystemHealthDto['eventLoop'];
}): Promise<SystemHealthDto> {
  const { deps, now, lag } = props;
  const checks: HealthCheckDto[] = [];

  const feed = deps.trading.feedHealth();
  // The age comes from the service, measured on one clock: a simulated market's tick times run on its own clock.
  const lastTick = deps.trading.lastTick();
  const lastTickAgeMs = lastTick.ageMs;
  checks.push({
    name: 'feed',
    status: feed.status === 'live' ? 'ok' : feed.status === 'stale' ? 'degraded' : 'down',
    detail: `${feed.source}: ${feed.status}${lastTickAgeMs === null ? ', no tick yet' : `, last tick ${(lastTickAgeMs / 1000).toFixed(1)} s ago`}`,
  });

  const started = performance.now();
  let dbOk = true;
  try {
    await deps.db.knex.raw('select 1');
  } catch {
    dbOk = false;
  }
  const latencyMs = Math.round((performance.now() - started) * 10) / 10;
  checks.push({
    name: 'database',
    status: !dbOk ? 'down' : latencyMs > DB_SLOW_MS ? 'degraded' : 'ok',
    detail: dbOk ? `answered in ${latencyMs} ms` : 'not answering',
  });

  const sessions = { valid: 0, expired: 0, error: 0, notConnected: 0 };
  if (dbOk) {
    const rows = (await deps.db
      .knex('broker_accounts')
      .select('status', deps.db.knex.raw('token_expires_at'))) as Array<{
      status: string;
      token_expires_at: number | null;
    }>;
    for (const r of rows) {
      const expiry = r.token_expires_at === null ? null : toNumber(r.token_expires_at);
      if (r.status === 'connected' && (expiry === null || expiry > now)) sessions.valid += 1;
      else if (r.status === 'expired' || (r.status === 'connected' && expiry !== null && expiry <= now))
        sessions.expired += 1;
      else if (r.status === 'error') sessions.error += 1;
      else sessions.notConnected += 1;
    }
  }
  checks.push({
    name: 'brokerSessions',
    status: sessions.error > 0 || sessions.expired > 0 ? 'degraded' : 'ok',
    detail: `${sessions.valid} valid, ${sessions.expired} expired, ${sessions.error} in error`,
  });

  const openPositions = deps.trading.openPositions().length;
  checks.push({ name: 'openPositions', status: 'ok', detail: `${openPositions} open` });

  checks.push({
    name: 'eventLoop',
    status: lag.p99Ms > LAG_DOWN_MS ? 'down' : lag.p99Ms > LAG_DEGRADED_MS ? 'degraded' : 'ok',
    detail: `p99 ${lag.p99Ms} ms, max ${lag.maxMs} ms`,
  });

  const mem = process.memoryUsage();
  const memory = { rssBytes: mem.rss, heapUsedBytes: mem.heapUsed, heapTotalBytes: mem.heapTotal };
  checks.push({
    name: 'memory',
    status: 'ok',
    detail: `RSS ${Math.round(mem.rss / 1_048_576)} MB, heap ${Math.round(mem.heapUsed / 1_048_576)} MB`,
  });

  const year = Number(istDate(now).slice(0, 4));
  const calendar = {
    yearsCovered: calendarYears,
    thisYear: calendarYears.includes(year),
    nextYear: calendarYears.includes(year + 1),
  };
  const notices: AdminNoticeDto[] = [];
  if (calendar.thisYear && !calendar.nextYear) notices.push(calendarNotice(year + 1));
  checks.push({
    name: 'calendar',
    status: calendar.thisYear ? 'ok' : 'down',
    detail: calendar.nextYear
      ? `holidays known for ${year} and ${year + 1}`
      : calendar.thisYear
        ? `holidays known for ${year}; ${year + 1} needed by ${firstWeekdayOf(year + 1)}`
        : `holidays of ${year} missing from the calendar file`,
  });

  return {
    status: worst(checks.map((c) => c.status)),
    checkedAt: new Date(now).toISOString(),
    checks,
    notices,
    feed: { status: feed.status, lastTickAt: isoOrNull(lastTick.time), lastTickAgeMs },
    database: { ok: dbOk, latencyMs },
    brokerSessions: sessions,
    openPositions,
    eventLoop: lag,
    memory,
    calendar,
  };
}
