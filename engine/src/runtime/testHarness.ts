// The trading runtime on a stepping virtual clock, shared by the runtime's tests: a NIFTY day that signals a CALL,
// an in-memory store, and per-account brokers (paper unless a test builds its own).
import calendarJson from '../../data/nse-calendar.json' with { type: 'json' };
import contractsJson from '../../data/nse-contracts.json' with { type: 'json' };
import { loadCalendarData } from '../calendar/calendarData';
import { parseContractSpecs, underlyingSpec } from '../calendar/contractSpecs';
import { createExchangeCalendar } from '../calendar/exchangeCalendar';
import { createExpiryCalendar } from '../calendar/expiry';
import { istDateTime } from '../calendar/ist';
import { createSteppingClock } from '../clock/virtualClock';
import type { SteppingClock } from '../clock/virtualClock';
import type { Quote, Tick } from '../core/types';
import type { Broker, BrokerCapabilities } from '../execution/broker';
import { InMemoryOrderStore } from '../execution/orderStore';
import { PaperBroker } from '../execution/paperBroker';
import { createQuoteBook } from '../feeds/quoteBook';
import { createSyntheticQuoter } from '../feeds/syntheticQuotes';
import { DEFAULT_STRATEGY_PARAMS } from '../strategy/params';
import type { StrategyParams } from '../strategy/params';
import { TradingRuntime } from './tradingRuntime';
import type { BrokerChoice, RuntimeAccount, RuntimeEvent, RuntimeStore, StrategyDefinition } from './types';

export const exchange = createExchangeCalendar(
  loadCalendarData(calendarJson, { now: Date.UTC(2026, 0, 1) }).data,
);
export const expiries = createExpiryCalendar(
  exchange,
  underlyingSpec(parseContractSpecs(contractsJson), 'NIFTY'),
);
export const at = (hhmmss: string) =>
  istDateTime('2026-01-07', hhmmss.slice(0, 5)) + Number(hhmmss.slice(6) || 0) * 1000;
export const MIN = 60_000;

/** One bullish candle of ≥ 1 point makes a CALL setup: the next minute's first tick above the trigger executes. */
export const QUICK: StrategyParams = {
  ...DEFAULT_STRATEGY_PARAMS,
  consecutiveCandles: 1,
  minMovement: 1,
  entryOffset: 1,
};

/** 09:15 flat, 09:16 a bullish minute, 09:17:00 a tick through the trigger, then ticks every 15 s to 09:30. */
export function signalDay(from = 23_500): Tick[] {
  const ticks: Tick[] = [{ time: at('09:15:00'), price: from, volume: 0 }];
  ticks.push(
    { time: at('09:16:00'), price: from, volume: 0 },
    { time: at('09:16:45'), price: from + 5, volume: 0 },
  );
  for (let t = at('09:17:00'), p = from + 8; t <= at('09:30:00'); t += 15_000, p += 0.5) {
    ticks.push({ time: t, price: p, volume: 0 });
  }
  return ticks;
}

export interface Harness {
  runtime: TradingRuntime;
  events: RuntimeEvent[];
  store: RuntimeStore & { open: Set<string> };
  push(tick: Tick): Promise<void>;
  /** lets engine time pass with no tick (a stalled feed) */
  wait(until: number): Promise<void>;
  /** the engine clock's now */
  now(): number;
}

export function memoryStore(): RuntimeStore & { open: Set<string> } {
  const open = new Set<string>();
  const signals = new Map<string, string>();
  let trades = 0;
  return {
    orders: new InMemoryOrderStore(),
    open,
    saveSignal: (_s, event) => {
      const id = signals.get(event.signal.key) ?? String(signals.size + 1);
      signals.set(event.signal.key, id);
      return Promise.resolve(id);
    },
    openTrade: () => {
      trades += 1;
      open.add(String(trades));
      return Promise.resolve(String(trades));
    },
    saveRisk: () => Promise.resolve(),
    closeTrade: (close) => {
      open.delete(close.tradeId);
      return Promise.resolve();
    },
  };
}

