import { VirtualTimeScheduler } from 'rxjs';
import { createScaledScheduler } from './scaledScheduler';
import type { ScaledScheduler } from './scaledScheduler';

/** A virtual clock for backtests: a scheduler whose `now()` is epoch ms and which runs only when flushed. */
export interface VirtualClock {
  readonly scheduler: ScaledScheduler;
  /** runs every scheduled action in time order, advancing the clock as it goes */
  flush(): void;
}

/** Creates a virtual clock starting at `startAt` (epoch ms); time advances only through `flush()`. */
export function createVirtualClock(startAt: number): VirtualClock {
  const base = new VirtualTimeScheduler();
  return { scheduler: createScaledScheduler({ speed: 1, startAt, base }), flush: () => base.flush() };
}
