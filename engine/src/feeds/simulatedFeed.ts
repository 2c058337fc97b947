import { shareReplay, Subject } from 'rxjs';
import type { SchedulerLike, Subscription } from 'rxjs';
import type { SessionCalendar, Tick } from '../core/types';
import { feedHealth$ } from './feedHealth';
import type { FeedSource } from './feedSource';
import { createQuoteBook } from './quoteBook';
import { createSimulatedMarket } from './simulatedMarket';
import type { SimulatedMarketOptions } from './simulatedMarket';
import { createSyntheticQuoter } from './syntheticQuotes';
import type { SyntheticQuoteOptions } from './syntheticQuotes';

/** Options of {@link createSimulatedFeed}. */
export interface SimulatedFeedOptions extends SimulatedMarketOptions {
  /** the engine's clock: scaled for live demos (`SIM_SPEED`), virtual for backtests and tests */
  readonly scheduler: SchedulerLike;
  /** ticks are produced only while this calendar says the market is in session */
  readonly calendar: SessionCalendar;
  /** virtual ms between ticks (default 1,000: one tick per second) */
  readonly tickIntervalMs?: number;
  /** how often to look again while the market is closed and today's open has passed (default 60,000) */
  readonly closedPollMs?: number;
  /** option pricing of `quotes$` */
  readonly quotes?: SyntheticQuoteOptions;
  /** health thresholds in virtual ms (defaults 5,000 and 30,000) */
  readonly staleAfterMs?: number;
  readonly downAfterMs?: number;
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
  const ticks = new Subject<Tick>();
  let last: Tick | null = null;
  let running: Subscription | null = null;
  const book = createQuoteBook(createSyntheticQuoter(options.quotes), () =>
    last ? { spot: last.price, time: last.time } : null,
  );

  function produce(time: number): void {
    const newDay = last !== null && calendar.tradingDate(time) !== calendar.tradingDate(last.time);
    const dtMs = last === null ? tickIntervalMs : Math.min(time - last.time, tickIntervalMs);
    const price = last === null ? market.price : market.step(time, Math.max(1, dtMs), newDay);
    last = { time, price, volume: 0 };
    ticks.next(last);
    book.publish(price, time);
  }

  const ticks$ = ticks.asObservable();
  return {
    kind: 'sim',
    simulated: true,
    ticks$,
    quotes$: book.quotes$,
    health$: feedHealth$(ticks$, {
      staleAfterMs: options.staleAfterMs ?? 5_000,
      downAfterMs: options.downAfterMs ?? 30_000,
      scheduler,
    }).pipe(shareReplay({ bufferSize: 1, refCount: true })),
    subscribe: book.subscribe,
    unsubscribe: book.unsubscribe,
    start() {
      if (running) return;
      // A fresh top-level action per step (not `this.schedule`): a virtual scheduler nests rescheduled actions,
      // and unsubscribing a chain of a day's 22,500 of them overflows the stack.
      const step = (): void => {
        const now = scheduler.now();
        const inSession = calendar.isInSession(now);
        if (inSession) produce(now);
        if (!running) return;
        // Closed: wake exactly at today's open if it is still ahead (so the first tick is 09:15:00), else poll.
        const open = inSession ? now : calendar.sessionOpen(now);
        const delay = inSession
          ? tickIntervalMs
          : open > now
            ? Math.min(open - now, closedPollMs * 600)
            : closedPollMs;
        running = scheduler.schedule(step, delay);
      };
      running = scheduler.schedule(step, 0);
    },
    stop() {
      running?.unsubscribe();
      running = null;
    },
  };
}
