// The trading loop inside a real server, driven by a scripted feed on a virtual clock: the exact ticks of a CALL
// setup and the option premiums are chosen by the test, so each case is deterministic (which signal, which strike,
// which stop). A virtual clock (engine's VirtualTime) instead of a fast real clock because the case needs to place
// a price at a precise instant relative to candle closes. Covers: a paper trade for an eligible user; none when
// trading is paused globally or the side is disabled; restart of a server on the same DATA_DIR keeps the stop and
// high-water mark and still exits at the stop.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BehaviorSubject, Subject } from 'rxjs';
import { istDateTime, type Quote, type Tick } from '@optionpilot/engine';
import type { FeedHealth, FeedSource } from '@optionpilot/engine/feeds/feedSource';
import { VirtualTime } from '@optionpilot/engine/execution/virtualTime';
import { startServer, type RunningServer } from '@optionpilot/server/app';
import { loadConfig } from '@optionpilot/server/config';
import { createLogger } from '@optionpilot/server/logger';
import {
  insertUser,
  listOrders,
  listSignals,
  listTrades,
  saveTradingSettings,
  setAdminControl,
  updateUser,
  type TradeRow,
} from '@optionpilot/server/db/index';

/** A FeedSource whose index ticks and option premiums the test sets. Quotes go to every subscribed symbol. */
class ScriptedFeed implements FeedSource {
  readonly kind = 'sim';
  readonly simulated = true;
  private readonly tickSubject = new Subject<Tick>();
  private readonly quoteSubject = new Subject<Quote>();
  readonly ticks$ = this.tickSubject.asObservable();
  readonly quotes$ = this.quoteSubject.asObservable();
  readonly health$ = new BehaviorSubject<FeedHealth>({ status: 'live', lastTickAt: null }).asObservable();
  readonly symbols = new Set<string>();
  private premium: number;
  private time = 0;

  constructor(premium: number) {
    this.premium = premium;
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
const T0 = istDateTime('2026-01-05', '10:00');
const MINUTE = 60_000;

interface Harness {
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

function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'optionpilot-trading-'));
  dirs.push(dir);
  return dir;
}

