import { asyncScheduler } from 'rxjs';
import type { SchedulerAction, SchedulerLike, Subscription } from 'rxjs';
import { createSteppingClock } from '../clock/virtualClock';
import type { Tick } from '../core/types';
import type { FeedSource } from './feedSource';
import { createSyntheticFeed } from './syntheticFeed';
import type { SyntheticFeedOptions } from './syntheticFeed';

/** Real ms the replay waits for work in flight before letting the clock reach that work's own timers. */
export const DEFAULT_REPLAY_STALL_MS = 1_000;
/** Real ms of steps the replay runs before it lets other I/O in (a zero-delay timer on the pace clock). */
const SLICE_MS = 20;

/** Options of {@link createReplayFeed}. */
export interface ReplayFeedOptions extends Omit<SyntheticFeedOptions, 'scheduler'> {
  /** ticks in time order (the caller drops out-of-order rows, as `parseCsvTicks` does); read lazily */
  readonly ticks: Iterable<Tick>;
  /** virtual ms per real ms (`SIM_SPEED`): how fast the replay tries to go, never what it delivers */
  readonly speed: number;
  /** the real clock that paces the replay: `asyncScheduler` (default), a virtual one in tests */
  readonly pace?: SchedulerLike;
  /** where the engine clock starts (epoch ms); default the first tick's time */
  readonly startAt?: number;
  /**
   * awaited after every step of the clock (the runtime's `idle()`): the next step waits until the work a tick or
   * a deadline started has settled, as the backtester waits, so a fill happens at the instant it would in a
   * backtest however long the database takes
   */
  readonly settle?: () => Promise<unknown> | undefined;
  /**
   * real ms to wait on `settle` before the clock may move on to timers due before the next tick (work in flight
   * that waits on the engine clock, e.g. a rate limiter, would otherwise wait forever); ticks still wait.
   * Default {@link DEFAULT_REPLAY_STALL_MS}.
   */
  readonly stallMs?: number;
  /** called once when the last tick has been played */
  readonly onEnd?: () => void;
}

/** A replay feed and the engine clock it drives. */
export interface ReplayFeed extends FeedSource {
  /**
   * the engine clock: virtual time that moves only when the replay moves it, so it never passes a tick the feed
   * has not delivered, whatever the speed. Give it to the runtime, the paper broker and everything else that
   * keeps market time. Between steps it shows the paced time, short of the next tick or deadline.
   */
  readonly scheduler: SchedulerLike;
  /** ticks dropped for being older than the last one played, as the runtime drops them (not emitted, not quoted) */
  readonly dropped: number;
}

/**
 * Plays recorded ticks at `speed`× real time on an engine clock of its own, stepping that clock exactly as the
 * backtester steps its clock: every action due before a tick fires first, each at its own instant and with the
 * work it started settled; actions due at the tick's instant fire just before it; then the tick is delivered and
 * its work settles. Speed only paces those steps against the real clock (`pace`): when the engine falls behind,
 * the clock waits and then catches up, dropping nothing, so the same file gives the same signals and trades at
 * 1× and at 10,000×. After the last tick the clock runs on to whatever is still scheduled. `simulated` is true:
 * replayed prices are history, never a basis for live orders.
 */
