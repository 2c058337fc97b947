import { describe, expect, it } from 'vitest';
import { TestScheduler } from 'rxjs/testing';
import { createLatestThrottle } from './throttle';

describe('createLatestThrottle', () => {
  it('sends the first value at once, then only the newest per period; cancel drops a waiting value', () => {
    const scheduler = new TestScheduler(() => undefined);
    const sent: Array<[number, string]> = [];
    const throttle = createLatestThrottle<string>({
      periodMs: 100,
      scheduler,
      emit: (v) => sent.push([scheduler.now(), v]),
    });
    scheduler.schedule(() => throttle.push('a'), 0);
    scheduler.schedule(() => throttle.push('b'), 10);
    scheduler.schedule(() => throttle.push('c'), 50);
    scheduler.schedule(() => throttle.push('d'), 150);
    scheduler.schedule(() => throttle.cancel(), 160);
    scheduler.schedule(() => throttle.push('e'), 400);
    scheduler.flush();
    expect(sent).toEqual([
      [0, 'a'],
      [100, 'c'],
      [400, 'e'],
    ]);
  });
});
