// The scheduled notices on the NSE calendar: the daily summary of the latest trading day once its 15:35 IST has
// passed (caught up once after downtime, never for a holiday or weekend), and the 08:45 IST check of live traders'
// broker sessions on trading days only; a second run records nothing.
import { istDateTime } from '@optionpilot/engine';
import { describe, expect, it } from 'vitest';
import { createManualClock } from '../clock';
import {
  closeTrade,
  insertTrade,
  insertUser,
  saveBrokerCredentials,
  saveTradingSettings,
  updateBrokerAccount,
} from '../db';
import { testDialects, useTestDatabase } from '../db/testing';
import { dueSessionCheck, dueSummaryDate, exchangeCalendar, recordScheduledNotices } from './schedule';

const calendar = exchangeCalendar(Date.UTC(2026, 0, 1));
const at = (date: string, time: string) => istDateTime(date, time);

describe('when the scheduled notices are due', () => {
  it('summarises the latest trading day whose 15:35 IST has passed, skipping weekends and holidays', () => {
    expect(dueSummaryDate(calendar, at('2026-01-07', '15:34'))).toBe('2026-01-06');
    expect(dueSummaryDate(calendar, at('2026-01-07', '15:35'))).toBe('2026-01-07');
    // Saturday and Sunday: still Friday's.
    expect(dueSummaryDate(calendar, at('2026-01-10', '12:00'))).toBe('2026-01-09');
    expect(dueSummaryDate(calendar, at('2026-01-11', '23:00'))).toBe('2026-01-09');
    // Thu 15 Jan 2026 is an exchange holiday: Wednesday's stays the latest.
    expect(dueSummaryDate(calendar, at('2026-01-15', '16:00'))).toBe('2026-01-14');
  });

  it('checks sessions on a trading day from 08:45 IST until the close, never on a holiday or weekend', () => {
    expect(dueSessionCheck(calendar, at('2026-01-07', '08:44'))).toBeNull();
    expect(dueSessionCheck(calendar, at('2026-01-07', '08:45'))).toEqual({
      date: '2026-01-07',
      open: at('2026-01-07', '09:15'),
    });
    expect(dueSessionCheck(calendar, at('2026-01-07', '15:29'))?.date).toBe('2026-01-07');
    expect(dueSessionCheck(calendar, at('2026-01-07', '15:30'))).toBeNull();
    expect(dueSessionCheck(calendar, at('2026-01-10', '09:00'))).toBeNull();
    expect(dueSessionCheck(calendar, at('2026-01-15', '09:00'))).toBeNull();
  });
});

