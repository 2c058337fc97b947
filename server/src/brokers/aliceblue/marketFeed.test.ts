import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FeedHealth, Quote, Tick } from '@optionpilot/engine';
import { startAliceFake, type AliceFake } from '../../../../test/fakes/aliceblue/server';
import { AliceHttp } from './http';
import { AliceMarketFeed } from './marketFeed';

const ACCOUNT = { userId: 'FEED01', appCode: 'feedapp', apiSecret: 's', name: 'F' };
const OPTION = {
  token: '45013',
  tradingSymbol: 'NIFTY01DEC26C24000',
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

describe('the ANT market feed', () => {
  let fake: AliceFake;
  let feed: AliceMarketFeed | undefined;
  beforeEach(async () => {
    fake = await startAliceFake({ accounts: [ACCOUNT] });
  });
  afterEach(async () => {
    feed?.stop();
    await fake.close();
  });

  const feedFor = (userSession: string, makeSocketSession: boolean) => {
    const http = new AliceHttp({ apiRoot: fake.url, userId: ACCOUNT.userId, userSession });
    return new AliceMarketFeed({
      wsRoot: fake.endpoints.wsRoot,
      tokens: { userId: ACCOUNT.userId, userSession },
      createSocketSession: async () => {
        if (!makeSocketSession) return;
        await http.createSocketSession();
      },
      instrumentOf: (symbol) => (symbol === 'NIFTY01DEC2624000CE' ? OPTION : undefined),
      backoffMs: [50],
    });
  };

  it('logs in after a socket session, then streams the index and option quotes, keeping what tf frames leave out', async () => {
    feed = feedFor(fake.issueSession(ACCOUNT.userId), true);
    const ticks: Tick[] = [];
    const quotes: Quote[] = [];
    const health: FeedHealth[] = [];
    feed.ticks$.subscribe((t) => ticks.push(t));
    feed.quotes$.subscribe((q) => quotes.push(q));
    feed.health$.subscribe((h) => health.push(h));
    feed.subscribe('NIFTY01DEC2624000CE');
    feed.start();
    await until(() => fake.sockets.subscribed().has(`NFO|${OPTION.token}`), 'the option subscription');
    expect(fake.sockets.subscribed().has('NSE|26000')).toBe(true);

    fake.sockets.push({ index: 24_010.5, quotes: { [OPTION.token]: { ltp: 120, bid: 119.95, ask: 120.1 } } });
    fake.sockets.push({ quotes: { [OPTION.token]: 121 } });
    await until(() => ticks.length > 0 && quotes.length > 1, 'prices');
    expect(ticks[0]?.price).toBe(24_010.5);
    expect(quotes[0]).toMatchObject({ symbol: 'NIFTY01DEC2624000CE', ltp: 120, bid: 119.95, ask: 120.1 });
    // The second frame carried only the price: bid and ask are the last ones seen.
    expect(quotes[1]).toMatchObject({ ltp: 121, bid: 119.95, ask: 120.1 });
    expect(health.at(-1)?.status).toBe('live');

    feed.unsubscribe('NIFTY01DEC2624000CE');
    await until(() => !fake.sockets.subscribed().has(`NFO|${OPTION.token}`), 'the unsubscription');
  });

  it('is refused a login without a socket session, and keeps trying rather than streaming', async () => {
    feed = feedFor(fake.issueSession(ACCOUNT.userId), false);
    const health: FeedHealth[] = [];
    feed.health$.subscribe((h) => health.push(h));
    feed.start();
    await until(() => fake.sockets.logins.refused >= 2, 'two refused logins');
    expect(fake.sockets.logins.ok).toBe(0);
    expect(fake.sockets.subscribed().size).toBe(0);
    expect(health.every((h) => h.status === 'down')).toBe(true);
  });
});
