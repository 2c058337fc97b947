import type { SchedulerLike } from 'rxjs';
import type { RateWindow } from '@optionpilot/engine';

/** Runs calls so that, per window, at most `limit` of them fall within `windowMs` as the broker counts them. */
export interface SendPacer {
  run<T>(call: () => Promise<T>): Promise<T>;
}

/**
 * Paces calls by when they *finished*, not when they were allowed to start. The broker counts a call when it
 * arrives, somewhere between our start and the answer; connection setup or a loaded machine can delay the first
 * calls of a burst by a hundred milliseconds or more while later ones go out at once, so start times spaced a
 * second apart can arrive closer together. A call may start only when, in every window, fewer than `limit` calls
 * have finished less than `windowMs` ago or are still running — then call i arrives at least `windowMs` after
 * call i − limit arrived, whatever the delays.
 */
export function createSendPacer(windows: readonly RateWindow[], scheduler: SchedulerLike): SendPacer {
  const inUse = windows.map(() => 0);
  const queue: Array<() => void> = [];

  const hasRoom = (): boolean => windows.every((w, i) => (inUse[i] as number) < w.limit);
  const drain = (): void => {
    while (queue.length > 0 && hasRoom()) {
      for (let i = 0; i < windows.length; i += 1) inUse[i] = (inUse[i] as number) + 1;
      (queue.shift() as () => void)();
    }
  };
  const release = (): void => {
    windows.forEach((w, i) => {
      scheduler.schedule(() => {
        inUse[i] = (inUse[i] as number) - 1;
        drain();
      }, w.windowMs);
    });
  };

  return {
    async run(call) {
      await new Promise<void>((resolve) => {
        queue.push(resolve);
        drain();
      });
      try {
        return await call();
      } finally {
        release();
      }
    },
  };
}
