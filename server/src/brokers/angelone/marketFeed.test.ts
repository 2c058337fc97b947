import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FeedHealth, Quote, Tick } from '@optionpilot/engine';
import { encodePacket } from '../../../../test/fakes/angelone/packets';
import { startAngelFake, type AngelFake } from '../../../../test/fakes/angelone/server';
import { AngelMarketFeed } from './marketFeed';
import { decodeSmartStreamPacket } from './smartStream';

const ACCOUNT = {
  apiKey: 'feedkey1',
  clientCode: 'F1234567',
  mpin: '1111',
  totpSecret: 'ONSWG4TFORXW45DFON2A',
  name: 'F',
};
const OPTION = {
  token: '45003',
  tradingSymbol: 'NIFTY01DEC2624000CE',
  expiry: '2026-12-01',
  strike: 24_000,
  optionType: 'CE' as const,
  lotSize: 65,
  tickSize: 0.05,
};

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('SmartStream packets', () => {
  it('decodes LTP, exchange time and token of the documented layout, the LTP as an int64 of paise', () => {
    // 2^32 + 5 paise: read as an int32 (as the official JS client does) it would be 5 paise.
    const big = (2 ** 32 + 5) / 100;
    const packet = decodeSmartStreamPacket(
      encodePacket({
        mode: 1,
        exchangeType: 1,
        token: '99926000',
        sequence: 7,
        time: 1_767_600_000_000,
        ltp: big,
      }),
    );
    expect(packet).toEqual({
      mode: 1,
      exchangeType: 1,
      token: '99926000',
      exchangeTime: 1_767_600_000_000,
      ltp: big,
    });
    const snap = decodeSmartStreamPacket(
      encodePacket({
        mode: 3,
        exchangeType: 2,
        token: '45003',
        sequence: 8,
        time: 1,
        ltp: 120.5,
        bid: 120.4,
        ask: 120.65,
      }),
    );
    expect(snap).toMatchObject({ token: '45003', ltp: 120.5, bid: 120.4, ask: 120.65 });
    expect(decodeSmartStreamPacket(Buffer.alloc(20))).toBeUndefined();
  });
});

describe('AngelMarketFeed', () => {
  let fake: AngelFake;
  let feed: AngelMarketFeed;
  beforeEach(async () => {
    fake = await startAngelFake({ accounts: [ACCOUNT] });
    const { jwt, feedToken } = fake.issueSession(ACCOUNT.clientCode);
    feed = new AngelMarketFeed({
      wsRoot: fake.wsUrl,
      apiKey: ACCOUNT.apiKey,
      tokens: { jwt, feedToken, clientCode: ACCOUNT.clientCode },
      instrumentOf: (s) => (s === OPTION.tradingSymbol ? OPTION : undefined),
      staleAfterMs: 300,
      backoffMs: [50],
    });
  });
  afterEach(async () => {
    feed.stop();
    await fake.close();
  });

  it('subscribes the index in LTP mode and options in SnapQuote mode; packets become ticks and quotes', async () => {
    const ticks: Tick[] = [];
    const quotes: Quote[] = [];
    feed.ticks$.subscribe((t) => ticks.push(t));
    feed.quotes$.subscribe((q) => quotes.push(q));
    feed.subscribe(OPTION.tradingSymbol);
    feed.subscribe('NIFTY01DEC2699999CE');
    feed.start();
    await until(() => fake.sockets.subscribed().size === 2, 'subscriptions');
    expect(fake.sockets.requests).toContainEqual({
      action: 1,
      params: { mode: 3, tokenList: [{ exchangeType: 2, tokens: ['45003'] }] },
    });
    fake.sockets.push({
      index: 24_010.55,
      quotes: { '45003': { ltp: 120.5, bid: 120.4, ask: 120.6 } },
      time: 1_767_600_000_000,
    });
    await until(() => ticks.length === 1 && quotes.length === 1, 'a tick and a quote');
    expect(ticks[0]).toEqual({ time: 1_767_600_000_000, price: 24_010.55, volume: 0 });
    expect(quotes[0]).toEqual({
      symbol: OPTION.tradingSymbol,
      time: 1_767_600_000_000,
      bid: 120.4,
      ask: 120.6,
      ltp: 120.5,
    });
    feed.unsubscribe(OPTION.tradingSymbol);
    await until(() => fake.sockets.subscribed().size === 1, 'unsubscribed');
  });

  it('goes stale without ticks, down on a dropped socket, then reconnects and resubscribes', async () => {
    const states: FeedHealth['status'][] = [];
    feed.health$.subscribe((h) => states.push(h.status));
    feed.subscribe(OPTION.tradingSymbol);
    feed.start();
    await until(() => fake.sockets.subscribed().size === 2, 'subscriptions');
    fake.sockets.push({ index: 24_000 });
    await until(() => states.includes('live'), 'live');
    await until(() => states.at(-1) === 'stale', 'stale');
    fake.inject('drop_socket');
    await until(() => states.at(-1) === 'down', 'down');
    await until(
      () => fake.sockets.streamConnections === 1 && fake.sockets.subscribed().size === 2,
      'resubscribed',
    );
    fake.sockets.push({ index: 24_001 });
    await until(() => states.at(-1) === 'live', 'live again');
    expect(states).toEqual(['down', 'live', 'stale', 'down', 'live']);
  });
});
