import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { NEVER, concat, filter, from, map, mergeMap, timer } from 'rxjs';
import type { Observable } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import type { IntervalMinutes, Tick } from '../core/types';
import { frameCalendar } from '../candles/testCalendars';
import { breakoutSignals } from './breakoutSignals';
import { DEFAULT_STRATEGY_PARAMS } from './params';
import type { StrategyParams } from './params';
import type { PipelineEvent } from './signal';
import { SignalPipeline } from './signalPipeline';

const MIN = 60_000;
const calendar = frameCalendar();
/** One qualifying candle is a setup, so short marbles can exercise arming; trigger = high + 2. */
const oneCandle: StrategyParams = { ...DEFAULT_STRATEGY_PARAMS, consecutiveCandles: 1, minMovement: 5 };

const newScheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
const tick = (time: number, price: number): Tick => ({ time, price, volume: 0 });

/** Emits each tick at the virtual instant `tick.time`; stays open unless `complete`. */
function replay(ticks: readonly Tick[], complete = false): Observable<Tick> {
  const ticks$ = from(ticks).pipe(mergeMap((t) => timer(t.time).pipe(map(() => t))));
  return complete ? ticks$ : concat(ticks$, NEVER);
}

const signalKinds = (events$: Observable<PipelineEvent>) =>
  events$.pipe(
    filter((e) => e.kind !== 'candle'),
    map((e) => e.kind),
  );

/** Runs the operator on virtual time and records every event with the instant it was emitted. */
function record(ticks: readonly Tick[], params: StrategyParams, complete = false) {
  const ts = newScheduler();
  const events: { at: number; event: PipelineEvent }[] = [];
  ts.run(() => {
    replay(ticks, complete)
      .pipe(breakoutSignals({ calendar, scheduler: ts, params }))
      .subscribe((event) => events.push({ at: ts.now(), event }));
  });
  return events;
}

