import { afterEach, describe, expect, it } from 'vitest';
import type { FeedHealth, FeedSource, Quote, Tick } from '@optionpilot/engine';
import { startGrowwFake, type GrowwFake } from '../../../../test/fakes/groww/server';
import { GrowwHttp } from './http';
import { createGrowwMarketFeed } from './marketFeed';
import { waitUntil } from '../../testing/waitUntil';

let fake: GrowwFake | undefined;
let feed: FeedSource | undefined;
afterEach(async () => {
  feed?.stop();
  await fake?.close();
  fake = undefined;
});

describe('Groww market feed (NATS socket)', () => {
  it('signs in, streams the index and the subscribed options, reconnects and resubscribes after a drop', async () => {
    fake = await startGrowwFake({
      accounts: [{ apiKey: 'k', apiSecret: 's', totpSecret: 'JBSWY3DPEHPK3PXP', ucc: '1' }],
      tickMs: 20,
    });
    const [ce] = fake.instruments;
    const http = new GrowwHttp({ apiRoot: fake.url, bearer: fake.issueToken('k') });
    feed = createGrowwMarketFeed({
      wsRoot: fake.endpoints.wsRoot,
      http,
      instrumentOf: (s) =>
        s === 'NIFTY01DEC2623700CE' && ce ? { ...ce, expiry: '2026-12-01', tickSize: 0.05 } : undefined,
      staleAfterMs: 150,
      backoffMs: [20],
    });
    const ticks: Tick[] = [];
    const quotes: Quote[] = [];
    const health: FeedHealth['status'][] = [];
    feed.ticks$.subscribe((t) => ticks.push(t));
    feed.quotes$.subscribe((q) => quotes.push(q));
    feed.health$.subscribe((h) => health.push(h.status));
    feed.subscribe('NIFTY01DEC2623700CE');
    feed.subscribe('NIFTY01DEC2699999CE'); // not in the master: ignored
    feed.start();
    await waitUntil(() => ticks.length > 0 && quotes.length > 0);
    expect(ticks[0]).toMatchObject({ price: 24_010, volume: 0 });
    expect(quotes[0]).toMatchObject({ symbol: 'NIFTY01DEC2623700CE', ltp: 120, bid: 120, ask: 120 });
    expect(health).toContain('live');
    expect(fake.socket.connections).toBe(1);
    // No REST price calls: prices come over the socket.
    expect(fake.requests.filter((r) => r.path === '/v1/live-data/ltp')).toHaveLength(0);

    // The socket drops: down, then a new connection (a new key and token) with both subjects subscribed again.
    fake.inject('drop_socket');
    await waitUntil(() => health.includes('down'));
    fake.ltp = { index: 24_050.5, option: 130 };
    const before = quotes.length;
    await waitUntil(() => ticks.at(-1)?.price === 24_050.5 && quotes.length > before);
    expect(quotes.at(-1)).toMatchObject({ symbol: 'NIFTY01DEC2623700CE', ltp: 130 });
    expect(fake.socket.connections).toBe(2);
    expect(fake.requests.filter((r) => r.path === '/v1/api/apex/v1/socket/token/create/')).toHaveLength(2);
    expect(health.at(-1)).toBe('live');

    feed.unsubscribe('NIFTY01DEC2623700CE');
    feed.stop();
    expect(health.at(-1)).toBe('down');
  });

  it('stays down, retrying, while Groww refuses the socket token (an ended session)', async () => {
    fake = await startGrowwFake({
      accounts: [{ apiKey: 'k', apiSecret: 's', totpSecret: 'JBSWY3DPEHPK3PXP', ucc: '1' }],
      tickMs: 20,
    });
    const http = new GrowwHttp({ apiRoot: fake.url, bearer: 'not-a-session' });
    feed = createGrowwMarketFeed({
      wsRoot: fake.endpoints.wsRoot,
      http,
      instrumentOf: () => undefined,
      backoffMs: [20],
    });
    const health: FeedHealth['status'][] = [];
    feed.health$.subscribe((h) => health.push(h.status));
    feed.start();
    const tokenCalls = () =>
      fake?.requests.filter((r) => r.path.includes('/socket/token/create')).length ?? 0;
    await waitUntil(() => tokenCalls() >= 3);
    expect(fake.socket.connections).toBe(0);
    expect(health).toEqual(['down']);
  });
});