export function createReplayFeed(options: ReplayFeedOptions): ReplayFeed {
  const { speed } = options;
  if (!Number.isFinite(speed) || speed <= 0) {
    throw new RangeError(`speed must be a positive finite number, got ${String(speed)}`);
  }
  const pace = options.pace ?? asyncScheduler;
  const stallMs = options.stallMs ?? DEFAULT_REPLAY_STALL_MS;
  const iterator = options.ticks[Symbol.iterator]();
  const pull = (): Tick | null => {
    const next = iterator.next();
    return next.done === true ? null : next.value;
  };
  // The next tick to play: pulled once and kept across stop()/start() so none is lost.
  let pending = pull();
  const clock = createSteppingClock(options.startAt ?? pending?.time ?? pace.now(), {
    onSchedule: (due) => wakeBy(due),
  });

  let running = false;
  let stepping = false;
  let endReported = false;
  // Work in flight: no tick is delivered until it settles; once `stalled`, timers before the next tick may fire.
  let settling = false;
  let stalled = false;
  // The real instant `anchorReal` shows virtual `anchorVirtual`; the pace target runs `speed`× from there.
  let anchorVirtual = 0;
  let anchorReal = 0;
  let timer: Subscription | undefined;
  let timerAt = Number.POSITIVE_INFINITY;
  let emit: (tick: Tick) => void = () => undefined;
  let lastPlayed = Number.NEGATIVE_INFINITY;
  let dropped = 0;

  const target = (): number => anchorVirtual + (pace.now() - anchorReal) * speed;

  /**
   * Between steps, with no work in flight, lets the clock show the paced time (for whoever reads or schedules from
   * outside the steps), short of the next tick and the next deadline; inside a step or while its work settles the
   * clock shows the step's instant, as in a backtest.
   */
  function catchUpClock(): void {
    if (!running || stepping || settling) return;
    const due = clock.nextDue() ?? Number.POSITIVE_INFINITY;
    const limit = pending?.time ?? Number.POSITIVE_INFINITY;
    const at = Math.min(Math.floor(target()), due - 1, limit - 1);
    if (at > clock.scheduler.now()) clock.advanceTo(at);
  }

  const scheduler: SchedulerLike = {
    now() {
      catchUpClock();
      return clock.scheduler.now();
    },
    schedule<T>(
      work: (this: SchedulerAction<T>, state?: T) => void,
      delay?: number,
      state?: T,
    ): Subscription {
      catchUpClock();
      return clock.scheduler.schedule(work, delay, state);
    },
  };

  function sleepUntil(at: number): void {
    timer?.unsubscribe();
    timerAt = at;
    timer = pace.schedule(
      () => {
        timer = undefined;
        timerAt = Number.POSITIVE_INFINITY;
        run();
      },
      Math.max(0, (at - target()) / speed),
    );
  }

  /** Something was scheduled on the engine clock between steps: wake for it if it is due before the plan. */
  function wakeBy(due: number): void {
    if (!running || stepping || (settling && !stalled)) return;
    if (due < timerAt) sleepUntil(due);
  }

  /** Starts `settle`; true when there is work to wait for (the caller stops stepping until it settles). */
  function awaitSettle(): boolean {
    const work = options.settle?.();
    if (work === undefined) return false;
    settling = true;
    stalled = false;
    const stall = pace.schedule(() => {
      stalled = true;
      run();
    }, stallMs);
    const done = (): void => {
      stall.unsubscribe();
      settling = false;
      stalled = false;
      run();
    };
    work.then(done, done);
    return true;
  }

  function run(): void {
    if (!running || stepping || (settling && !stalled)) return;
    stepping = true;
    let caughtUp = false;
    try {
      caughtUp = steps();
    } finally {
      stepping = false;
    }
    if (caughtUp) waitForNext();
  }

  /** Takes every step the pace allows now; true when it stopped because nothing more is due yet. */
  function steps(): boolean {
    const began = pace.now();
    for (;;) {
      // stop() from a subscriber ends the steps at once
      if (!running) return false;
      // Never past an undelivered tick.
      const limit = pending?.time ?? Number.POSITIVE_INFINITY;
      const now = target();
      const due = clock.nextDue();
      if (due !== undefined && due < limit && due <= now) {
        // A deadline before the next tick (candle close, signal expiry, square-off) fires at its own instant.
        clock.advanceTo(due);
        // While stalled the work in flight is still being waited for: its own timers may fire, nothing else.
        if (!settling && awaitSettle()) return false;
      } else if (pending !== null && pending.time <= now && !settling) {
        const tick = pending;
        pending = pull();
        if (tick.time < lastPlayed) {
          // Out of order: the runtime would drop it too, and quoting options at its price would be a second
          // market. The clock never goes back.
          dropped += 1;
          continue;
        }
        lastPlayed = tick.time;
        // Deadlines at the tick's own instant fire just before it, as in a backtest.
        clock.advanceTo(tick.time);
        emit(tick);
        if (awaitSettle()) return false;
      } else {
        return true;
      }
      if (pace.now() - began >= SLICE_MS) {
        // Let the server's I/O in; the replay catches up on the next turn.
        sleepUntil(Number.NEGATIVE_INFINITY);
        return false;
      }
    }
  }

  /** Nothing is due yet: sleep until the next deadline before the next tick, or the tick. */
  function waitForNext(): void {
    if (pending === null && !endReported) {
      endReported = true;
      options.onEnd?.();
    }
    // The clock shows the paced time meanwhile (never a tick's instant before its delivery).
    catchUpClock();
    const limit = pending?.time ?? Number.POSITIVE_INFINITY;
    const due = clock.nextDue();
    const deadline = due !== undefined && due < limit ? due : Number.POSITIVE_INFINITY;
    // While work settles (stalled), only for the timers it may wait on: its end wakes the steps again.
    const wake = settling ? deadline : Math.min(deadline, limit);
    if (wake === Number.POSITIVE_INFINITY) {
      timer?.unsubscribe();
      timer = undefined;
      timerAt = wake;
    } else {
      sleepUntil(wake);
    }
  }

  const feed = createSyntheticFeed('replay', { ...options, scheduler }, (outlet) => {
    emit = (tick) => outlet.emit(tick);
    return {
      start() {
        if (running) return;
        running = true;
        // Pace from where the clock stands: a pause is not caught up.
        anchorVirtual = clock.scheduler.now();
        anchorReal = pace.now();
        sleepUntil(Number.NEGATIVE_INFINITY);
      },
      stop() {
        running = false;
        timer?.unsubscribe();
        timer = undefined;
        timerAt = Number.POSITIVE_INFINITY;
      },
    };
  });
  return {
    ...feed,
    scheduler,
    get dropped() {
      return dropped;
    },
  };
}
