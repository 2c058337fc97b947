import type { Observable } from 'rxjs';
import type { Quote, Tick } from '../core/types';

/** Feed status as the `feed:health` event carries it. */
export type FeedStatus = 'live' | 'stale' | 'down';

/** The health of a feed at a moment. */
export interface FeedHealth {
  readonly status: FeedStatus;
  /** scheduler time (epoch ms) the last tick arrived, null before the first */
  readonly lastTickAt: number | null;
}

/** Which kind of source a feed is; broker feeds use their broker type (e.g. `'zerodha'`). */
export type FeedKind = 'sim' | 'replay' | (string & {});

/**
 * A market data source, consumed by the server. Streams are hot: they emit only between `start()` and `stop()`,
 * and nothing runs until `start()` is called.
 */
export interface FeedSource {
  readonly kind: FeedKind;
  /** true when prices are not live market prices (sim, replay); live orders must never be sent on them */
  readonly simulated: boolean;
  /** the underlying (NIFTY 50 index) */
  readonly ticks$: Observable<Tick>;
  /** quotes of the subscribed option symbols */
  readonly quotes$: Observable<Quote>;
  readonly health$: Observable<FeedHealth>;
  /** starts quoting a canonical option symbol (idempotent) */
  subscribe(symbol: string): void;
  /** stops quoting a symbol (idempotent) */
  unsubscribe(symbol: string): void;
  start(): void;
  stop(): void;
}
