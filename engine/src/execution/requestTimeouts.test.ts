import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Subscription } from 'rxjs';
import type { SchedulerAction, SchedulerLike } from 'rxjs';
import { RequestTimeout, RequestTimeouts } from './requestTimeouts';
import { VirtualTime } from './virtualTime';

type Outcome = { at: number; result: 'value' | 'error' | 'timeout' };

/** Records when and how a raced call settled. */
function watch(
  time: VirtualTime,
  raced: Promise<unknown>,
  outcomes: Map<number, Outcome>,
  key: number,
): void {
  raced.then(
    () => outcomes.set(key, { at: time.now(), result: 'value' }),
    (error: unknown) =>
      outcomes.set(key, { at: time.now(), result: error instanceof RequestTimeout ? 'timeout' : 'error' }),
  );
}

describe('RequestTimeouts', () => {
  it('fails each unanswered call at exactly its own deadline, whenever it started', async () => {
    const time = new VirtualTime(1_000);
    const timeouts = new RequestTimeouts(time.scheduler, 500);
    const outcomes = new Map<number, Outcome>();
    watch(time, timeouts.race(new Promise(() => undefined)), outcomes, 0);
    await time.advance(120);
    watch(time, timeouts.race(new Promise(() => undefined)), outcomes, 1);
    await time.advance(379);
    expect(outcomes.size).toBe(0);
    await time.advance(1);
    expect(outcomes.get(0)).toEqual({ at: 1_500, result: 'timeout' });
    expect(outcomes.has(1)).toBe(false);
    await time.advance(120);
    expect(outcomes.get(1)).toEqual({ at: 1_620, result: 'timeout' });
    expect(timeouts.pending).toBe(0);
  });

  it('passes on a reply or failure that comes first, and ignores a reply after the deadline', async () => {
    const time = new VirtualTime(0);
    const timeouts = new RequestTimeouts(time.scheduler, 1_000);
    const later = (ms: number, fail = false): Promise<string> =>
      new Promise((resolve, reject) =>
        time.scheduler.schedule(() => (fail ? reject(new Error('refused')) : resolve('ok')), ms),
      );
    await expect(Promise.all([timeouts.race(later(10)), time.advance(10)])).resolves.toEqual([
      'ok',
      undefined,
    ]);
    const failed = expect(timeouts.race(later(20, true))).rejects.toThrow('refused');
    await time.advance(20);
    await failed;
    const late = expect(timeouts.race(later(1_500))).rejects.toBeInstanceOf(RequestTimeout);
    await time.advance(1_500);
    await late;
  });

  it('holds one scheduler action however many calls are open, and none once all have settled', async () => {
    const time = new VirtualTime(0);
    const timeouts = new RequestTimeouts(time.scheduler, 5_000);
    const replies: (() => void)[] = [];
    const raced = Array.from({ length: 1_000 }, () =>
      timeouts.race(new Promise<void>((resolve) => replies.push(resolve))),
    );
    expect(time.scheduler.actions).toHaveLength(1);
    expect(timeouts.pending).toBe(1_000);
    for (const reply of replies) reply();
    await Promise.all(raced);
    expect(timeouts.pending).toBe(0);
    expect(time.scheduler.actions).toHaveLength(0);
  });

  it('agrees with one timer per call for any start times and reply delays (virtual time)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            start: fc.integer({ min: 0, max: 3_000 }),
            reply: fc.option(fc.integer({ min: 0, max: 2_000 }), { nil: undefined }),
            fails: fc.boolean(),
          }),
          { minLength: 1, maxLength: 30 },
        ),
        async (calls) => {
          const ms = 1_000;
          const time = new VirtualTime(0);
          const timeouts = new RequestTimeouts(time.scheduler, ms);
          const outcomes = new Map<number, Outcome>();
          const ordered = calls.map((call, i) => ({ ...call, i })).sort((a, b) => a.start - b.start);
          let clock = 0;
          for (const call of ordered) {
            await time.advance(call.start - clock);
            clock = call.start;
            const { reply, fails } = call;
            const pending = new Promise<void>((resolve, reject) => {
              if (reply === undefined) return;
              time.scheduler.schedule(() => (fails ? reject(new Error('x')) : resolve()), reply);
            });
            watch(time, timeouts.race(pending), outcomes, call.i);
          }
          await time.advance(5_000);
          for (const [i, call] of calls.entries()) {
            // A reply at the deadline itself loses: the deadline fires in the same instant, before promise
            // callbacks run (as it did with one timer per call).
            const expected: Outcome =
              call.reply !== undefined && call.reply < ms
                ? { at: call.start + call.reply, result: call.fails ? 'error' : 'value' }
                : { at: call.start + ms, result: 'timeout' };
            expect(outcomes.get(i)).toEqual(expected);
          }
          expect(time.scheduler.actions).toHaveLength(0);
        },
      ),
      { numRuns: 80 },
    );
  });

  it('does not postpone a timeout when the wall clock is stepped back while calls wait', async () => {
    // Timers run on elapsed time (as setInterval does) while now() is a wall clock the test can step.
    let wall = 1_000_000;
    const timers: { due: number; run: () => void; sub: Subscription }[] = [];
    let elapsed = 0;
    const scheduler: SchedulerLike = {
      now: () => wall,
      schedule<T>(work: (this: SchedulerAction<T>, state?: T) => void, delay = 0): Subscription {
        const sub = new Subscription();
        const action = {
          schedule: () => sub,
          unsubscribe: () => sub.unsubscribe(),
        } as unknown as SchedulerAction<T>;
        timers.push({ due: elapsed + delay, run: () => work.call(action), sub });
        return sub;
      },
    };
    const runFor = (ms: number): void => {
      elapsed += ms;
      wall += ms;
      for (let timer = timers.shift(); timer !== undefined; timer = timers.shift()) {
        if (timer.due > elapsed) {
          timers.unshift(timer);
          break;
        }
        if (!timer.sub.closed) timer.run();
      }
    };
    const timeouts = new RequestTimeouts(scheduler, 500);
    const first = timeouts.race(new Promise(() => undefined));
    runFor(100);
    const second = timeouts.race(new Promise(() => undefined));
    wall -= 3_600_000; // an NTP step back by an hour
    const failures: string[] = [];
    first.catch(() => failures.push('first'));
    second.catch(() => failures.push('second'));
    runFor(400);
    await Promise.resolve();
    expect(failures).toEqual(['first']);
    runFor(100);
    await Promise.resolve();
    expect(failures).toEqual(['first', 'second']);
  });
});
