import type { SchedulerLike } from 'rxjs';
import type { OrderRouter } from '../execution/orderRouter';
import type { RiskManager } from '../risk/riskManager';
import type { QuoteHolder } from './armedQuotes';
import type { PositionBook } from './positionBook';
import type { RuntimeEvent, RuntimeStore } from './types';

/**
 * What the runtime's desks (entries, exits) work with: the router, the open positions (the book and their risk),
 * the clock, the store and the events, and a few services of the runtime's — never the runtime itself, so the
 * desks are peers the runtime wires together, with no import back to it.
 */
export interface DeskContext {
  readonly router: OrderRouter;
  /** positions' risk states and accounts' day P&L (a restore replaces it: read it each time) */
  readonly risk: RiskManager;
  readonly book: PositionBook;
  readonly clock: SchedulerLike;
  readonly store: RuntimeStore;
  readonly events: (event: RuntimeEvent) => void;
  /** counted quote subscriptions: several positions (and an armed signal) may hold one symbol */
  readonly quotes: QuoteHolder;
  /** tracks async work so the runtime's `idle()` waits for it; a failure becomes a `log` event */
  track(what: string, task: Promise<unknown>, accountId?: string): void;
  /** the last index level accepted into a candle */
  lastIndex(): number;
  /** positions came or went: the runtime re-arms its deadline timer (square-offs) */
  deadlinesChanged(): void;
}
