// A broker's live market feed (FEED=kite | upstox) over the session of one designated account (FEED_ACCOUNT: the
// operator's own on a solo VPS). Broker sessions end every night and are renewed by a login, so the feed follows
// the account's current session: it attaches the broker module's feed when a valid session appears, re-attaches
// (and re-subscribes every option in play) when the session changes (the next day's token), and reports `down`
// while there is none, so entries halt and the Reconnect banner tells the operator. Exits keep their last quotes.
import { BehaviorSubject, Subject, type Observable, type Subscription } from 'rxjs';
import type { FeedHealth, FeedSource, Quote, Tick } from '@optionpilot/engine';
import {
  createInstrumentService,
  type InstrumentService,
  type InstrumentServiceOptions,
} from '../brokers/instruments/service';
import type { EngineContracts } from '../brokers/instruments/crossCheck';
import type { BrokerRegistry } from '../brokers/registry';
import type { BrokerInstrument, BrokerModule, BrokerType } from '../brokers/types';
import { findUserByEmail, type Database } from '../db';
import type { BrokerSessions, LiveSession } from './brokerSessions';
import { FeedConfigError } from './feed';

export interface SessionFeed extends FeedSource {
  /** looks at the account's session again now (after a login or disconnect); attaches or detaches as needed */
  refresh(): Promise<void>;
}

export interface SessionFeedOptions {
  module: BrokerModule;
  /** the designated account's valid session now, if any */
  session: () => Promise<LiveSession | undefined>;
  instrumentOf: (canonicalSymbol: string) => BrokerInstrument | undefined;
  /** how often the session is looked at besides refresh() (expiry at night, a login on another server) */
  checkEveryMs?: number;
  /** said once each time the feed loses (or starts without) a session */
  warn: (message: string) => void;
}

const DOWN: FeedHealth = { status: 'down', lastTickAt: null };

export function createSessionFeed(options: SessionFeedOptions): SessionFeed {
  const { module } = options;
  if (module.createFeed === undefined) throw new Error(`the ${module.label} integration has no market feed`);
  const makeFeed = module.createFeed.bind(module);
  const ticks = new Subject<Tick>();
  const quotes = new Subject<Quote>();
  const health = new BehaviorSubject<FeedHealth>(DOWN);
  const symbols = new Set<string>();
  let inner: { feed: FeedSource; key: string; links: Subscription } | undefined;
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let warned = false;
  let pending = Promise.resolve();

  function detach(): void {
    if (inner === undefined) return;
    inner.links.unsubscribe();
    inner.feed.stop();
    inner = undefined;
  }

  async function look(): Promise<void> {
    const live = await options.session();
    if (!running) return;
    if (live === undefined) {
      detach();
      health.next(DOWN);
      if (!warned) {
        warned = true;
        options.warn(
          `${module.label} market feed: the market-data account has no valid broker session; the feed is down until it connects`,
        );
      }
      return;
    }
    warned = false;
    if (inner?.key === live.key) return;
    detach();
    const feed = makeFeed({
      credentials: live.credentials,
      session: live.session,
      instrumentOf: options.instrumentOf,
    });
    const links = feed.ticks$.subscribe(ticks);
    links.add(feed.quotes$.subscribe(quotes));
    links.add(feed.health$.subscribe((h) => health.next(h)));
    inner = { feed, key: live.key, links };
    for (const symbol of symbols) feed.subscribe(symbol);
    feed.start();
  }

  /** One look at a time: a refresh during a slow session read waits for it. Never rejects. */
  function refresh(): Promise<void> {
    pending = pending.then(look).catch((err: unknown) => {
      options.warn(
        `${module.label} market feed: could not attach (${err instanceof Error ? err.message : String(err)}); retrying`,
      );
    });
    return pending;
  }

  return {
    kind: module.type,
    simulated: false,
    ticks$: ticks.asObservable(),
    quotes$: quotes.asObservable(),
    health$: health.asObservable() as Observable<FeedHealth>,
    subscribe(symbol) {
      symbols.add(symbol);
      inner?.feed.subscribe(symbol);
    },
    unsubscribe(symbol) {
      symbols.delete(symbol);
      inner?.feed.unsubscribe(symbol);
    },
    start() {
      if (running) return;
      running = true;
      void refresh();
      timer = setInterval(() => void refresh(), options.checkEveryMs ?? 60_000);
      timer.unref();
    },
    stop() {
      running = false;
      if (timer !== undefined) clearInterval(timer);
      timer = undefined;
      detach();
      health.next(DOWN);
    },
    refresh,
  };
}

/** What the trading service needs to run a broker feed: the modules, the sessions cache and where to cache masters. */
export interface BrokerFeedContext {
  broker: BrokerType;
  registry: Pick<BrokerRegistry, 'get'> | undefined;
  sessions: Pick<BrokerSessions, 'get'>;
  db: Database;
  /** FEED_ACCOUNT, lower-cased */
  feedAccount: string;
  dataDir: string;
  now: () => number;
  logger: InstrumentServiceOptions['logger'];
  engine: EngineContracts;
}

/**
 * The feed of `FEED=kite | upstox`: the broker's instrument master (cached under DATA_DIR, refreshed daily at
 * 08:30 IST) maps the engine's option symbols to the broker's tokens, and the session feed streams over the
 * FEED_ACCOUNT's session. Throws FeedConfigError when this server has no such broker integration.
 */
export async function buildBrokerFeed(
  context: BrokerFeedContext,
): Promise<{ feed: SessionFeed; instruments: InstrumentService }> {
  const { broker } = context;
  const module = context.registry?.get(broker);
  if (module?.createFeed === undefined) {
    throw new FeedConfigError(`the ${broker} integration with a market feed is not installed on this server`);
  }
  const instruments = createInstrumentService({
    registry: { get: (type) => (type === broker ? module : undefined), modules: () => [module] },
    dataDir: context.dataDir,
    now: context.now,
    logger: context.logger,
    engine: context.engine,
  });
  await instruments.start();
  // The account is looked up until it exists, then only its session is read (from the in-memory cache).
  let accountId: number | undefined;
  const feed = createSessionFeed({
    module,
    session: async () => {
      accountId ??= (await findUserByEmail(context.db.knex, context.feedAccount))?.id;
      return accountId === undefined ? undefined : context.sessions.get(accountId, context.now());
    },
    instrumentOf: (symbol) => instruments.instrumentOf(broker, symbol),
    warn: (message) => context.logger.warn({ feedAccount: context.feedAccount }, message),
  });
  return { feed, instruments };
}
