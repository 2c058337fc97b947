import { describe, expect, it } from 'vitest';
import { interval, map, take, timer } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { createScaledScheduler } from './scaledScheduler';
import { createVirtualClock } from './virtualClock';

const START = Date.UTC(2026, 10, 23, 3, 45); // 09:15 IST

function makeTestScheduler(): TestScheduler {
  return new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
}

describe('createScaledScheduler', () => {
  it('starts at startAt and runs speed times faster than the base clock', () => {
    const base = makeTestScheduler();
    base.run(({ cold, expectObservable }) => {
      const clock = createScaledScheduler({ speed: 60, startAt: START, base });
      expect(clock.now()).toBe(START);
      const readings$ = cold('1s a 999ms b|').pipe(map(() => clock.now() - START));
      // 1 real second is one virtual minute at speed 60
      expectObservable(readings$).toBe('1s a 999ms b|', { a: 60_000, b: 120_000 });
    });
  });

  it('divides scheduled delays by the speed', () => {
    const base = makeTestScheduler();
    base.run(({ expectObservable }) => {
      const clock = createScaledScheduler({ speed: 60, startAt: START, base });
      expectObservable(timer(60_000, clock)).toBe('1000ms (a|)', { a: 0 });
    });
  });

  it('scales delays of work that reschedules itself (interval)', () => {
    const base = makeTestScheduler();
    base.run(({ expectObservable }) => {
      const clock = createScaledScheduler({ speed: 60, startAt: START, base });
      const minutes$ = interval(60_000, clock).pipe(
        take(3),
        map(() => (clock.now() - START) / 60_000),
      );
      expectObservable(minutes$).toBe('1000ms a 999ms b 999ms (c|)', { a: 1, b: 2, c: 3 });
    });
  });

  it('cancels scheduled work when the returned subscription is unsubscribed', () => {
    const base = makeTestScheduler();
    let ran = 0;
    base.run(({ flush }) => {
      const clock = createScaledScheduler({ speed: 10, base });
      const subscription = clock.schedule(() => {
        ran += 1;
      }, 1_000);
      subscription.unsubscribe();
      flush();
    });
    expect(ran).toBe(0);
  });

  it('defaults startAt to the base clock so speed 1 is the base clock itself', () => {
    const base = makeTestScheduler();
    base.run(({ cold, expectObservable }) => {
      const clock = createScaledScheduler({ speed: 1, base });
      expectObservable(cold('5ms a|').pipe(map(() => clock.now()))).toBe('5ms a|', { a: 5 });
    });
  });

  it('converts virtual durations to real delays', () => {
    const clock = createScaledScheduler({ speed: 60, startAt: START, base: makeTestScheduler() });
    expect(clock.toRealDelay(60_000)).toBe(1_000);
    expect(clock.toRealDelay(-5)).toBe(0);
  });

  it.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY])('rejects speed %s', (speed) => {
    expect(() => createScaledScheduler({ speed })).toThrow(RangeError);
  });
});

describe('createVirtualClock', () => {
  it('shows epoch time and advances only when flushed', () => {
    const clock = createVirtualClock(START);
    const seen: number[] = [];
    interval(60_000, clock.scheduler)
      .pipe(take(3))
      .subscribe(() => seen.push(clock.scheduler.now()));
    expect(seen).toEqual([]);
    clock.flush();
    expect(seen).toEqual([START + 60_000, START + 120_000, START + 180_000]);
  });
});
