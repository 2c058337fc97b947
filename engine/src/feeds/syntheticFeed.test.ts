import { describe, expect, it } from 'vitest';
import type { Quote, Tick } from '../core/types';
import { createVirtualClock } from '../clock/virtualClock';
import type { FeedHealth } from './feedSource';
import { createSyntheticFeed } from './syntheticFeed';
import type { TickOutlet } from './syntheticFeed';

const T0 = Date.parse('2026-11-23T09:15:00+05:30');
const SYMBOL = 'NIFTY01DEC2624000CE';

function feedWithOutlet(staleAfterMs?: number) {
  const clock = createVirtualClock(T0);
  let outlet: TickOutlet | null = null;
  const calls: string[] = [];
  const feed = createSyntheticFeed('replay', { scheduler: clock.scheduler, staleAfterMs }, (o) => {
    outlet = o;
    return { start: () => calls.push('start'), stop: () => calls.push('stop') };
  });
  if (!outlet) throw new Error('the loop was not built');
  return { clock, feed, outlet: outlet as TickOutlet, calls };
}

describe('createSyntheticFeed', () => {
  it('emits ticks, remembers the last and quotes subscribed options on each tick', () => {
    const { feed, outlet } = feedWithOutlet();
    const ticks: Tick[] = [];
    const quotes: Quote[] = [];
    feed.ticks$.subscribe((t) => ticks.push(t));
    feed.quotes$.subscribe((q) => quotes.push(q));
    expect(outlet.last()).toBeNull();
    feed.subscribe(SYMBOL);
    expect(quotes).toHaveLength(0); // no price yet, nothing to quote
    const tick = { time: T0, price: 24_000, volume: 0 };
    outlet.emit(tick);
    expect(ticks).toEqual([tick]);
    expect(outlet.last()).toBe(tick);
    expect(quotes.map((q) => q.symbol)).toEqual([SYMBOL]);
    feed.unsubscribe(SYMBOL);
    outlet.emit({ time: T0 + 1_000, price: 24_001, volume: 0 });
    expect(quotes).toHaveLength(1);
  });

  it('is simulated, keeps its kind, delegates start/stop to the loop and shares health on its scheduler', () => {
    const { clock, feed, outlet, calls } = feedWithOutlet(2_000);
    expect(feed.kind).toBe('replay');
    expect(feed.simulated).toBe(true);
    feed.start();
    feed.stop();
    expect(calls).toEqual(['start', 'stop']);
    const a: FeedHealth[] = [];
    const b: FeedHealth[] = [];
    feed.health$.subscribe((h) => a.push(h));
    outlet.emit({ time: T0, price: 24_000, volume: 0 });
    feed.health$.subscribe((h) => b.push(h));
    clock.flush();
    expect(a.map((h) => [h.status, h.lastTickAt])).toEqual([
      ['down', null],
      ['live', T0],
      ['stale', T0],
      ['down', T0],
    ]);
    // A late subscriber gets the current status at once (shareReplay), then the same changes.
    expect(b.map((h) => h.status)).toEqual(['live', 'stale', 'down']);
  });
});