/** A runtime on a stepping virtual clock with the live feeds' quotes; `brokers` per account. */
export function harness(props: {
  accounts: readonly RuntimeAccount[];
  brokers?: (
    accountId: string,
    paper: (capabilities?: Partial<BrokerCapabilities>) => Broker,
    now: () => number,
    account: BrokerChoice | undefined,
  ) => Broker;
  strategies?: readonly StrategyDefinition[];
  start?: number;
  /** quote the contract of an armed signal while it is armed (as the server does on a broker's feed) */
  quoteArmedStrikes?: boolean;
  /** what the feed is asked to quote, in order (`+symbol` subscribe, `-symbol` unsubscribe) */
  quoteLog?: string[];
  /** live accounts ready their brokers when a signal arms (as the server does) */
  prepareArmedEntries?: boolean;
  /** a clock and a store shared with an earlier harness: a restarted process on the same database and time */
  clock?: SteppingClock;
  store?: RuntimeStore & { open: Set<string> };
  /** called before `start` (a restart restores here, as the server does) */
  beforeStart?: (runtime: TradingRuntime) => void;
}): Harness {
  const clock = props.clock ?? createSteppingClock(props.start ?? at('09:15:00'));
  let last: Tick | null = null;
  const quotes = createQuoteBook(
    createSyntheticQuoter({ expiryInstant: (d) => expiries.expiryInstant(d) }),
    () => (last ? { spot: last.price, time: last.time } : null),
  );
  const events: RuntimeEvent[] = [];
  const store = props.store ?? memoryStore();
  const runtime: TradingRuntime = new TradingRuntime({
    calendar: exchange,
    expiries,
    scheduler: clock.scheduler,
    quotes: {
      subscribe: (symbol) => {
        props.quoteLog?.push(`+${symbol}`);
        quotes.subscribe(symbol);
      },
      unsubscribe: (symbol) => {
        props.quoteLog?.push(`-${symbol}`);
        quotes.unsubscribe(symbol);
      },
    },
    brokers: (accountId, account) => {
      const paper = (capabilities?: Partial<BrokerCapabilities>) =>
        new PaperBroker({
          quotes: { getQuote: (s): Quote | undefined => runtime.quote(s) },
          scheduler: clock.scheduler,
          idPrefix: `P${accountId}-`,
          ...(capabilities === undefined ? {} : { capabilities }),
        });
      return props.brokers ? props.brokers(accountId, paper, () => clock.scheduler.now(), account) : paper();
    },
    store,
    accounts: { eligible: () => Promise.resolve(props.accounts) },
    strategies: props.strategies ?? [
      { id: 's1', name: 'quick', kind: 'consecutive_breakout', params: QUICK },
    ],
    algoTag: 'TEST',
    events: (event) => events.push(event),
    fillTimeoutMs: 10_000,
    positionCheckConfirmMs: 3_000,
    ...(props.quoteArmedStrikes === undefined ? {} : { quoteArmedStrikes: props.quoteArmedStrikes }),
    ...(props.prepareArmedEntries === undefined ? {} : { prepareArmedEntries: props.prepareArmedEntries }),
  });
  quotes.quotes$.subscribe((q) => runtime.onQuote(q));
  props.beforeStart?.(runtime);
  runtime.start();
  return {
    runtime,
    events,
    store,
    async push(tick) {
      clock.advanceTo(tick.time);
      for (let i = 0; i < 20; i += 1) await Promise.resolve();
      runtime.onTick(tick);
      last = tick;
      quotes.publish(tick.price, tick.time);
      // Let promise chains (store writes, paper fills) settle as a live process would between two ticks.
      for (let i = 0; i < 20; i += 1) await Promise.resolve();
    },
    now: () => clock.scheduler.now(),
    async wait(until) {
      for (let t = clock.scheduler.now(); t <= until; t += 1_000) {
        clock.advanceTo(t);
        for (let i = 0; i < 20; i += 1) await Promise.resolve();
      }
    },
  };
}

export const account = (id: string): RuntimeAccount => ({
  accountId: id,
  lots: 1,
  maxDailyLoss: 0,
  paper: true,
});
