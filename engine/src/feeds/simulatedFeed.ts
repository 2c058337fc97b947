import type { SchedulerLike, Subscription } from 'rxjs';
import type { SessionCalendar } from '../core/types';
import type { FeedSource } from './feedSource';
import { createSimulatedMarket } from './simulatedMarket';
import type { SimulatedMarketOptions } from './simulatedMarket';
import { createSyntheticFeed } from './syntheticFeed';
import type { SyntheticFeedOptions } from './syntheticFeed';

/** Options of {@link createSimulatedFeed}. */
export interface SimulatedFeedOptions extends SimulatedMarketOptions, SyntheticFeedOptions {
  /** the engine's clock: scaled for live demos (`SIM_SPEED`), virtual for backtests and tests */
  readonly scheduler: SchedulerLike;
  /** ticks are produced only while this calendar says the market is in session */
  readonly calendar: SessionCalendar;
  /** virtual ms between ticks (default 1,000: one tick per second) */
  readonly tickIntervalMs?: number;
  /** how often to look again while the market is closed and today's open has passed (default 60,000) */
  readonly closedPollMs?: number;
}

/**
 * A simulated NIFTY 50 feed: a seeded regime-switching random walk ticking once per virtual second on the injected
 * scheduler while the calendar is in session, plus Black–Scholes quotes for subscribed option symbols. Same seed
 * and same virtual scheduler → the same ticks. The index carries no volume, so ticks have `volume: 0`.
 */
export function createSimulatedFeed(options: SimulatedFeedOptions): FeedSource {
  const { scheduler, calendar } = options;
  const tickIntervalMs = options.tickIntervalMs ?? 1_000;
  const closedPollMs = options.closedPollMs ?? 60_000;
  const market = createSimulatedMarket(options);
  return createSyntheticFeed('sim', options, (outlet) => {
    let running: Subscription | null = null;

    function produce(time: number): void {
      const last = outlet.last();
      const newDay = last !== null && calendar.tradingDate(time) !== calendar.tradingDate(last.time);
      const dtMs = last === null ? tickIntervalMs : Math.min(time - last.time, tickIntervalMs);
      const price = last === null ? market.price : market.step(time, Math.max(1, dtMs), newDay);
      outlet.emit({ time, price, volume: 0 });
    }

    return {
      start() {
        if (running) return;
        // A fresh top-level action per step (not `this.schedule`): a virtual scheduler nests rescheduled actions,
        // and unsubscribing a chain of a day's 22,500 of them overflows the stack.
        // The instant the next in-session tick is meant for. Ticks keep to this grid: on a real clock every timer
        // fires a little late, and scheduling each step a full interval after the last made the feed drift to
        // 0.90–0.95 ticks/s under load. A step more than a whole interval off the grid (the first one, after a
        // closed spell, after a long stall) starts a new grid instead of bursting to catch up.
        let due = Number.NaN;
        const step = (): void => {
          const now = scheduler.now();
          const inSession = calendar.isInSession(now);
          if (inSession) produce(now);
          if (!running) return;
          let delay: number;
          if (inSession) {
            due = Math.abs(now - due) < tickIntervalMs ? due + tickIntervalMs : now + tickIntervalMs;
            delay = due - now;
          } else {
            // Closed: wake exactly at today's open if it is still ahead (so the first tick is 09:15:00), else poll.
            const open = calendar.sessionOpen(now);
            delay = open > now ? Math.min(open - now, closedPollMs * 600) : closedPollMs;
          }
          running = scheduler.schedule(step, delay);
        };
        running = scheduler.schedule(step, 0);
      },
      stop() {
        running?.unsubscribe();
        running = null;
      },
    };
  });
}
