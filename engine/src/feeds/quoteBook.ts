import { Observable } from 'rxjs';
import type { Quote } from '../core/types';
import { parseOptionSymbol } from '../instruments/optionSymbol';
import type { SyntheticQuoter } from './syntheticQuotes';

/** The subscribed option symbols of a feed and the quotes priced for them from the underlying. */
export interface QuoteBook {
  readonly quotes$: Observable<Quote>;
  /**
   * Calls `listener` with every quote, synchronously (no RxJS on the per-tick path, for callers that are plain
   * code, like the backtester); returns the function that stops it.
   */
  onQuote(listener: (quote: Quote) => void): () => void;
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
  /** the symbols in subscription order, for `publish` on every tick (no iterator) */
  let list: readonly string[] = [];
  let listeners: readonly ((quote: Quote) => void)[] = [];
  function onQuote(listener: (quote: Quote) => void): () => void {
    listeners = [...listeners, listener];
    return () => {
      listeners = listeners.filter((l) => l !== listener);
    };
  }
  function emit(symbol: string, spot: number, time: number): void {
    const quote = quoter.quote(symbol, spot, time);
    if (!quote) return;
    const current = listeners;
    for (let i = 0; i < current.length; i++) (current[i] as (quote: Quote) => void)(quote);
  }
  return {
    quotes$: new Observable<Quote>((subscriber) => onQuote((quote) => subscriber.next(quote))),
    onQuote,
    subscribe(symbol) {
      if (!parseOptionSymbol(symbol)) {
        throw new RangeError(`"${symbol}" is not a canonical option symbol like NIFTY01DEC2624000CE`);
      }
      if (symbols.has(symbol)) return;
      symbols.add(symbol);
      list = [...symbols];
      const latest = last();
      if (latest) emit(symbol, latest.spot, latest.time);
    },
    unsubscribe(symbol) {
      if (symbols.delete(symbol)) list = [...symbols];
    },
    publish(spot, time) {
      const current = list;
      if (current.length === 0) return;
      for (let i = 0; i < current.length; i++) emit(current[i] as string, spot, time);
    },
  };
}
