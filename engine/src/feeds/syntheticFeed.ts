// The half that the simulated and replay feeds share: both produce index ticks on a scheduler and price options
// from them, so the FeedSource around their tick loops (health, quote book, subscribe) is built here once.
import { shareReplay, Subject } from 'rxjs';
import type { SchedulerLike } from 'rxjs';
import type { Tick } from '../core/types';
import { feedHealth$ } from './feedHealth';
import type { FeedKind, FeedSource } from './feedSource';
import { createQuoteBook } from './quoteBook';
import { createSyntheticQuoter } from './syntheticQuotes';
import type { SyntheticQuoteOptions } from './syntheticQuotes';

/** Options every feed built by {@link createSyntheticFeed} takes. */
export interface SyntheticFeedOptions {
  readonly scheduler: SchedulerLike;
  /** option pricing of `quotes$` (Black–Scholes from the index) */
  readonly quotes?: SyntheticQuoteOptions;
  /** health thresholds in scheduler ms (defaults 5,000 and 30,000) */
  readonly staleAfterMs?: number;
  readonly downAfterMs?: number;
}

/** What a tick loop is given: where to emit ticks and the last one emitted. */
export interface TickOutlet {
  /** emits `tick` on `ticks$` and quotes every subscribed option at its price */
  emit(tick: Tick): void;
  /** the last tick emitted, null before the first */
  last(): Tick | null;
}

/** The start/stop of a feed's own tick loop. */
export interface TickLoop {
  start(): void;
  stop(): void;
}

/**
 * Builds a simulated (`simulated: true`) FeedSource around a tick loop: `ticks$`, synthetic option `quotes$` for
 * subscribed symbols, and a shared `health$` on the feed's scheduler.
 */
export function createSyntheticFeed(
  kind: FeedKind,
  options: SyntheticFeedOptions,
  loop: (outlet: TickOutlet) => TickLoop,
): FeedSource {
  const ticks = new Subject<Tick>();
  let last: Tick | null = null;
  const book = createQuoteBook(createSyntheticQuoter(options.quotes), () =>
    last ? { spot: last.price, time: last.time } : null,
  );
  const { start, stop } = loop({
    emit(tick) {
      last = tick;
      ticks.next(tick);
      book.publish(tick.price, tick.time);
    },
    last: () => last,
  });

  const ticks$ = ticks.asObservable();
  return {
    kind,
    simulated: true,
    ticks$,
    quotes$: book.quotes$,
    health$: feedHealth$(ticks$, {
      staleAfterMs: options.staleAfterMs ?? 5_000,
      downAfterMs: options.downAfterMs ?? 30_000,
      scheduler: options.scheduler,
    }).pipe(shareReplay({ bufferSize: 1, refCount: true })),
    subscribe: book.subscribe,
    unsubscribe: book.unsubscribe,
    start,
    stop,
  };
}
