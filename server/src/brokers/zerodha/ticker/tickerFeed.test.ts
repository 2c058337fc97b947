import { firstValueFrom, filter } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FeedHealth } from '@optionpilot/engine';
import { startKiteFake, type KiteFake } from '../../../../../test/fakes/kite/server';
import type { BrokerInstrument } from '../../types';
import { KiteTickerFeed, NIFTY_INDEX_TOKEN } from './tickerFeed';

const app = {
  apiKey: 'kitekey01',
  apiSecret: 's',
  userId: 'AB1234',
  userName: 'A',
  redirectUrl: 'https://x/cb',
};

async function until(probe: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 300; i += 1) {
    if (probe()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('KiteTickerFeed', () => {
  let fake: KiteFake;
  let feed: KiteTickerFeed;
  let option: BrokerInstrument;

  beforeEach(async () => {
    fake = await startKiteFake({ apps: [app] });
    const row = fake.instruments.find((i) => i.strike === 24_000 && i.optionType === 'CE');
    if (!row) throw new Error('fixture');
    option = { ...row, token: String(row.token), tickSize: 0.05 };
    feed = new KiteTickerFeed({
      wsRoot: fake.wsUrl,
      apiKey: app.apiKey,
      accessToken: fake.issueSession(app.apiKey),
      instrumentOf: (s) => (s === 'NIFTY01DEC2624000CE' ? option : undefined),
      staleAfterMs: 300,
      backoffMs: [50],
    });
  });
  afterEach(async () => {
    feed.stop();
    await fake.close();
  });

  it('subscribes the index and options in full mode and turns packets into ticks and quotes', async () => {
    feed.subscribe('NIFTY01DEC2624000CE');
    feed.subscribe('NIFTY01DEC26NOPE');
    feed.start();
    await until(() => fake.ticker.subscriptions().size === 2, 'subscriptions');
    expect([...fake.ticker.subscriptions()]).toEqual([
      [NIFTY_INDEX_TOKEN, 'full'],
      [Number(option.token), 'full'],
    ]);
    const tick = firstValueFrom(feed.ticks$);
    const quote = firstValueFrom(feed.quotes$);
    const live = firstValueFrom(feed.health$.pipe(filter((h) => h.status === 'live')));
    fake.ticker.push({
      index: 24_012.35,
      quotes: { [Number(option.token)]: 121.45 },
      time: 1_764_000_000_000,
    });
    expect(await tick).toEqual({ time: 1_764_000_000_000, price: 24_012.35, volume: 0 });
    expect(await quote).toEqual({
      symbol: 'NIFTY01DEC2624000CE',
      time: 1_764_000_000_000,
      bid: 121.4,
      ask: 121.5,
      ltp: 121.45,
    });
    expect((await live).lastTickAt).not.toBeNull();
  });

  it('goes stale without ticks, down on a dropped socket, then reconnects and resubscribes', async () => {
    const states: FeedHealth['status'][] = [];
    feed.health$.subscribe((h) => states.push(h.status));
    feed.subscribe('NIFTY01DEC2624000CE');
    feed.start();
    await until(() => fake.ticker.subscriptions().size === 2, 'subscriptions');
    fake.ticker.push({ index: 24_000 });
    await until(() => states.includes('live'), 'live');
    await until(() => states.at(-1) === 'stale', 'stale');
    fake.inject('drop_socket');
    await until(() => states.at(-1) === 'down', 'down');
    await until(
      () => fake.ticker.connections === 1 && fake.ticker.subscriptions().size === 2,
      'resubscribed',
    );
    fake.ticker.push({ index: 24_001 });
    await until(() => states.at(-1) === 'live', 'live again');
    expect(states).toEqual(['down', 'live', 'stale', 'down', 'live']);
  });

  it('unsubscribes a symbol', async () => {
    feed.subscribe('NIFTY01DEC2624000CE');
    feed.start();
    await until(() => fake.ticker.subscriptions().size === 2, 'subscriptions');
    feed.unsubscribe('NIFTY01DEC2624000CE');
    await until(() => fake.ticker.subscriptions().size === 1, 'unsubscribed');
    expect(fake.ticker.subscriptions().has(NIFTY_INDEX_TOKEN)).toBe(true);
  });
});
