// A real server whose market is a scripted feed on a virtual clock: tests place index ticks and option premiums at
// exact instants (a CALL setup, a stop) and see what the trading runtime did. Shared by the trading integration
// tests and the live-broker tests.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BehaviorSubject, Subject } from 'rxjs';
import { istDateTime, type Quote, type Tick } from '@optionpilot/engine';
import type { FeedHealth, FeedSource } from '@optionpilot/engine/feeds/feedSource';
import { VirtualTime } from '@optionpilot/engine/execution/virtualTime';
import { startServer, type RunningServer, type StartOverrides } from '@optionpilot/server/app';
import { loadConfig } from '@optionpilot/server/config';
import { createLogger } from '@optionpilot/server/logger';
import { insertUser, saveTradingSettings, updateUser } from '@optionpilot/server/db/index';

/**
 * A FeedSource whose index ticks and option premiums the test sets. Quotes go to every subscribed symbol.
 * `simulated: false` makes it stand in for a broker's live feed (live-broker tests: real orders at the fakes).
 */
export class ScriptedFeed implements FeedSource {
  readonly kind: string;
  readonly simulated: boolean;
  private readonly tickSubject = new Subject<Tick>();
  private readonly quoteSubject = new Subject<Quote>();
  readonly ticks$ = this.tickSubject.asObservable();
  readonly quotes$ = this.quoteSubject.asObservable();
  readonly health$ = new BehaviorSubject<FeedHealth>({ status: 'live', lastTickAt: null }).asObservable();
  readonly symbols = new Set<string>();
  private premium: number;
  private time = 0;

  constructor(premium: number, live = false) {
    this.premium = premium;
    this.kind = live ? 'zerodha' : 'sim';
    this.simulated = !live;
  }

  subscribe(symbol: string): void {
    this.symbols.add(symbol);
    this.quoteSubject.next(this.quote(symbol));
  }
  unsubscribe(symbol: string): void {
    this.symbols.delete(symbol);
  }
  start(): void {}
  stop(): void {}

  tick(time: number, price: number): void {
    this.time = time;
    this.tickSubject.next({ time, price, volume: 0 });
  }

  setPremium(premium: number, time: number): void {
    this.premium = premium;
    this.time = time;
    for (const symbol of this.symbols) this.quoteSubject.next(this.quote(symbol));
  }

  private quote(symbol: string): Quote {
    return { symbol, time: this.time, bid: this.premium, ask: this.premium, ltp: this.premium };
  }
}

// Monday 5 Jan 2026, 10:00 IST: a candle boundary (buckets start at 09:15); the weekly expiry is Tue 6 Jan.
export const T0 = istDateTime('2026-01-05', '10:00');
export const MINUTE = 60_000;

export interface Harness {
  server: RunningServer;
  feed: ScriptedFeed;
  time: VirtualTime;
  /** advances the virtual clock to T0 + offset and ticks the index there */
  at(offsetMs: number, price: number): Promise<void>;
  /** sets the option premium at the current virtual time and lets the service react */
  premium(value: number): Promise<void>;
}

const dirs: string[] = [];
const servers: RunningServer[] = [];

export function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'optionpilot-trading-'));
  dirs.push(dir);
  return dir;
}

export async function startHarness(
  dir: string,
  startAt: number,
  premium: number,
  env: Record<string, string> = {},
  /** the feed stands in for a broker's live feed, so Live traders send real orders (at the fakes) */
  liveFeed = false,
  /** more of startServer's overrides (the notification tests pass the fake push service's HTTPS agent) */
  overrides: Pick<StartOverrides, 'pushAgent'> = {},
): Promise<Harness> {
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dir,
    WEB_DIST_DIR: join(dir, 'no-web-build'),
    LOG_LEVEL: 'silent',
    SIM_SESSION: 'always',
    ...env,
  });
  const time = new VirtualTime(startAt);
  const feed = new ScriptedFeed(premium, liveFeed);
  const server = await startServer(config, {
    logger: createLogger({ level: 'silent' }),
    trading: { feed, scheduler: time.scheduler },
    ...overrides,
  });
  servers.push(server);
  const settle = async () => {
    await time.advance(0);
    await server.deps.trading.idle();
  };
  return {
    server,
    feed,
    time,
    async at(offsetMs, price) {
      await time.advance(T0 + offsetMs - time.now());
      feed.tick(time.now(), price);
      await settle();
    },
    async premium(value) {
      feed.setPremium(value, time.now());
      await settle();
    },
  };
}

/** A user with an active subscription; `bot` sets their own switch. */
export async function addUser(h: Harness, name: string, bot: boolean): Promise<number> {
  const knex = h.server.deps.db.knex;
  const user = await insertUser(knex, {
    email: `${name}@example.com`,
    first_name: name,
    last_name: 'Test',
    password_hash: 'not-a-real-hash',
  });
  await updateUser(knex, user.id, {
    subscription_status: 'active',
    subscription_start_at: T0 - 86_400_000,
    subscription_end_at: Date.UTC(2099, 0, 1),
  });
  await saveTradingSettings(knex, user.id, { bot_enabled: bot, target_points: 40, trade_quantity: 1 });
  return user.id;
}

/**
 * Three bullish 1-minute candles of +10 points from `base` starting `fromMinute` minutes after 10:00, then a tick
 * through the trigger (the third candle's high + 2). From 10:00 at 24000 (the default): candles 10:00–10:03, the
 * trigger tick 24035 at 10:03:10 makes ATM 24050, so the CALL buys the 24000 CE of 6 Jan 2026.
 */
export async function callSetup(h: Harness, fromMinute = 0, base = 24_000): Promise<void> {
  const steps = [0, 5, 10, 10, 15, 20, 20, 25, 30];
  const start = fromMinute * MINUTE;
  for (let i = 0; i < steps.length; i += 1) {
    await h.at(start + Math.floor(i / 3) * MINUTE + (i % 3) * 25_000, base + (steps[i] as number));
  }
  await h.at(start + 3 * MINUTE, base + 31); // closes the third candle: the signal is armed, trigger base + 32
  await h.at(start + 3 * MINUTE + 10_000, base + 35); // executes
}

export const SYMBOL = 'NIFTY06JAN2624000CE';

/** Closes every harness server and removes its DATA_DIR (call from afterEach). */
export async function closeHarnesses(): Promise<void> {
  for (const server of servers.splice(0)) await server.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}