describe('breakoutSignals (marble)', () => {
  // Candle 0: open 100, close 106 → setup at 1m, CALL trigger 108 armed for [1m, 2m).
  const setup = [tick(0, 100), tick(30_000, 106)];

  it('arms at the setup close and executes at the first qualifying tick inside the next interval', () => {
    const ts = newScheduler();
    ts.run(({ expectObservable }) => {
      const ticks = [...setup, tick(70_000, 107.95), tick(80_000, 108), tick(90_000, 120)];
      const out$ = replay(ticks).pipe(breakoutSignals({ calendar, scheduler: ts, params: oneCandle }));
      // The interval [1m, 2m) then forms a new 12-point setup, armed at 2m and expired at 3m.
      expectObservable(signalKinds(out$)).toBe('1m a 19999ms x 39999ms a 59999ms e', {
        a: 'armed',
        x: 'executed',
        e: 'expired',
      });
    });
  });

  it('expires at the end of the next interval when no tick qualifies, even with no tick at all', () => {
    const ts = newScheduler();
    ts.run(({ expectObservable }) => {
      const out$ = replay(setup).pipe(breakoutSignals({ calendar, scheduler: ts, params: oneCandle }));
      expectObservable(signalKinds(out$)).toBe('1m a 59999ms x', { a: 'armed', x: 'expired' });
    });
  });

  it('a tick exactly at the expiry boundary does not execute', () => {
    const ts = newScheduler();
    ts.run(({ expectObservable }) => {
      const ticks = [...setup, tick(2 * MIN, 500)];
      const out$ = replay(ticks).pipe(breakoutSignals({ calendar, scheduler: ts, params: oneCandle }));
      // 500 at 2m opens a new candle; the signal armed for [1m, 2m) expires at 2m unexecuted.
      expectObservable(signalKinds(out$)).toBe('1m a 59999ms x', { a: 'armed', x: 'expired' });
    });
  });

  it('emits candle, expiry and the next arming in order at the same instant', () => {
    const ticks = [...setup, tick(61_000, 101), tick(90_000, 107)];
    const events = record(ticks, oneCandle);
    expect(events.map(({ at, event }) => [at, event.kind])).toEqual([
      [MIN, 'candle'],
      [MIN, 'armed'],
      [2 * MIN, 'candle'],
      [2 * MIN, 'expired'],
      [2 * MIN, 'armed'],
      [3 * MIN, 'expired'],
    ]);
  });

  it('a late tick inside the armed interval never executes', () => {
    const ts = newScheduler();
    ts.run(({ cold, expectObservable }) => {
      // frames 0 and 30s form the setup; at 70s a tick of t=70s; at 71s a late tick of t=65s at 999.
      const source$ = cold('a 29999ms b 39999ms c 999ms d', {
        a: tick(0, 100),
        b: tick(30_000, 106),
        c: tick(70_000, 100),
        d: tick(65_000, 999),
      });
      const out$ = source$.pipe(breakoutSignals({ calendar, scheduler: ts, params: oneCandle }));
      expectObservable(signalKinds(out$)).toBe('1m a 59999ms x', { a: 'armed', x: 'expired' });
    });
  });

  it('ticks outside the session never execute and form no candle', () => {
    const gated = frameCalendar({ openMs: 0, closeMs: 10 * MIN });
    const ts = newScheduler();
    const kinds: string[] = [];
    ts.run(() => {
      // Setup closes at 10m = session end; the next interval [10m, 11m) lies outside the session.
      const ticks = [tick(9 * MIN, 100), tick(9 * MIN + 30_000, 106), tick(10 * MIN + 5_000, 500)];
      replay(ticks)
        .pipe(breakoutSignals({ calendar: gated, scheduler: ts, params: oneCandle }))
        .subscribe((e) => kinds.push(e.kind));
    });
    expect(kinds).toEqual(['candle', 'armed', 'expired']);
  });

  it('parameter changes from params$ take effect at the next candle close', () => {
    const ts = newScheduler();
    ts.run(({ hot, expectObservable }) => {
      // Three 6-point bullish candles; N = 3 from the start, N = 1 pushed at 90s (during candle 1).
      const ticks = [0, 1, 2].flatMap((i) => [
        tick(i * MIN, 100 + i * 6),
        tick(i * MIN + 30_000, 106 + i * 6),
      ]);
      const params$ = hot('a 89999ms b', { a: DEFAULT_STRATEGY_PARAMS, b: oneCandle });
      const out$ = replay(ticks).pipe(
        breakoutSignals({ calendar, scheduler: ts, params: DEFAULT_STRATEGY_PARAMS, params$ }),
      );
      // No signal at 1m (N = 3, one candle so far); at 2m N = 1 applies → armed (trigger 114), executed by 118
      // at 2.5m; at 3m the third candle arms again (trigger 120) and expires at 4m.
      expectObservable(signalKinds(out$)).toBe('2m a 29999ms e 29999ms a 59999ms x', {
        a: 'armed',
        e: 'executed',
        x: 'expired',
      });
    });
  });

  it('on completion closes the forming candle and expires a still-armed signal, then completes', () => {
    const ts = newScheduler();
    ts.run(({ cold, expectObservable }) => {
      const source$ = cold('a 29999ms b 39999ms |', { a: tick(0, 100), b: tick(30_000, 106) });
      const out$ = source$.pipe(
        breakoutSignals({ calendar, scheduler: ts, params: oneCandle }),
        map((e) => e.kind),
      );
      expectObservable(out$).toBe('1m (ca) 9996ms (x|)', { c: 'candle', a: 'armed', x: 'expired' });
    });
  });

  it('emits forming candles when asked and none of them when candles are off', () => {
    const ts = newScheduler();
    const kinds: string[] = [];
    ts.run(() => {
      replay(setup)
        .pipe(breakoutSignals({ calendar, scheduler: ts, params: oneCandle, emitForming: true }))
        .subscribe((e) =>
          kinds.push(e.kind === 'candle' ? (e.candle.closed ? 'closed' : 'forming') : e.kind),
        );
      replay(setup)
        .pipe(breakoutSignals({ calendar, scheduler: ts, params: oneCandle, emitCandles: false }))
        .subscribe((e) => kinds.push(e.kind));
    });
    expect(kinds).toEqual(['forming', 'forming', 'closed', 'armed', 'armed', 'expired', 'expired']);
  });

  it('property: on virtual time every event happens at its own instant, and matches the synchronous pipeline', () => {
    // A drifting random walk, dense enough (up to 150 ticks in 10 minutes) that signals also execute.
    const stepsArb = fc.array(
      fc.record({ time: fc.integer({ min: 0, max: 10 * MIN }), step: fc.integer({ min: -8, max: 8 }) }),
      { maxLength: 150 },
    );
    const ticksArb = fc.tuple(fc.integer({ min: -3, max: 3 }), stepsArb).map(([drift, raw]) => {
      let price = 1000;
      return raw
        .sort((x, y) => x.time - y.time)
        .map((r) => {
          price += r.step + drift;
          return tick(r.time, price);
        });
    });
    const paramsArb = fc.record({
      consecutiveCandles: fc.integer({ min: 1, max: 3 }),
      minMovement: fc.integer({ min: 0, max: 6 }),
      entryOffset: fc.integer({ min: 0, max: 3 }),
      interval: fc.constantFrom<IntervalMinutes>(1, 3),
    });
    fc.assert(
      fc.property(ticksArb, paramsArb, (ticks, p) => {
        const params: StrategyParams = { ...DEFAULT_STRATEGY_PARAMS, ...p };
        const live = record(ticks, params);
        const sync: PipelineEvent[] = [];
        const pipeline = new SignalPipeline({ calendar, params, onEvent: (e) => sync.push(e) });
        for (const t of ticks) pipeline.push(t);
        pipeline.finish();
        expect(live.map((e) => e.event)).toEqual(sync);
        for (const { at, event } of live) {
          if (event.kind === 'candle') expect(at).toBe(event.candle.time + params.interval * MIN);
          else if (event.kind === 'armed') expect(at).toBe(event.signal.time);
          else if (event.kind === 'expired') expect(at).toBe(event.signal.expiresAt);
          else if (event.kind === 'executed') {
            expect(at).toBe(event.signal.executedAt);
            expect(at).toBeGreaterThanOrEqual(event.signal.time);
            expect(at).toBeLessThan(event.signal.expiresAt);
          }
        }
      }),
    );
  });
});
