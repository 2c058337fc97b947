import { describe, expect, it } from 'vitest';
import { VirtualTimeScheduler } from 'rxjs';
import type { SchedulerLike } from 'rxjs';
import type { Quote, Tick } from '../core/types';
import { createSteppingClock } from '../clock/virtualClock';
import { VirtualTime } from '../execution/virtualTime';
import { parseCsvTicks } from './csvTicks';
import { createReplayFeed } from './replayFeed';

const T0 = Date.parse('2026-11-23T09:15:00+05:30');
const ticks: Tick[] = [
  { time: T0, price: 24_000, volume: 0 },
  { time: T0 + 1_000, price: 24_001, volume: 0 },
  { time: T0 + 1_000, price: 24_002, volume: 0 },
  { time: T0 + 60_000, price: 24_003, volume: 0 },
];

/** A real clock for the pace that runs only when flushed. */
function realClock(): VirtualTimeScheduler {
  return new VirtualTimeScheduler(undefined, Number.POSITIVE_INFINITY);
}

describe('createReplayFeed', () => {
  it('plays every tick at its own instant on the clock it drives and signals the end', () => {
    const pace = realClock();
    let ended = false;
    const feed = createReplayFeed({ ticks, speed: 1, pace, onEnd: () => (ended = true) });
    expect(feed.scheduler.now()).toBe(T0);
    const seen: [number, Tick][] = [];
    feed.ticks$.subscribe((t) => seen.push([feed.scheduler.now(), t]));
    feed.start();
    pace.flush();
    expect(seen).toEqual(ticks.map((t) => [t.time, t]));
    expect(ended).toBe(true);
  });

  it('paces the ticks against the real clock at SIM_SPEED', () => {
    const pace = realClock();
    const feed = createReplayFeed({ ticks, speed: 60, pace });
    const realTimes: number[] = [];
    feed.ticks$.subscribe(() => realTimes.push(pace.now()));
    feed.start();
    pace.flush();
    // virtual 0 s, 1 s, 1 s and 60 s → real 0, 16.7, 16.7 and 1,000 ms
    expect(realTimes.map((t) => Math.round(t * 10) / 10)).toEqual([0, 16.7, 16.7, 1000]);
  });

  it('pauses on stop and resumes with the next unplayed tick', () => {
    const pace = realClock();
    const feed = createReplayFeed({ ticks, speed: 1, pace });
    const prices: number[] = [];
    feed.ticks$.subscribe((t) => {
      prices.push(t.price);
      if (prices.length === 2) feed.stop();
    });
    feed.start();
    pace.flush();
    expect(prices).toEqual([24_000, 24_001]);
    feed.start();
    pace.flush();
    expect(prices).toEqual([24_000, 24_001, 24_002, 24_003]);
  });

  it('replays a parsed candle CSV and quotes subscribed options from the replayed index', () => {
    const { ticks: fromCsv } = parseCsvTicks(`timestamp,open,high,low,close\n${T0},24000,24010,23990,24005`);
    const pace = realClock();
    const feed = createReplayFeed({ ticks: fromCsv, speed: 1, pace });
    const quotes: Quote[] = [];
    feed.quotes$.subscribe((q) => quotes.push(q));
    feed.subscribe('NIFTY01DEC2624000CE');
    feed.start();
    pace.flush();
    expect(quotes.map((q) => q.time)).toEqual([T0, T0 + 15_000, T0 + 30_000, T0 + 45_000]);
    // higher index, dearer call
    expect(quotes[2]?.ltp).toBeGreaterThan(quotes[1]?.ltp ?? Infinity);
    expect(feed.kind).toBe('replay');
    expect(feed.simulated).toBe(true);
  });

  it('wakes for an action scheduled from outside while it waits for a later tick', () => {
    const pace = realClock();
    const feed = createReplayFeed({ ticks: [ticks[0] as Tick, ticks[3] as Tick], speed: 1, pace });
    const seen: string[] = [];
    feed.ticks$.subscribe((t) => seen.push(`tick @${t.time - T0} real ${pace.now()}`));
    // 10 s in, something outside the steps (a controls reload) schedules an engine deadline 5 s later.
    pace.schedule(() => {
      feed.scheduler.schedule(
        () => seen.push(`deadline @${feed.scheduler.now() - T0} real ${pace.now()}`),
        5_000,
      );
    }, 10_000);
    feed.start();
    pace.flush();
    expect(seen).toEqual(['tick @0 real 0', 'deadline @15000 real 15000', 'tick @60000 real 60000']);
  });

  it('drops and counts a tick older than the last one played, without quoting it or moving the clock back', () => {
    const pace = realClock();
    const late: Tick[] = [
      { time: T0, price: 24_000, volume: 0 },
      { time: T0 + 30_000, price: 24_030, volume: 0 },
      { time: T0 + 20_000, price: 23_000, volume: 0 },
      { time: T0 + 30_000, price: 24_031, volume: 0 },
    ];
    const feed = createReplayFeed({ ticks: late, speed: 1, pace });
    const seen: number[] = [];
    const quoted: number[] = [];
    feed.ticks$.subscribe((t) => seen.push(t.price));
    feed.quotes$.subscribe((q) => quoted.push(q.time));
    feed.subscribe('NIFTY01DEC2624000CE');
    feed.start();
    pace.flush();
    expect(seen).toEqual([24_000, 24_030, 24_031]);
    expect(feed.dropped).toBe(1);
    expect(quoted).toEqual([T0, T0 + 30_000, T0 + 30_000]);
    expect(feed.scheduler.now()).toBe(T0 + 30_000);
  });
});

