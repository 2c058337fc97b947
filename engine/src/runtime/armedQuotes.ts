import type { Signal } from '../strategy/signal';
import { planEntry } from './entryPlan';
import type { ExpiryCalendar } from '../calendar/expiry';

/** How the runtime counts quote subscriptions (several holders may want one symbol). */
export interface QuoteHolder {
  subscribeQuote(symbol: string): void;
  unsubscribeQuote(symbol: string): void;
}

/**
 * Quotes of armed signals (`quoteArmedStrikes`): a broker's feed quotes an option only once it is subscribed, and
 * a market entry needs its LTP for protection the moment the signal executes. So the contract an execution at the
 * trigger would buy is quoted from the moment the signal arms, and let go when the signal ends — after an execution
 * only once every entry holds its own subscription. Simulated and replayed feeds quote synchronously: off there.
 */
export class ArmedQuotes {
  /** signal key → the contract quoted while it is armed */
  private readonly held = new Map<string, string>();

  constructor(
    private readonly quotes: QuoteHolder,
    private readonly expiries: ExpiryCalendar,
    private readonly enabled: boolean,
  ) {}

  /** A signal armed at `time`: its contract is quoted from now on. */
  hold(signal: Signal, time: number): void {
    if (!this.enabled || this.held.has(signal.key)) return;
    const { symbol } = planEntry({
      type: signal.type,
      index: signal.entryTrigger,
      time,
      lots: 1,
      expiries: this.expiries,
    });
    this.held.set(signal.key, symbol);
    this.quotes.subscribeQuote(symbol);
  }

  /** The signal ended (executed and entered, expired, suppressed): its hold is let go. */
  release(signalKey: string): void {
    const symbol = this.held.get(signalKey);
    if (symbol === undefined) return;
    this.held.delete(signalKey);
    this.quotes.unsubscribeQuote(symbol);
  }
}
