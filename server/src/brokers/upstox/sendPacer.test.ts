import { describe, expect, it } from 'vitest';
import { VirtualTimeScheduler } from 'rxjs';
import { createSendPacer } from './sendPacer';

/** Lets pending promise callbacks run between virtual-time steps. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

async function advance(scheduler: VirtualTimeScheduler, to: number): Promise<void> {
  scheduler.schedule(() => undefined, to - scheduler.now());
  scheduler.maxFrames = to;
  scheduler.flush();
  await settle();
}

describe('createSendPacer', () => {
  it('starts the 11th call only a window after the 1st one finished, however long that took', async () => {
    const scheduler = new VirtualTimeScheduler();
    const pacer = createSendPacer([{ limit: 10, windowMs: 1_000 }], scheduler);
    const started: number[] = [];
    const finishers: Array<() => void> = [];
    for (let i = 0; i < 12; i += 1) {
      void pacer.run(
        () =>
          new Promise<void>((resolve) => {
            started.push(scheduler.now());
            finishers.push(resolve);
          }),
      );
    }
    await settle();
    expect(started).toHaveLength(10);
    // The first call is slow: it answers at 300, the others at once.
    await advance(scheduler, 300);
    for (const finish of finishers.splice(0)) finish();
    await settle();
    await advance(scheduler, 1_299);
    expect(started).toHaveLength(10);
    await advance(scheduler, 1_300);
    expect(started.slice(10)).toEqual([1_300, 1_300]);
  });

  it('releases a slot after a failed call too, and passes the failure on', async () => {
    const scheduler = new VirtualTimeScheduler();
    const pacer = createSendPacer([{ limit: 1, windowMs: 100 }], scheduler);
    await expect(pacer.run(() => Promise.reject(new Error('refused')))).rejects.toThrow('refused');
    const second = pacer.run(() => Promise.resolve('ok'));
    await advance(scheduler, 100);
    await expect(second).resolves.toBe('ok');
  });
});
