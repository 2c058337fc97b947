import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { alwaysOpenCalendar } from '../calendar/alwaysOpenCalendar';
import { createExchangeCalendar } from '../calendar/exchangeCalendar';
import { BUNDLED_CALENDAR_URL, readCalendarFile } from '../calendar/readCalendarFile';
import type { Candle, IntervalMinutes, SessionCalendar, Tick } from '../core/types';
import { CandleBuilder } from './candleBuilder';
import { ist, istTestCalendar } from './testCalendars';

const MIN = 60_000;
const calendar = istTestCalendar(['2026-01-26']);
const MON = '2026-01-05';

const tick = (time: number, price: number, volume = 0): Tick => ({ time, price, volume });

/** Pushes every tick, then flushes; returns the closed candles and the ticks that were accepted. */
function build(ticks: readonly Tick[], interval: IntervalMinutes = 1) {
  const builder = new CandleBuilder({ interval, calendar });
  const candles: Candle[] = [];
  const accepted: Tick[] = [];
  const rejected: Tick[] = [];
  for (const t of ticks) {
    const closed = builder.push(t);
    if (closed) candles.push(closed);
    (builder.accepted ? accepted : rejected).push(t);
  }
  const last = builder.flush();
  if (last) candles.push(last);
  return { candles, accepted, rejected };
}

