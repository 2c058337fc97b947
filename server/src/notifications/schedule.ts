// The notices that come from the clock rather than from a write: the daily summary after the close (15:35 IST)
// and the broker-session check before the open (08:45 IST), on exchange trading days. Each run derives its work
// from the database (the day's closed trades, the live traders' broker accounts), and each notice's fact key is
// the trading date, so a run after downtime catches up once and a second run records nothing.
import {
  addDays,
  createExchangeCalendar,
  istDate,
  istDateTime,
  istMidnight,
  loadCalendarData,
  type MarketCalendar,
} from '@optionpilot/engine';
import calendarJson from '../../../engine/data/nse-calendar.json' with { type: 'json' };
import type { Clock } from '../clock';
import { toNumber, type Db } from '../db';
import type { Logger } from '../logger';
import { recordNotice } from './outbox';

/** IST wall-clock times of the two scheduled notices. */
export const DAILY_SUMMARY_AT = '15:35';
export const SESSION_CHECK_AT = '08:45';

/** How far back a run looks for the last trading day whose summary is due (covers long holiday weekends). */
const LOOKBACK_DAYS = 10;

export interface ScheduleDeps {
  db: Db;
  clock: Clock;
  /** the exchange calendar (default: the NSE calendar data the engine ships) */
  calendar?: MarketCalendar;
}

export interface ScheduledRun {
  /** the trading date summarised, null when none is due */
  summaryDate: string | null;
  summaries: number;
  /** the trading date checked, null outside 08:45 IST to the close of a trading day */
  sessionDate: string | null;
  sessionNotices: number;
}

/** The exchange calendar of the data file, whatever SIM_SESSION says: summaries follow real trading days. */
export function exchangeCalendar(now: number): MarketCalendar {
  return createExchangeCalendar(loadCalendarData(calendarJson, { now }).data);
}

/**
 * The latest trading date whose summary time has passed at `now`; null when none in the last ten days. Only the
 * latest: after a long downtime the most recent day is summarised once, not every day missed.
 */
export function dueSummaryDate(calendar: MarketCalendar, now: number): string | null {
  let date = istDate(now);
  for (let i = 0; i <= LOOKBACK_DAYS; i += 1, date = addDays(date, -1)) {
    if (calendar.isTradingDay(date) && istDateTime(date, DAILY_SUMMARY_AT) <= now) return date;
  }
  return null;
}

/** The trading date to check sessions for at `now`: today, from 08:45 IST until the day's last session closes. */
export function dueSessionCheck(
  calendar: MarketCalendar,
  now: number,
): { date: string; open: number } | null {
  const date = istDate(now);
  if (!calendar.isTradingDay(date) || now < istDateTime(date, SESSION_CHECK_AT)) return null;
  const sessions = calendar.sessionsOn(date);
  const first = sessions[0];
  const last = sessions[sessions.length - 1];
  if (first === undefined || last === undefined || now >= last.close) return null;
  return { date, open: (sessions.find((s) => s.kind === 'regular') ?? first).open };
}

interface DayRow {
  user_id: unknown;
  trades: unknown;
  wins: unknown;
  net: unknown;
  charges: unknown;
}

/** Records a `daily_summary` for every trader with trades closed on `date` (IST); returns how many were new. */
export async function recordDailySummaries(db: Db, date: string, now: number): Promise<number> {
  const from = istMidnight(date);
  const rows = (await db('trades')
    .where({ status: 'closed' })
    .where('closed_at', '>=', from)
    .where('closed_at', '<', istMidnight(addDays(date, 1)))
    .groupBy('user_id')
    .orderBy('user_id')
    .select('user_id')
    .count({ trades: '*' })
    .sum({ net: 'pnl_paise', charges: 'charges_paise' })
    .select(db.raw('sum(case when pnl_paise > 0 then 1 else 0 end) as wins'))) as DayRow[];
  let recorded = 0;
  for (const row of rows) {
    const trades = toNumber(row.trades);
    const wins = toNumber(row.wins);
    const id = await recordNotice(
      db,
      {
        event: 'daily_summary',
        userId: toNumber(row.user_id),
        factKey: date,
        payload: {
          date,
          trades,
          wins,
          losses: trades - wins,
          netPaise: toNumber(row.net),
          chargesPaise: toNumber(row.charges),
        },
      },
      now,
    );
    if (id !== undefined) recorded += 1;
  }
  return recorded;
}

