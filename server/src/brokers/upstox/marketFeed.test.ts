import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { VirtualTimeScheduler } from 'rxjs';
import type { FeedHealth, FeedSource, Quote, Tick } from '@optionpilot/engine';
import { startFakeUpstox } from '../../../../test/fakes/upstox/server';
import type { FakeUpstox } from '../../../../test/fakes/upstox/server';
import type { BrokerInstrument } from '../types';
import { createInstrumentIndex, fetchUpstoxInstruments, NIFTY_INDEX_KEY } from './instruments';
import type { InstrumentIndex } from './instruments';
import { createUpstoxFeed } from './marketFeed';

const CE = 'NIFTY01DEC2624000CE';

let fake: FakeUpstox;
let index: InstrumentIndex;
let feed: FeedSource | undefined;

function makeFeed(
  extra: { scheduler?: VirtualTimeScheduler; reconnectBackoffMs?: number[] } = {},
): FeedSource {
  feed = createUpstoxFeed({
    apiRoot: fake.url,
    accessToken: fake.issueToken(),
    instrumentOf: (symbol): BrokerInstrument | undefined => index.bySymbol(symbol),
    now: Date.now,
    reconnectBackoffMs: extra.reconnectBackoffMs ?? [20],
    ...(extra.scheduler ? { scheduler: extra.scheduler } : {}),
  });
  return feed;
}

beforeEach(async () => {
  fake = await startFakeUpstox();
  index = createInstrumentIndex(
    await fetchUpstoxInstruments(`${fake.url}/market-quote/instruments/exchange/complete.json.gz`),
  );
});

afterEach(async () => {
  feed?.stop();
  feed = undefined;
  await fake.close();
});

const indexSubscribed = () =>
  fake.sockets.subscriptions.filter((s) => s.method === 'sub' && s.instrumentKeys.includes(NIFTY_INDEX_KEY))
    .length;

describe('upstox market feed v3', () => {
  it('subscribes NIFTY 50 and turns protobuf frames into index ticks (market_info first is skipped)', async () => {
    const source = makeFeed();
    expect(source).toMatchObject({ kind: 'upstox', simulated: false });
    const ticks: Tick[] = [];
    source.ticks$.subscribe((t) => ticks.push(t));
    source.start();
    await expect.poll(indexSubscribed).toBe(1);
    expect(fake.sockets.subscriptions[0]).toMatchObject({
      method: 'sub',
      mode: 'ltpc',
      instrumentKeys: [NIFTY_INDEX_KEY],
    });
    const at = Date.parse('2026-11-24T10:00:00+05:30');
    fake.tick(NIFTY_INDEX_KEY, { ltp: 24_010.55, time: at });
    await expect.poll(() => ticks.length).toBe(1);
    expect(ticks[0]).toEqual({ time: at, price: 24_010.55, volume: 0 });
  });

  it('quotes subscribed options by canonical symbol with the best bid and ask', async () => {
    const source = makeFeed();
    const quotes: Quote[] = [];
    source.quotes$.subscribe((q) => quotes.push(q));
    source.start();
    await expect.poll(indexSubscribed).toBe(1);
    source.subscribe(CE);
    const key = index.bySymbol(CE)?.token ?? '';
    await expect
      .poll(() => fake.sockets.subscriptions.at(-1))
      .toMatchObject({ mode: 'full', instrumentKeys: [key] });
    fake.tick(key, { ltp: 120.05, bid: 119.95, ask: 120.15, time: 1_000 });
    await expect.poll(() => quotes.length).toBe(1);
    expect(quotes[0]).toEqual({ symbol: CE, time: 1_000, bid: 119.95, ask: 120.15, ltp: 120.05 });
    source.unsubscribe(CE);
    await expect
      .poll(() => fake.sockets.subscriptions.at(-1))
      .toMatchObject({ method: 'unsub', instrumentKeys: [key] });
  });

  it('subscribes a contract the master did not list yet once it does, at the next connection', async () => {
    const listed = new Map<string, BrokerInstrument>();
    feed = createUpstoxFeed({
      apiRoot: fake.url,
      accessToken: fake.issueToken(),
      instrumentOf: (symbol) => listed.get(symbol),
      now: Date.now,
      reconnectBackoffMs: [20],
    });
    feed.start();
    feed.subscribe(CE);
    await expect.poll(indexSubscribed).toBe(1);
    listed.set(CE, index.bySymbol(CE) as BrokerInstrument);
    fake.sockets.dropAll();
    await expect.poll(indexSubscribed).toBe(2);
    await expect
      .poll(() => fake.sockets.subscriptions.at(-1))
      .toMatchObject({
        mode: 'full',
        instrumentKeys: [index.bySymbol(CE)?.token],
      });
  });

  it('refuses non-canonical symbols and ignores contracts Upstox does not list', async () => {
    const source = makeFeed();
    expect(() => source.subscribe('NIFTY 24000 CE')).toThrow(RangeError);
    source.start();
    await expect.poll(indexSubscribed).toBe(1);
    source.subscribe('NIFTY01DEC2630000CE');
    source.subscribe(CE);
    await expect.poll(() => fake.sockets.subscriptions.length).toBe(2);
    expect(fake.sockets.subscriptions[1]?.instrumentKeys).toEqual([index.bySymbol(CE)?.token]);
  });

  it('reconnects after a dropped socket on a new authorized URI and subscribes everything again', async () => {
    const source = makeFeed();
    const ticks: Tick[] = [];
    source.ticks$.subscribe((t) => ticks.push(t));
    source.start();
    source.subscribe(CE);
    await expect.poll(indexSubscribed).toBe(1);
    fake.sockets.dropAll();
    await expect.poll(indexSubscribed).toBe(2);
    expect(fake.sockets.authorizations.market).toBe(2);
    expect(fake.sockets.subscriptions.at(-1)).toMatchObject({
      mode: 'full',
      instrumentKeys: [index.bySymbol(CE)?.token],
    });
    fake.tick(NIFTY_INDEX_KEY, { ltp: 24_001 });
    await expect.poll(() => ticks.length).toBe(1);
  });

  it('skips frames it cannot decode and stops for good on stop()', async () => {
    const source = makeFeed();
    const ticks: Tick[] = [];
    source.ticks$.subscribe((t) => ticks.push(t));
    source.start();
    await expect.poll(indexSubscribed).toBe(1);
    fake.sockets.sendRawMarket(Uint8Array.from([0xff, 0xff, 0xff]));
    fake.tick(NIFTY_INDEX_KEY, { ltp: 24_002 });
    await expect.poll(() => ticks.length).toBe(1);
    source.stop();
    await expect.poll(() => fake.sockets.marketConnections).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(fake.sockets.authorizations.market).toBe(1);
  });

  it('reads live on a tick and stale 5 s later', async () => {
    const scheduler = new VirtualTimeScheduler();
    const source = makeFeed({ scheduler });
    const health: FeedHealth[] = [];
    source.health$.subscribe((h) => health.push(h));
    source.start();
    await expect.poll(indexSubscribed).toBe(1);
    fake.tick(NIFTY_INDEX_KEY, { ltp: 24_003 });
    await expect.poll(() => health.at(-1)?.status).toBe('live');
    scheduler.maxFrames = 4_999;
    scheduler.flush();
    expect(health.at(-1)?.status).toBe('live');
    scheduler.maxFrames = 5_000;
    scheduler.flush();
    expect(health.map((h) => h.status)).toEqual(['down', 'live', 'stale']);
  });
});
