import { describe, expect, it } from 'vitest';
import { TestScheduler } from 'rxjs/testing';
import type { Tick } from '../core/types';
import { feedHealth$ } from './feedHealth';
import type { FeedHealth } from './feedSource';

const tick: Tick = { time: 0, price: 24_000, volume: 0 };

function scheduler(): TestScheduler {
  return new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
}

const down = (lastTickAt: number | null): FeedHealth => ({ status: 'down', lastTickAt });
const live = (lastTickAt: number): FeedHealth => ({ status: 'live', lastTickAt });
const stale = (lastTickAt: number): FeedHealth => ({ status: 'stale', lastTickAt });

describe('feedHealth$', () => {
  it('is down until the first tick, then live, stale and down as the silence grows', () => {
    const ts = scheduler();
    ts.run(({ hot, expectObservable }) => {
      const ticks$ = hot<Tick>('--t', { t: tick });
      const health$ = feedHealth$(ticks$, { staleAfterMs: 5, downAfterMs: 10, scheduler: ts });
      expectObservable(health$).toBe('a-b 4ms c 4ms d', {
        a: down(null),
        b: live(2),
        c: stale(2),
        d: down(2),
      });
    });
  });

  it('stays live while ticks keep arriving within the stale threshold, emitting only changes', () => {
    const ts = scheduler();
    ts.run(({ hot, expectObservable }) => {
      const ticks$ = hot<Tick>('-t 3ms t 3ms t', { t: tick });
      const health$ = feedHealth$(ticks$, { staleAfterMs: 5, downAfterMs: 10, scheduler: ts });
      // ticks at 1, 5 and 9; stale at 14, down at 19
      expectObservable(health$).toBe('ab 12ms c 4ms d', {
        a: down(null),
        b: live(1),
        c: stale(9),
        d: down(9),
      });
    });
  });

  it('recovers from stale to live on a new tick', () => {
    const ts = scheduler();
    ts.run(({ hot, expectObservable }) => {
      const ticks$ = hot<Tick>('-t 6ms t', { t: tick });
      const health$ = feedHealth$(ticks$, { staleAfterMs: 5, downAfterMs: 10, scheduler: ts });
      expectObservable(health$).toBe('ab 4ms c 1ms d 4ms e 4ms f', {
        a: down(null),
        b: live(1),
        c: stale(1),
        d: live(8),
        e: stale(8),
        f: down(8),
      });
    });
  });

  it('goes down at once when the source errors', () => {
    const ts = scheduler();
    ts.run(({ hot, expectObservable }) => {
      const ticks$ = hot<Tick>('-t-#', { t: tick });
      const health$ = feedHealth$(ticks$, { staleAfterMs: 5, downAfterMs: 10, scheduler: ts });
      expectObservable(health$).toBe('ab-(c|)', { a: down(null), b: live(1), c: down(1) });
    });
  });

  it('rejects thresholds in the wrong order', () => {
    expect(() =>
      feedHealth$(hotNever(), { staleAfterMs: 10, downAfterMs: 5, scheduler: scheduler() }),
    ).toThrow(RangeError);
  });
});

function hotNever() {
  return scheduler().createHotObservable<Tick>('-');
}
