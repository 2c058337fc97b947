import { Subject } from 'rxjs';
import type { Observable } from 'rxjs';
import type { Quote } from '../core/types';
import { parseOptionSymbol } from '../instruments/optionSymbol';
import type { SyntheticQuoter } from './syntheticQuotes';

/** The subscribed option symbols of a feed and the quotes priced for them from the underlying. */
export interface QuoteBook {
  readonly quotes$: Observable<Quote>;
  subscribe(symbol: string): void;
  unsubscribe(symbol: string): void;
  /** emits a quote for every subscribed symbol at the underlying price `spot` */
  publish(spot: number, time: number): void;
}

/** Creates a quote book; `last` supplies the latest underlying price so a new subscriber is quoted at once. */
export function createQuoteBook(
  quoter: SyntheticQuoter,
  last: () => { spot: number; time: number } | null,
): QuoteBook {
  const symbols = new Set<string>();
  const quotes = new Subject<Quote>();
  function emit(symbol: string, spot: number, time: number): void {
    const quote = quoter.quote(symbol, spot, time);
    if (quote) quotes.next(quote);
  }
  return {
    quotes$: quotes.asObservable(),
    subscribe(symbol) {
      if (!parseOptionSymbol(symbol)) {
        throw new RangeError(`"${symbol}" is not a canonical option symbol like NIFTY01DEC2624000CE`);
      }
      if (symbols.has(symbol)) return;
      symbols.add(symbol);
      const latest = last();
      if (latest) emit(symbol, latest.spot, latest.time);
    },
    unsubscribe(symbol) {
      symbols.delete(symbol);
    },
    publish(spot, time) {
      for (const symbol of symbols) emit(symbol, spot, time);
    },
  };
}