describe.each(testDialects())('recordScheduledNotices (%s)', (dialect) => {
  const knex = useTestDatabase(dialect);
  let n = 0;

  async function user() {
    n += 1;
    const row = await insertUser(knex(), {
      email: `sched${n}@example.com`,
      first_name: 'S',
      last_name: 'T',
      password_hash: 'x',
    });
    return row.id;
  }

  async function closedTrade(userId: number, closedAt: number, pnlPaise: number, chargesPaise = 5_000) {
    const trade = await insertTrade(knex(), {
      user_id: userId,
      signal_id: null,
      symbol: 'NIFTY13JAN2624000CE',
      instrument: 'NIFTY',
      trade_type: 'CALL',
      option_type: 'CE',
      strike_x100: 2_400_000,
      expiry_at: closedAt + 86_400_000,
      lots: 1,
      quantity: 65,
      entry_price_paise: 10_000,
      stop_loss_paise: 8_000,
      target_paise: 14_000,
      paper: true,
      risk_state: null,
      opened_at: closedAt - 600_000,
      status: 'open',
    });
    await closeTrade(knex(), trade.id, {
      exit_price_paise: 11_000,
      pnl_paise: pnlPaise,
      charges_paise: chargesPaise,
      exit_reason: 'target',
      closed_at: closedAt,
    });
  }

  const notices = async (event: string, userIds: number[]) =>
    (
      (await knex()('notification_outbox')
        .where({ event })
        .whereIn('user_id', userIds)
        .orderBy('id')
        .select('user_id', 'payload')) as Array<{ user_id: number; payload: string }>
    ).map((r) => ({ userId: r.user_id, payload: JSON.parse(r.payload) as unknown }));

  it('records one summary per trader who traded that day, once, and catches up once after downtime', async () => {
    const a = await user();
    const b = await user();
    const idle = await user();
    await closedTrade(a, at('2026-01-07', '10:00'), 150_000);
    await closedTrade(a, at('2026-01-07', '11:00'), -40_000, 7_000);
    await closedTrade(b, at('2026-01-06', '12:00'), 10_000);
    // A trade closed after midnight IST belongs to the next day.
    await closedTrade(b, at('2026-01-08', '00:10'), 99_999);
    const clock = createManualClock(at('2026-01-07', '15:36'));
    const run = () => recordScheduledNotices({ db: knex(), clock, calendar });

    expect(await run()).toMatchObject({ summaryDate: '2026-01-07', summaries: 1 });
    expect(await run()).toMatchObject({ summaryDate: '2026-01-07', summaries: 0 });
    expect(await notices('daily_summary', [a, b, idle])).toEqual([
      {
        userId: a,
        payload: {
          date: '2026-01-07',
          trades: 2,
          wins: 1,
          losses: 1,
          netPaise: 110_000,
          chargesPaise: 12_000,
        },
      },
    ]);

    // Down from Friday 9 Jan to Saturday noon: Friday's summary (the latest) goes out once.
    await closedTrade(b, at('2026-01-09', '14:00'), -25_000);
    clock.set(at('2026-01-10', '12:00'));
    expect(await run()).toMatchObject({ summaryDate: '2026-01-09', summaries: 1 });
    clock.set(at('2026-01-11', '20:00'));
    expect(await run()).toMatchObject({ summaryDate: '2026-01-09', summaries: 0 });
    expect((await notices('daily_summary', [b])).map((r) => r.payload)).toEqual([
      expect.objectContaining({ date: '2026-01-09', trades: 1, wins: 0, netPaise: -25_000 }),
    ]);
  });

  it('records no summary for a holiday, whatever was traded on it', async () => {
    const demo = await user();
    await closedTrade(demo, at('2026-01-15', '11:00'), 5_000);
    const clock = createManualClock(at('2026-01-15', '16:00'));
    expect(await recordScheduledNotices({ db: knex(), clock, calendar })).toMatchObject({
      summaryDate: '2026-01-14',
      sessionDate: null,
    });
    expect(await notices('daily_summary', [demo])).toEqual([]);
  });

  it('tells live traders whose broker session ends before the open to reconnect, once per trading date', async () => {
    const date = '2026-01-20';
    const account = async (mode: 'live' | 'paper', status: 'connected' | 'expired', expiresAt: number) => {
      const id = await user();
      await saveBrokerCredentials(
        knex(),
        id,
        { broker_type: 'zerodha', api_key_enc: 'k', api_secret_enc: 's', api_key_last4: '1234' },
        at(date, '06:00'),
      );
      await updateBrokerAccount(knex(), id, {
        status,
        token_expires_at: expiresAt,
        broker_account_name: 'Asha R',
      });
      await saveTradingSettings(knex(), id, { mode });
      return id;
    };
    const stale = await account('live', 'connected', at(date, '06:00'));
    const expired = await account('live', 'expired', at('2026-01-19', '06:00'));
    const fresh = await account('live', 'connected', at('2026-01-21', '06:00'));
    const paper = await account('paper', 'expired', at('2026-01-19', '06:00'));
    const everyone = [stale, expired, fresh, paper];
    const clock = createManualClock(at(date, '08:40'));
    const run = () => recordScheduledNotices({ db: knex(), clock, calendar });

    expect(await run()).toMatchObject({ sessionDate: null, sessionNotices: 0 });
    clock.set(at(date, '08:45'));
    expect(await run()).toMatchObject({ sessionDate: date, sessionNotices: 2 });
    clock.set(at(date, '10:00'));
    expect(await run()).toMatchObject({ sessionDate: date, sessionNotices: 0 });
    expect(await notices('broker_session_expired', everyone)).toEqual([
      {
        userId: stale,
        payload: { broker: 'zerodha', accountName: 'Asha R', expiresAt: at(date, '06:00'), date },
      },
      {
        userId: expired,
        payload: { broker: 'zerodha', accountName: 'Asha R', expiresAt: at('2026-01-19', '06:00'), date },
      },
    ]);
    // Saturday: no check at all.
    clock.set(at('2026-01-24', '09:00'));
    expect(await run()).toMatchObject({ sessionDate: null, sessionNotices: 0 });
  });
});
