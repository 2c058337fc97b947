import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { NEVER, concat, from, map, mergeMap, timer } from 'rxjs';
import type { Observable } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import type { Candle, IntervalMinutes, SessionCalendar, Tick } from '../core/types';
import { CandleBuilder } from './candleBuilder';
import { frameCalendar, ist, istTestCalendar, offsetScheduler } from './testCalendars';
import { toCandles } from './toCandles';

const MIN = 60_000;

const newScheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));

const tick = (time: number, price: number, volume = 0): Tick => ({ time, price, volume });

/** Emits each tick at the virtual instant `tick.time - base`; stays open unless `complete`. */
function replay(ticks: readonly Tick[], base = 0, complete = false): Observable<Tick> {
  const ticks$ = from(ticks).pipe(mergeMap((t) => timer(t.time - base).pipe(map(() => t))));
  return complete ? ticks$ : concat(ticks$, NEVER);
}

const candle = (
  time: number,
  ohlc: [number, number, number, number],
  extra: Partial<Candle> = {},
): Candle => ({
  interval: 1,
  time,
  open: ohlc[0],
  high: ohlc[1],
  low: ohlc[2],
  close: ohlc[3],
  volume: 0,
  closed: true,
  ...extra,
});

describe('toCandles (marble)', () => {
  const calendar = frameCalendar();

  it('closes a bucket at its end on the scheduler when no further tick arrives', () => {
    const ts = newScheduler();
    ts.run(({ expectObservable }) => {
      const ticks = [tick(0, 100, 1), tick(10_000, 105, 2), tick(30_000, 98, 3)];
      const out$ = replay(ticks).pipe(toCandles({ interval: 1, calendar, scheduler: ts }));
      expectObservable(out$).toBe('1m a', { a: candle(0, [100, 105, 98, 98], { volume: 6 }) });
    });
  });

  it('a tick exactly on the boundary opens the next candle; the previous closes at that instant', () => {
    const ts = newScheduler();
    ts.run(({ expectObservable }) => {
      const ticks = [tick(0, 100), tick(59_999, 101), tick(60_000, 102)];
      const out$ = replay(ticks).pipe(toCandles({ interval: 1, calendar, scheduler: ts }));
      expectObservable(out$).toBe('1m a 59999ms b', {
        a: candle(0, [100, 101, 100, 101]),
        b: candle(60_000, [102, 102, 102, 102]),
      });
    });
  });

  it('drops a tick older than the last accepted one and a late tick for an already closed bucket', () => {
    const ts = newScheduler();
    ts.run(({ cold, expectObservable }) => {
      // frames: a@0 (t=0), b@20s (t=20s), late@30s (t=10s), stale@61s (t=59s: its bucket closed at 60s)
      const source$ = cold('a 19999ms b 9999ms c 30999ms d', {
        a: tick(0, 100),
        b: tick(20_000, 103),
        c: tick(10_000, 999),
        d: tick(59_000, 1),
      });
      const out$ = source$.pipe(toCandles({ interval: 1, calendar, scheduler: ts }));
      expectObservable(out$).toBe('1m a', { a: candle(0, [100, 103, 100, 103]) });
    });
  });

  it('intervals without ticks produce no candle', () => {
    const ts = newScheduler();
    ts.run(({ expectObservable }) => {
      const ticks = [tick(5_000, 100), tick(3 * MIN + 5_000, 110)];
      const out$ = replay(ticks).pipe(toCandles({ interval: 1, calendar, scheduler: ts }));
      expectObservable(out$).toBe('1m a 179999ms b', {
        a: candle(0, [100, 100, 100, 100]),
        b: candle(3 * MIN, [110, 110, 110, 110]),
      });
    });
  });

  it('emits forming updates after every accepted tick when asked', () => {
    const ts = newScheduler();
    ts.run(({ expectObservable }) => {
      const ticks = [tick(0, 100, 1), tick(1_000, 101, 1), tick(2_000, 99, 1)];
      const out$ = replay(ticks).pipe(toCandles({ interval: 1, calendar, scheduler: ts, emitForming: true }));
      expectObservable(out$).toBe('a 999ms b 999ms c 57999ms d', {
        a: candle(0, [100, 100, 100, 100], { volume: 1, closed: false }),
        b: candle(0, [100, 101, 100, 101], { volume: 2, closed: false }),
        c: candle(0, [100, 101, 99, 99], { volume: 3, closed: false }),
        d: candle(0, [100, 101, 99, 99], { volume: 3 }),
      });
    });
  });

  it('closes the forming candle when the source completes, and cancels its timer', () => {
    const ts = newScheduler();
    ts.run(({ cold, expectObservable }) => {
      const source$ = cold('a 9999ms |', { a: tick(0, 100) });
      const out$ = source$.pipe(toCandles({ interval: 1, calendar, scheduler: ts }));
      expectObservable(out$).toBe('10s (a|)', { a: candle(0, [100, 100, 100, 100]) });
    });
  });

  it('unsubscribing cancels the pending close', () => {
    const ts = newScheduler();
    ts.run(({ expectObservable }) => {
      const out$ = replay([tick(0, 100)]).pipe(toCandles({ interval: 1, calendar, scheduler: ts }));
      expectObservable(out$, '^ 30s !').toBe('');
    });
  });

  it('only in-session ticks form candles (session 10m–20m of each hour)', () => {
    const ts = newScheduler();
    ts.run(({ expectObservable }) => {
      const gated = frameCalendar({ openMs: 10 * MIN, closeMs: 20 * MIN });
      const ticks = [tick(9 * MIN, 1), tick(10 * MIN + 1, 2), tick(20 * MIN, 3)];
      const out$ = replay(ticks).pipe(toCandles({ interval: 5, calendar: gated, scheduler: ts }));
      expectObservable(out$).toBe('15m a', { a: candle(10 * MIN, [2, 2, 2, 2], { interval: 5 }) });
    });
  });

  it('on real IST dates: 5-minute candles close at 09:20 and 15:30, nothing before 09:15 or from 15:30', () => {
    const calendar = istTestCalendar();
    const base = ist('2026-01-05', '09:00');
    const ts = newScheduler();
    ts.run(({ expectObservable }) => {
      const scheduler = offsetScheduler(ts, base);
      const ticks = [
        tick(ist('2026-01-05', '09:14:59'), 1),
        tick(ist('2026-01-05', '09:15'), 2),
        tick(ist('2026-01-05', '09:19:59'), 3),
        tick(ist('2026-01-05', '15:27'), 4),
        tick(ist('2026-01-05', '15:30'), 5),
      ];
      const out$ = replay(ticks, base).pipe(toCandles({ interval: 5, calendar, scheduler }));
      // 09:20 is 20 minutes after the base; 15:30 is 390 minutes (23,400,000 ms) after it.
      expectObservable(out$).toBe('20m a 22199999ms b', {
        a: candle(ist('2026-01-05', '09:15'), [2, 3, 2, 3], { interval: 5 }),
        b: candle(ist('2026-01-05', '15:25'), [4, 4, 4, 4], { interval: 5 }),
      });
    });
  });

  it('property: the operator on virtual time emits the same closed candles as the builder, each at its bucket end', () => {
    const calendar: SessionCalendar = frameCalendar({
      dayMs: 120 * MIN,
      openMs: 15 * MIN,
      closeMs: 100 * MIN,
    });
    const ticksArb = fc
      .array(
        fc.record({ time: fc.integer({ min: 0, max: 400 * MIN }), price: fc.integer({ min: 1, max: 1000 }) }),
        { maxLength: 80 },
      )
      .map((raw) => raw.sort((a, b) => a.time - b.time).map((r) => tick(r.time, r.price, 1)));
    fc.assert(
      fc.property(ticksArb, fc.constantFrom<IntervalMinutes>(1, 3, 5, 15), (ticks, interval) => {
        const builder = new CandleBuilder({ interval, calendar });
        const expected: Candle[] = [];
        for (const t of ticks) {
          const closed = builder.push(t);
          if (closed) expected.push(closed);
        }
        const last = builder.flush();
        if (last) expected.push(last);

        const emitted: { at: number; candle: Candle }[] = [];
        const ts = newScheduler();
        ts.run(() => {
          replay(ticks)
            .pipe(toCandles({ interval, calendar, scheduler: ts }))
            .subscribe((c) => emitted.push({ at: ts.now(), candle: c }));
        });
        expect(emitted.map((e) => e.candle)).toEqual(expected);
        for (const e of emitted) expect(e.at).toBe(e.candle.time + interval * MIN);
      }),
    );
  });
});
