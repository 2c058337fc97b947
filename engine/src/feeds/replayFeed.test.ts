import { describe, expect, it } from 'vitest';
import { TestScheduler } from 'rxjs/testing';
import type { Quote, Tick } from '../core/types';
import { createScaledScheduler } from '../clock/scaledScheduler';
import { createVirtualClock } from '../clock/virtualClock';
import { parseCsvTicks } from './csvTicks';
import { createReplayFeed } from './replayFeed';

const T0 = Date.parse('2026-11-23T09:15:00+05:30');
const ticks: Tick[] = [
  { time: T0, price: 24_000, volume: 0 },
  { time: T0 + 1_000, price: 24_001, volume: 0 },
  { time: T0 + 1_000, price: 24_002, volume: 0 },
  { time: T0 + 60_000, price: 24_003, volume: 0 },
];

describe('createReplayFeed', () => {
  it('plays every tick at its own time on a virtual clock and signals the end', () => {
    const clock = createVirtualClock(T0);
    let ended = false;
    const feed = createReplayFeed({ ticks, scheduler: clock.scheduler, onEnd: () => (ended = true) });
    const seen: [number, Tick][] = [];
    feed.ticks$.subscribe((t) => seen.push([clock.scheduler.now(), t]));
    feed.start();
    clock.flush();
    expect(seen).toEqual(ticks.map((t) => [t.time, t]));
    expect(ended).toBe(true);
  });

  it('plays faster on a scaled clock (live replay at SIM_SPEED)', () => {
    const ts = new TestScheduler((a, b) => expect(a).toEqual(b));
    const realTimes: number[] = [];
    ts.run(({ flush }) => {
      const scheduler = createScaledScheduler({ speed: 60, startAt: T0, base: ts });
      const feed = createReplayFeed({ ticks, scheduler });
      feed.ticks$.subscribe(() => realTimes.push(ts.now()));
      feed.start();
      flush();
    });
    // virtual 0 s, 1 s, 1 s and 60 s → real 0, 16.7, 16.7 and 1,000 ms
    expect(realTimes.map((t) => Math.round(t * 10) / 10)).toEqual([0, 16.7, 16.7, 1000]);
  });

  it('can shift a recorded day onto a clock that shows today', () => {
    const today = T0 + 7 * 24 * 3_600_000;
    const clock = createVirtualClock(today);
    const feed = createReplayFeed({ ticks, scheduler: clock.scheduler, shiftToNow: true });
    const times: number[] = [];
    feed.ticks$.subscribe((t) => times.push(t.time));
    feed.start();
    clock.flush();
    expect(times).toEqual(ticks.map((t) => t.time - T0 + today));
  });

  it('pauses on stop and resumes with the next unplayed tick', () => {
    const clock = createVirtualClock(T0);
    const feed = createReplayFeed({ ticks, scheduler: clock.scheduler });
    const prices: number[] = [];
    feed.ticks$.subscribe((t) => {
      prices.push(t.price);
      if (prices.length === 2) feed.stop();
    });
    feed.start();
    clock.flush();
    expect(prices).toEqual([24_000, 24_001]);
    feed.start();
    clock.flush();
    expect(prices).toEqual([24_000, 24_001, 24_002, 24_003]);
  });

  it('replays a parsed candle CSV and quotes subscribed options from the replayed index', () => {
    const { ticks: fromCsv } = parseCsvTicks(`timestamp,open,high,low,close\n${T0},24000,24010,23990,24005`);
    const clock = createVirtualClock(T0);
    const feed = createReplayFeed({ ticks: fromCsv, scheduler: clock.scheduler });
    const quotes: Quote[] = [];
    feed.quotes$.subscribe((q) => quotes.push(q));
    feed.subscribe('NIFTY01DEC2624000CE');
    feed.start();
    clock.flush();
    expect(quotes.map((q) => q.time)).toEqual([T0, T0 + 15_000, T0 + 30_000, T0 + 45_000]);
    // higher index, dearer call
    expect(quotes[2]?.ltp).toBeGreaterThan(quotes[1]?.ltp ?? Infinity);
    expect(feed.kind).toBe('replay');
    expect(feed.simulated).toBe(true);
  });
});
