import { describe, expect, it } from 'vitest';
import { take, toArray, type SchedulerLike } from 'rxjs';
import type { Quote, Tick } from '../core/types';
import { alwaysOpenCalendar } from '../calendar/alwaysOpenCalendar';
import { istDateTime } from '../calendar/ist';
import { createVirtualClock } from '../clock/virtualClock';
import { istTestCalendar } from '../candles/testCalendars';
import { createSimulatedFeed } from './simulatedFeed';
import type { FeedHealth } from './feedSource';

const OPEN = istDateTime('2026-11-23', '09:15');

function run(seed: number | string, count: number, start = OPEN) {
  const clock = createVirtualClock(start);
  const feed = createSimulatedFeed({ seed, scheduler: clock.scheduler, calendar: alwaysOpenCalendar });
  const ticks: Tick[] = [];
  feed.ticks$.pipe(take(count)).subscribe({ next: (t) => ticks.push(t), complete: () => feed.stop() });
  feed.start();
  clock.flush();
  return ticks;
}

describe('createSimulatedFeed', () => {
  it('is deterministic for a seed and a virtual scheduler', () => {
    expect(run(42, 500)).toEqual(run(42, 500));
    expect(run('demo', 50)).toEqual(run('demo', 50));
    expect(run(42, 50)).not.toEqual(run(43, 50));
  });

  it('ticks once per virtual second from the start, with index volume 0', () => {
    const ticks = run(7, 5);
    expect(ticks.map((t) => t.time - OPEN)).toEqual([0, 1_000, 2_000, 3_000, 4_000]);
    expect(ticks.every((t) => t.volume === 0)).toBe(true);
  });

  it('keeps to a one-second grid when every timer fires late, instead of drifting by the lateness', () => {
    const clock = createVirtualClock(OPEN);
    const LAG = 30; // each timer fires 30 ms after it was asked to, like a busy real clock
    const late: SchedulerLike = {
      now: () => clock.scheduler.now(),
      schedule: ((work: () => void, delay = 0) =>
        clock.scheduler.schedule(work, delay + LAG)) as SchedulerLike['schedule'],
    };
    const feed = createSimulatedFeed({ seed: 3, scheduler: late, calendar: alwaysOpenCalendar });
    const ticks: Tick[] = [];
    feed.ticks$.pipe(take(6)).subscribe({ next: (t) => ticks.push(t), complete: () => feed.stop() });
    feed.start();
    clock.flush();
    const times = ticks.map((t) => t.time - OPEN);
    expect(times[1]! - times[0]!).toBe(1_000 + LAG); // the first late step starts the grid
    for (let i = 2; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBe(1_000);
  });

  it('starts between 24,000 and 26,000 unless told otherwise', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const first = run(seed, 1)[0]?.price ?? 0;
      expect(first).toBeGreaterThanOrEqual(24_000);
      expect(first).toBeLessThan(26_000);
    }
    const clock = createVirtualClock(OPEN);
    const feed = createSimulatedFeed({
      seed: 1,
      startPrice: 25_123.45,
      scheduler: clock.scheduler,
      calendar: alwaysOpenCalendar,
    });
    let first: Tick | undefined;
    feed.ticks$.pipe(take(1)).subscribe((t) => {
      first = t;
      feed.stop();
    });
    feed.start();
    clock.flush();
    expect(first?.price).toBe(25_123.45);
  });

  it('moves like an index over a session: plausible daily range and per-second steps', () => {
    const ticks = run(11, 22_500); // one 6h15m session
    const prices = ticks.map((t) => t.price);
    const high = Math.max(...prices);
    const low = Math.min(...prices);
    const first = prices[0] ?? 0;
    expect((high - low) / first).toBeGreaterThan(0.001);
    expect((high - low) / first).toBeLessThan(0.06);
    const biggestStep = Math.max(...prices.slice(1).map((p, i) => Math.abs(p - (prices[i] ?? p))));
    expect(biggestStep / first).toBeLessThan(0.02);
  });

  it('produces ticks only in session and follows the calendar across days', () => {
    const clock = createVirtualClock(istDateTime('2026-11-20', '15:29'));
    const feed = createSimulatedFeed({ seed: 3, scheduler: clock.scheduler, calendar: istTestCalendar() });
    const ticks: Tick[] = [];
    feed.ticks$.pipe(take(62)).subscribe({ next: (t) => ticks.push(t), complete: () => feed.stop() });
    feed.start();
    clock.flush();
    // 60 ticks on Friday 15:29–15:30, then Monday's first two after the weekend
    expect(ticks[59]?.time).toBe(istDateTime('2026-11-20', '15:29') + 59_000);
    expect(ticks[60]?.time).toBe(istDateTime('2026-11-23', '09:15'));
    expect(ticks[61]?.time).toBe(istDateTime('2026-11-23', '09:15') + 1_000);
  });

  it('quotes subscribed options at once and on every tick, snapped to 0.05, until unsubscribed', () => {
    const clock = createVirtualClock(OPEN);
    const feed = createSimulatedFeed({
      seed: 5,
      startPrice: 24_000,
      scheduler: clock.scheduler,
      calendar: alwaysOpenCalendar,
    });
    const quotes: Quote[] = [];
    feed.quotes$.subscribe((q) => quotes.push(q));
    let ticks = 0;
    feed.ticks$.subscribe(() => {
      ticks += 1;
      if (ticks === 3) feed.subscribe('NIFTY01DEC2624000PE');
      if (ticks === 5) feed.unsubscribe('NIFTY01DEC2623950CE');
      if (ticks === 10) feed.stop();
    });
    feed.subscribe('NIFTY01DEC2623950CE');
    expect(quotes).toEqual([]); // nothing to price before the first tick
    feed.start();
    clock.flush();
    const ce = quotes.filter((q) => q.symbol === 'NIFTY01DEC2623950CE');
    const pe = quotes.filter((q) => q.symbol === 'NIFTY01DEC2624000PE');
    expect(ce).toHaveLength(4); // ticks 1–4
    expect(pe).toHaveLength(1 + 8); // on subscribe (tick 3), then ticks 3–10
    for (const q of quotes) {
      for (const price of [q.bid, q.ask, q.ltp])
        expect(Math.abs(price * 20 - Math.round(price * 20))).toBeLessThan(1e-9);
      expect(q.bid).toBeLessThan(q.ask);
      expect(q.ltp).toBeGreaterThanOrEqual(q.bid);
      expect(q.ltp).toBeLessThanOrEqual(q.ask);
    }
    // an ITM call eight days out is worth more than its intrinsic value of ~50 points
    expect(ce[0]?.ltp).toBeGreaterThan(50);
    expect(ce[0]?.ltp).toBeLessThan(600);
    expect(() => feed.subscribe('NIFTY26D0124000CE')).toThrow('not a canonical option symbol');
  });

  it('reports health live while ticking and down after stop', () => {
    const clock = createVirtualClock(OPEN);
    const feed = createSimulatedFeed({ seed: 5, scheduler: clock.scheduler, calendar: alwaysOpenCalendar });
    const health: FeedHealth[] = [];
    feed.health$.pipe(take(4), toArray()).subscribe((h) => health.push(...h));
    let ticks = 0;
    feed.ticks$.subscribe(() => {
      ticks += 1;
      if (ticks === 3) feed.stop();
    });
    feed.start();
    clock.flush();
    expect(health).toEqual([
      { status: 'down', lastTickAt: null },
      { status: 'live', lastTickAt: OPEN },
      { status: 'stale', lastTickAt: OPEN + 2_000 },
      { status: 'down', lastTickAt: OPEN + 2_000 },
    ]);
  });
});

describe('createSimulatedFeed before the open', () => {
  it('wakes at exactly 09:15:00 IST when started early in the morning', () => {
    const clock = createVirtualClock(istDateTime('2026-11-23', '07:03') + 17_345);
    const feed = createSimulatedFeed({ seed: 3, scheduler: clock.scheduler, calendar: istTestCalendar() });
    const times: number[] = [];
    feed.ticks$.pipe(take(2)).subscribe({ next: (t) => times.push(t.time), complete: () => feed.stop() });
    feed.start();
    clock.flush();
    expect(times).toEqual([istDateTime('2026-11-23', '09:15'), istDateTime('2026-11-23', '09:15') + 1_000]);
  });
});