async function startHarness(dir: string, startAt: number, premium: number): Promise<Harness> {
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dir,
    WEB_DIST_DIR: join(dir, 'no-web-build'),
    LOG_LEVEL: 'silent',
    SIM_SESSION: 'always',
  });
  const time = new VirtualTime(startAt);
  const feed = new ScriptedFeed(premium);
  const server = await startServer(config, {
    logger: createLogger({ level: 'silent' }),
    trading: { feed, scheduler: time.scheduler },
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
async function addUser(h: Harness, name: string, bot: boolean): Promise<number> {
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
 * Three bullish 1-minute candles of +10 points (10:00–10:03), then a tick through the trigger (high 24030 + 2) at
 * 10:03:10. The trigger tick at 24035 makes ATM 24050, so the CALL buys the 24000 CE of 6 Jan 2026.
 */
async function callSetup(h: Harness): Promise<void> {
  const prices = [24_000, 24_005, 24_010, 24_010, 24_015, 24_020, 24_020, 24_025, 24_030];
  for (let i = 0; i < prices.length; i += 1) {
    await h.at(Math.floor(i / 3) * MINUTE + (i % 3) * 25_000, prices[i] as number);
  }
  await h.at(3 * MINUTE, 24_031); // closes the third candle: the signal is armed, trigger 24032
  await h.at(3 * MINUTE + 10_000, 24_035); // executes
}

const SYMBOL = 'NIFTY06JAN2624000CE';

afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('trading loop on a scripted feed', () => {
  it('buys CE ATM−1 of the weekly expiry for an eligible user only, with orders, audit rows and the stop', async () => {
    const h = await startHarness(dataDir(), T0 - 1_000, 100);
    const trader = await addUser(h, 'trader', true);
    const idle = await addUser(h, 'idle', false);
    await callSetup(h);

    const knex = h.server.deps.db.knex;
    const [signal] = await listSignals(knex);
    expect(signal).toMatchObject({ type: 'CALL', executed: true, entry_trigger_x100: 2_403_200 });
    const trades = await listTrades(knex);
    expect(trades).toHaveLength(1);
    expect(trades[0]).toMatchObject({
      user_id: trader,
      signal_id: signal?.id,
      symbol: SYMBOL,
      option_type: 'CE',
      strike_x100: 2_400_000,
      lots: 1,
      quantity: 65,
      entry_price_paise: 10_000,
      stop_loss_paise: 8_000,
      target_paise: 14_000,
      status: 'open',
      paper: true,
    });
    expect(await listTrades(knex, { userId: idle })).toEqual([]);
    const [entry] = await listOrders(knex, { userId: trader });
    expect(entry).toMatchObject({
      purpose: 'entry',
      side: 'BUY',
      status: 'FILLED',
      signal_id: signal?.id,
      trade_id: trades[0]?.id,
      broker: 'paper',
      tag: 'OPTIONPILOT',
    });
    const events = await knex('order_events').where({ order_id: entry?.id }).orderBy('id');
    expect(events.map((e: { event_type: string }) => e.event_type)).toEqual(
      expect.arrayContaining(['CREATED', 'SUBMITTED', 'FILLED']),
    );
    const logs = await knex('logs').where({ user_id: trader }).select('event_type');
    expect(logs.map((l: { event_type: string }) => l.event_type)).toEqual(
      expect.arrayContaining(['order', 'trade']),
    );

    // Target 40 points: at 140 the position closes with the target reason and net P&L after charges.
    await h.premium(140);
    const [closed] = await listTrades(knex, { userId: trader });
    expect(closed).toMatchObject({ status: 'closed', exit_reason: 'target', exit_price_paise: 14_000 });
    expect((closed as TradeRow).charges_paise).toBeGreaterThan(0);
    expect((closed as TradeRow).pnl_paise).toBe(40 * 65 * 100 - (closed as TradeRow).charges_paise);
    expect(h.feed.symbols.has(SYMBOL)).toBe(false);
  });

  it('records but does not trade a setup while trading is paused globally', async () => {
    const h = await startHarness(dataDir(), T0 - 1_000, 100);
    await addUser(h, 'trader', true);
    await setAdminControl(h.server.deps.db.knex, 'tradingEnabled', 'false', null);
    await h.server.deps.trading.reloadControls();
    expect((await h.server.deps.trading.botStatus(1)).reason).toBe('Trading paused by admin');
    await callSetup(h);
    const knex = h.server.deps.db.knex;
    const signals = await listSignals(knex);
    expect(signals).toHaveLength(1);
    expect(signals[0]).toMatchObject({ executed: false, skipped_reason: expect.stringMatching(/disabled/) });
    expect(await listTrades(knex)).toEqual([]);
    expect(await listOrders(knex)).toEqual([]);
  });

  it('does not trade a CALL setup while CALL is disabled', async () => {
    const h = await startHarness(dataDir(), T0 - 1_000, 100);
    await addUser(h, 'trader', true);
    await setAdminControl(h.server.deps.db.knex, 'callEnabled', 'false', null);
    await h.server.deps.trading.reloadControls();
    await callSetup(h);
    const knex = h.server.deps.db.knex;
    expect(await listSignals(knex)).toEqual([]);
    expect(await listTrades(knex)).toEqual([]);
    expect(await listOrders(knex)).toEqual([]);
  });

  it('resumes an open position after a restart with the same stop and high-water mark, and exits at the stop', async () => {
    const dir = dataDir();
    const first = await startHarness(dir, T0 - 1_000, 100);
    const trader = await addUser(first, 'trader', true);
    await callSetup(first);
    // +25 points: the stop moves to cost and trails the high by 20 → 105.
    await first.premium(125);
    await first.premium(118);
    const before = first.server.deps.trading.openPositions()[0]?.risk;
    expect(before).toMatchObject({ stopPrice: 105, highWater: 125, targetPrice: 140 });
    await first.server.close();

    // A new server on the same DATA_DIR, later, with the premium above the stop.
    const second = await startHarness(dir, T0 + 10 * MINUTE, 110);
    const [stored] = await listTrades(second.server.deps.db.knex, { userId: trader });
    expect(JSON.parse((stored as TradeRow).risk_state ?? '{}')).toMatchObject({
      stopPrice: 105,
      highWater: 125,
    });
    expect((stored as TradeRow).stop_loss_paise).toBe(10_500);
    const resumed = second.server.deps.trading.openPositions();
    expect(resumed).toHaveLength(1);
    expect(resumed[0]?.risk).toMatchObject({ stopPrice: 105, highWater: 125, entryPrice: 100 });
    expect(second.feed.symbols.has(SYMBOL)).toBe(true);

    await second.premium(104);
    const [closed] = await listTrades(second.server.deps.db.knex, { userId: trader });
    expect(closed).toMatchObject({
      status: 'closed',
      exit_reason: 'trailing_stop',
      exit_price_paise: 10_400,
    });
    expect(second.server.deps.trading.openPositions()).toEqual([]);
  });
});