// What the runtime does with the clock, reduced to its timing: each tick arms a deadline at the end of its minute
// (a candle close) and, at the first tick after a close, a deadline 20 s later (a signal's expiry); every fourth
// tick starts work (an order) that is done when the work settles and records the clock's time then (its fill).
// Everything goes to the log with the clock's time.
interface Consumer {
  onTick(tick: Tick): void;
  /** the work in flight is done */
  settled(): void;
}

function consumer(scheduler: SchedulerLike, log: string[]): Consumer {
  let closeAt = Number.NaN;
  let closes = 0;
  let armedFor = -1;
  let owed: number | null = null;
  return {
    onTick(tick) {
      log.push(`tick ${tick.price} @${scheduler.now() - T0}`);
      if (tick.price % 4 === 1) owed = tick.price;
      if (closes > armedFor) {
        armedFor = closes;
        scheduler.schedule(() => log.push(`expiry @${scheduler.now() - T0}`), 20_000);
      }
      const end = Math.floor((tick.time - T0) / 60_000 + 1) * 60_000 + T0;
      if (end !== closeAt) {
        closeAt = end;
        scheduler.schedule(() => {
          closes += 1;
          log.push(`close @${scheduler.now() - T0}`);
        }, end - scheduler.now());
      }
    },
    settled() {
      if (owed === null) return;
      log.push(`fill ${owed} @${scheduler.now() - T0}`);
      owed = null;
    },
  };
}

// Ticks every 15 s over 5 minutes, with gaps (a minute without ticks) and two at one instant.
const day: Tick[] = [0, 15, 30, 45, 60, 75, 90, 90, 180, 195, 240, 255, 270, 285, 299].map((s, i) => ({
  time: T0 + s * 1_000,
  price: 24_000 + i,
  volume: 0,
}));

/** The log of the consumer driven as the backtester drives its stepping clock. */
function backtestLog(): string[] {
  const clock = createSteppingClock(T0);
  const log: string[] = [];
  const c = consumer(clock.scheduler, log);
  for (const tick of day) {
    for (let due = clock.nextDue(); due !== undefined && due < tick.time; due = clock.nextDue()) {
      clock.advanceTo(due);
      c.settled();
    }
    clock.advanceTo(tick.time);
    c.onTick(tick);
    c.settled();
  }
  for (let due = clock.nextDue(); due !== undefined; due = clock.nextDue()) clock.advanceTo(due);
  return log;
}

/** The log of the consumer on a replay at `speed`, each step's work taking `workMs` of real time. */
async function replayLog(speed: number, workMs: number): Promise<{ log: string[]; realMs: number }> {
  const time = new VirtualTime(0);
  const log: string[] = [];
  let ended = false;
  const feed = createReplayFeed({
    ticks: day,
    speed,
    pace: time.scheduler,
    settle: () =>
      new Promise((resolve) =>
        time.scheduler.schedule(() => {
          c.settled();
          resolve(undefined);
        }, workMs),
      ),
    onEnd: () => (ended = true),
  });
  const c = consumer(feed.scheduler, log);
  feed.ticks$.subscribe((tick) => {
    // The clock never shows a time past a tick not yet delivered.
    expect(feed.scheduler.now()).toBe(tick.time);
    c.onTick(tick);
  });
  feed.start();
  await time.until(() => ended && log.includes('close @300000'), 1_000_000, speed < 100 ? 1_000 : 1);
  return { log, realMs: time.now() };
}

describe('createReplayFeed at any speed', () => {
  it('steps the clock as the backtest does: the same ticks and deadlines at the same instants at 1× and 10,000×', async () => {
    const expected = backtestLog();
    expect(expected).toContain('close @60000');
    expect(expected).toContain('close @300000');
    expect(expected).toContain('fill 24001 @15000');
    // At 10,000×, 15 s of market is 1.5 ms of real time and each step's work takes 5 ms: the clock must wait.
    const fast = await replayLog(10_000, 5);
    expect(fast.log).toEqual(expected);
    const slow = await replayLog(1, 5);
    expect(slow.log).toEqual(expected);
    // Speed paces: at 1× the five minutes take at least five minutes of real time; at 10,000× the work sets the pace.
    expect(slow.realMs).toBeGreaterThanOrEqual(299_000);
    expect(fast.realMs).toBeLessThan(1_000);
  });

  it('plays on at its pace when the work is instant', async () => {
    const fast = await replayLog(10_000, 0);
    expect(fast.log).toEqual(backtestLog());
    expect(fast.realMs).toBeLessThanOrEqual(40);
  });

  it('lets a timer the work in flight waits on fire once the work has stalled, but no tick before the work settles', async () => {
    const time = new VirtualTime(0);
    const seen: string[] = [];
    let waiting: Promise<void> | undefined;
    const feed = createReplayFeed({
      ticks: day.slice(0, 3),
      speed: 10_000,
      pace: time.scheduler,
      stallMs: 100,
      settle: () => waiting,
    });
    feed.ticks$.subscribe((tick) => {
      seen.push(`tick @${tick.time - T0}`);
      if (tick.time === T0) {
        // Work that waits 2 s of engine time (a rate limiter's slot) before it is done.
        waiting = new Promise((resolve) =>
          feed.scheduler.schedule(() => {
            seen.push(`slot @${feed.scheduler.now() - T0}`);
            waiting = undefined;
            resolve();
          }, 2_000),
        );
      }
    });
    feed.start();
    await time.advance(50);
    expect(seen).toEqual(['tick @0']);
    await time.advance(200);
    expect(seen).toEqual(['tick @0', 'slot @2000', 'tick @15000', 'tick @30000']);
  });
});