interface AccountRow {
  user_id: unknown;
  broker_type: string;
  broker_account_name: string | null;
  status: string;
  token_expires_at: unknown;
}

/**
 * Records `broker_session_expired` for every trader in Live mode whose broker account is expired, or connected
 * with a token that ends before the session opens on `date`; returns how many were new.
 */
export async function recordExpiredSessions(
  db: Db,
  props: { date: string; open: number; now: number },
): Promise<number> {
  const rows = (await db('broker_accounts as b')
    .join('trading_settings as s', 's.user_id', 'b.user_id')
    .where('s.mode', 'live')
    .where((q) =>
      q
        .where('b.status', 'expired')
        .orWhere((c) =>
          c
            .where('b.status', 'connected')
            .where((t) => t.whereNull('b.token_expires_at').orWhere('b.token_expires_at', '<=', props.open)),
        ),
    )
    .orderBy('b.user_id')
    .select(
      'b.user_id',
      'b.broker_type',
      'b.broker_account_name',
      'b.status',
      'b.token_expires_at',
    )) as AccountRow[];
  let recorded = 0;
  for (const row of rows) {
    const expiresAt = row.token_expires_at === null ? null : toNumber(row.token_expires_at);
    const id = await recordNotice(
      db,
      {
        event: 'broker_session_expired',
        userId: toNumber(row.user_id),
        // Shared with the notice recorded when a broker refuses a session mid-day: one per trader and date.
        factKey: props.date,
        payload: {
          broker: row.broker_type,
          accountName: row.broker_account_name,
          expiresAt,
          date: props.date,
        },
      },
      props.now,
    );
    if (id !== undefined) recorded += 1;
  }
  return recorded;
}

/** One run: the summary and the session check that are due at the clock's now. */
export async function recordScheduledNotices(deps: ScheduleDeps): Promise<ScheduledRun> {
  const now = deps.clock.now();
  const calendar = deps.calendar ?? exchangeCalendar(now);
  const summaryDate = dueSummaryDate(calendar, now);
  const summaries = summaryDate === null ? 0 : await recordDailySummaries(deps.db, summaryDate, now);
  const check = dueSessionCheck(calendar, now);
  const sessionNotices =
    check === null ? 0 : await recordExpiredSessions(deps.db, { date: check.date, open: check.open, now });
  return { summaryDate, summaries, sessionDate: check?.date ?? null, sessionNotices };
}

/**
 * Runs the scheduled notices now (catching up after downtime) and then every `intervalMs` (default a minute);
 * a failed run is logged and the next one tries again. Returns the stop function for shutdown.
 */
export function startNotificationSchedule(
  deps: ScheduleDeps & { logger: Logger; intervalMs?: number },
): () => void {
  const calendar = deps.calendar ?? exchangeCalendar(deps.clock.now());
  let running = false;
  const run = async () => {
    if (running) return;
    running = true;
    try {
      const result = await recordScheduledNotices({ ...deps, calendar });
      if (result.summaries > 0 || result.sessionNotices > 0)
        deps.logger.info(result, 'scheduled notices recorded');
    } catch (err) {
      deps.logger.error({ err }, 'scheduled notices run failed');
    } finally {
      running = false;
    }
  };
  void run();
  const timer = setInterval(() => void run(), deps.intervalMs ?? 60_000);
  timer.unref();
  return () => clearInterval(timer);
}