describe('CandleBuilder', () => {
  it('aligns buckets to 09:15 IST and opens the next candle on a boundary tick', () => {
    const open = ist(MON, '09:15');
    const { candles } = build(
      [tick(open, 100, 1), tick(open + 3 * MIN - 1, 104, 2), tick(open + 3 * MIN, 101, 3)],
      3,
    );
    expect(candles).toEqual([
      { interval: 3, time: open, open: 100, high: 104, low: 100, close: 104, volume: 3, closed: true },
      {
        interval: 3,
        time: open + 3 * MIN,
        open: 101,
        high: 101,
        low: 101,
        close: 101,
        volume: 3,
        closed: true,
      },
    ]);
    expect(Object.isFrozen(candles[0])).toBe(true);
  });

  it('buckets a mid-bucket first tick to the grid start, not to the tick', () => {
    const { candles } = build([tick(ist(MON, '09:22:30'), 100)], 5);
    expect(candles.map((c) => c.time)).toEqual([ist(MON, '09:20')]);
  });

  it('drops ticks outside the session, on weekends and on holidays', () => {
    const { candles, rejected } = build([
      tick(ist(MON, '09:14:59.999'), 1),
      tick(ist(MON, '15:30'), 2),
      tick(ist('2026-01-10', '10:00'), 3), // Saturday
      tick(ist('2026-01-26', '10:00'), 4), // holiday
    ]);
    expect(candles).toEqual([]);
    expect(rejected).toHaveLength(4);
  });

  it('keeps the last bucket of the day (15:29) and drops 15:30', () => {
    const { candles } = build([tick(ist(MON, '15:29:59'), 7), tick(ist(MON, '15:30'), 8)]);
    expect(candles).toHaveLength(1);
    expect(candles[0]).toMatchObject({ time: ist(MON, '15:29'), close: 7 });
  });

  it('drops a tick older than the last accepted tick but accepts an equal time', () => {
    const t0 = ist(MON, '10:00:10');
    const { candles, rejected } = build([tick(t0, 100), tick(t0, 101), tick(t0 - 1, 50), tick(t0 + 5, 99)]);
    expect(rejected).toEqual([tick(t0 - 1, 50)]);
    expect(candles[0]).toMatchObject({ open: 100, high: 101, low: 99, close: 99 });
  });

  it('drops a NaN-timed tick', () => {
    const builder = new CandleBuilder({ interval: 1, calendar });
    builder.push(tick(ist(MON, '10:00'), 100));
    expect(builder.push(tick(Number.NaN, 1))).toBeUndefined();
    expect(builder.accepted).toBe(false);
    expect(builder.closesAt).toBe(ist(MON, '10:01'));
  });

  it('closeUntil closes only a bucket that has ended, and a late tick for a closed bucket is dropped', () => {
    const builder = new CandleBuilder({ interval: 1, calendar });
    builder.push(tick(ist(MON, '10:00:05'), 100));
    expect(builder.closeUntil(ist(MON, '10:00:59.999'))).toBeUndefined();
    expect(builder.closeUntil(ist(MON, '10:01'))).toMatchObject({ time: ist(MON, '10:00'), closed: true });
    expect(builder.closesAt).toBeUndefined();
    builder.push(tick(ist(MON, '10:00:50'), 101));
    expect(builder.accepted).toBe(false);
    expect(builder.flush()).toBeUndefined();
  });

  it('an out-of-session tick after the bucket end closes the forming candle without opening one', () => {
    const builder = new CandleBuilder({ interval: 1, calendar });
    builder.push(tick(ist(MON, '15:29:30'), 100));
    const closed = builder.push(tick(ist(MON, '15:30:01'), 101));
    expect(closed).toMatchObject({ time: ist(MON, '15:29'), close: 100 });
    expect(builder.accepted).toBe(false);
    expect(builder.closesAt).toBeUndefined();
  });

  it('gives a forming snapshot with closed false', () => {
    const builder = new CandleBuilder({ interval: 1, calendar });
    expect(builder.formingCandle()).toBeUndefined();
    builder.push(tick(ist(MON, '10:00:05'), 100, 4));
    builder.push(tick(ist(MON, '10:00:06'), 102, 1));
    expect(builder.formingCandle()).toEqual({
      interval: 1,
      time: ist(MON, '10:00'),
      open: 100,
      high: 102,
      low: 100,
      close: 102,
      volume: 5,
      closed: false,
    });
  });

  it('switches interval at the next bucket and drops ticks until the new grid passes the last close', () => {
    const builder = new CandleBuilder({ interval: 1, calendar });
    builder.push(tick(ist(MON, '10:01:10'), 100));
    builder.setInterval(5);
    expect(builder.currentInterval).toBe(1);
    expect(builder.closesAt).toBe(ist(MON, '10:02'));
    const closed = builder.push(tick(ist(MON, '10:02:10'), 101));
    expect(closed).toMatchObject({ interval: 1, time: ist(MON, '10:01') });
    // 10:02:10 lies in the 5-minute bucket 10:00–10:05, which started before the 1-minute candle ended.
    expect(builder.accepted).toBe(false);
    builder.push(tick(ist(MON, '10:05'), 102));
    expect(builder.accepted).toBe(true);
    expect(builder.flush()).toMatchObject({ interval: 5, time: ist(MON, '10:05'), open: 102 });
  });

  it('asks the calendar once per bucket and twice per pre-open minute, not per tick', () => {
    let calls = 0;
    const counting: SessionCalendar = {
      ...calendar,
      isInSession: (t) => {
        calls++;
        return calendar.isInSession(t);
      },
    };
    const builder = new CandleBuilder({ interval: 1, calendar: counting });
    for (let i = 0; i < 240; i++) builder.push(tick(ist(MON, '09:14') + i * 250, 100));
    expect(calls).toBe(2);
    calls = 0;
    for (let i = 0; i < 240; i++) builder.push(tick(ist(MON, '09:15') + i * 250, 100 + i));
    expect(calls).toBe(2); // the opening tick and the bucket's last instant
    expect(builder.formingCandle()).toMatchObject({ open: 100, high: 339, close: 339 });
  });

  it('on a session that opens mid-minute, a tick before the open is dropped and one after it is kept', () => {
    const midMinute: SessionCalendar = {
      ...calendar,
      isInSession: (t) => calendar.isInSession(t) && t >= ist(MON, '09:15:30'),
    };
    const builder = new CandleBuilder({ interval: 1, calendar: midMinute });
    builder.push(tick(ist(MON, '09:15:10'), 1));
    expect(builder.accepted).toBe(false);
    builder.push(tick(ist(MON, '09:15:40'), 2));
    expect(builder.accepted).toBe(true);
  });

  it('with the bundled NSE calendar: Republic Day 2026 has no candles, the next day does', async () => {
    const { data } = await readCalendarFile(fileURLToPath(BUNDLED_CALENDAR_URL), { now: ist(MON, '09:00') });
    const nse = createExchangeCalendar(data);
    const builder = new CandleBuilder({ interval: 5, calendar: nse });
    builder.push(tick(ist('2026-01-26', '10:00'), 1));
    expect(builder.accepted).toBe(false);
    builder.push(tick(ist('2026-01-27', '09:17'), 2));
    expect(builder.flush()).toMatchObject({ time: ist('2026-01-27', '09:15'), open: 2 });
  });

  it('with the always-open calendar: night ticks form candles on the 09:15-aligned grid', () => {
    const builder = new CandleBuilder({ interval: 15, calendar: alwaysOpenCalendar });
    builder.push(tick(ist(MON, '02:07'), 1));
    expect(builder.flush()).toMatchObject({ time: ist(MON, '02:00'), open: 1 });
  });

  // Ticks spread over a Friday, the weekend and a Monday, inside and outside the session, at times that are
  // mostly increasing with occasional steps back (late ticks).
  const day = (date: string) => ({ from: ist(date, '09:00'), to: ist(date, '15:45') });
  const ranges = [day('2026-01-02'), day('2026-01-03'), day('2026-01-05')];
  const ticksArb = fc
    .array(
      fc.record({
        day: fc.integer({ min: 0, max: ranges.length - 1 }),
        offset: fc.integer({ min: 0, max: 405 * MIN }),
        price: fc.integer({ min: 2_000_000, max: 2_600_000 }).map((p) => p / 100),
        volume: fc.integer({ min: 0, max: 500 }),
        late: fc.integer({ min: 0, max: 9 }),
      }),
      { maxLength: 300 },
    )
    .map((raw) => {
      const sorted = raw
        .map((r) => ({ ...r, time: (ranges[r.day] as { from: number }).from + r.offset }))
        .sort((a, b) => a.time - b.time);
      // Swap some neighbours so late ticks occur.
      for (let i = 1; i < sorted.length; i++) {
        if ((sorted[i] as { late: number }).late === 0) {
          const prev = sorted[i - 1] as (typeof sorted)[number];
          sorted[i - 1] = sorted[i] as (typeof sorted)[number];
          sorted[i] = prev;
        }
      }
      return sorted.map((r) => tick(r.time, r.price, r.volume));
    });
  const intervalArb = fc.constantFrom<IntervalMinutes>(1, 3, 5, 15);

  it('property: every candle is a valid OHLC bar of exactly its accepted ticks', () => {
    fc.assert(
      fc.property(ticksArb, intervalArb, (ticks, interval) => {
        const { candles, accepted } = build(ticks, interval);
        const byBucket = new Map<number, Tick[]>();
        for (const t of accepted) {
          const open = calendar.sessionOpen(t.time);
          const start = open + Math.floor((t.time - open) / (interval * MIN)) * interval * MIN;
          byBucket.set(start, [...(byBucket.get(start) ?? []), t]);
        }
        expect(candles.map((c) => c.time)).toEqual([...byBucket.keys()]);
        for (const c of candles) {
          const members = byBucket.get(c.time) ?? [];
          expect(c.low).toBeLessThanOrEqual(Math.min(c.open, c.close));
          expect(c.high).toBeGreaterThanOrEqual(Math.max(c.open, c.close));
          expect(c.high).toBe(Math.max(...members.map((t) => t.price)));
          expect(c.low).toBe(Math.min(...members.map((t) => t.price)));
          expect(c.open).toBe(members[0]?.price);
          expect(c.close).toBe(members.at(-1)?.price);
          expect(c.volume).toBe(members.reduce((sum, t) => sum + t.volume, 0));
          expect(c.interval).toBe(interval);
          expect(c.closed).toBe(true);
        }
      }),
    );
  });

  it('property: candles are in session, strictly increasing, and volumes sum to the accepted volume', () => {
    fc.assert(
      fc.property(ticksArb, intervalArb, (ticks, interval) => {
        const { candles, accepted } = build(ticks, interval);
        for (let i = 0; i < candles.length; i++) {
          const c = candles[i] as Candle;
          expect(calendar.isInSession(c.time)).toBe(true);
          if (i > 0) expect(c.time).toBeGreaterThan((candles[i - 1] as Candle).time);
        }
        const total = candles.reduce((sum, c) => sum + c.volume, 0);
        expect(total).toBe(accepted.reduce((sum, t) => sum + t.volume, 0));
      }),
    );
  });

  it('property: accepted ticks are in session and non-decreasing; in-order in-session ticks are all accepted', () => {
    fc.assert(
      fc.property(ticksArb, intervalArb, (ticks, interval) => {
        const { accepted } = build(ticks, interval);
        accepted.forEach((t, i) => {
          expect(calendar.isInSession(t.time)).toBe(true);
          if (i > 0) expect(t.time).toBeGreaterThanOrEqual((accepted[i - 1] as Tick).time);
        });
        const inOrder = [...ticks].sort((a, b) => a.time - b.time);
        const result = build(inOrder, interval);
        expect(result.accepted).toEqual(inOrder.filter((t) => calendar.isInSession(t.time)));
      }),
    );
  });
});
