// FEED=fyers: the server's market comes from Fyers' data socket (the fake's binary HSM frames) over the session of
// the FEED_ACCOUNT. Without a session the feed is down; when the operator connects Fyers the feed attaches,
// subscribes the NIFTY 50 index and NIFTY ticks reach the market view; a disconnect takes it down. Then the feed on
// its own against the fake: option quotes, acknowledgements, staleness, a dropped socket and the resubscription.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FeedHealth, Quote } from '@optionpilot/engine';
import { fyersModule } from '../../server/src/brokers/fyers';
import { NIFTY_INDEX_TOPIC } from '../../server/src/brokers/fyers/hsm';
import { createSecretBox, loadOrCreateKey } from '../../server/src/crypto';
import { saveBrokerCredentials, updateBrokerAccount } from '../../server/src/db';
import { createAccount } from '../../server/src/testing/accounts';
import { startTestServer, type TestServer } from '../../server/src/testing/server';
import { startFyersFake, type FyersFake, type FyersFakeApp } from '../fakes/fyers/server';
import { eventually } from './waiting';

const OPERATOR = 'operator@example.com';
const APP: FyersFakeApp = {
  appId: 'FYFEED1-100',
  secret: 'feedsecret01',
  fyId: 'XO00001',
  name: 'Operator',
  redirectUrl: 'http://127.0.0.1:9/broker/fyers/callback',
};

describe('FEED=fyers', () => {
  let fake: FyersFake;
  let t: TestServer;

  beforeAll(async () => {
    fake = await startFyersFake({ apps: [APP] });
    t = await startTestServer({
      env: {
        FEED: 'fyers',
        FEED_ACCOUNT: OPERATOR,
        FYERS_API_ROOT: fake.url,
        FYERS_LOGIN_URL: `${fake.url}/api/v3/generate-authcode`,
        FYERS_WS_ROOT: fake.wsUrl,
        FYERS_MASTER_ROOT: fake.url,
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('is down without the market-data account, streams NIFTY once it connects, and goes down on disconnect', async () => {
    const trading = t.server.deps.trading;
    expect(trading.feedHealth()).toMatchObject({ status: 'down' });
    expect(fake.hsm.connections).toBe(0);

    const operator = await createAccount(t, OPERATOR);
    const config = t.server.deps.config;
    const box = createSecretBox(loadOrCreateKey(config.dataDir, config.encryptionKey));
    const knex = t.server.deps.db.knex;
    await saveBrokerCredentials(knex, operator, {
      broker_type: 'fyers',
      api_key_enc: box.seal(APP.appId),
      api_secret_enc: box.seal(APP.secret),
      api_key_last4: '-100',
    });
    await updateBrokerAccount(knex, operator, {
      status: 'connected',
      access_token_enc: box.seal(fake.issueSession(APP.appId)),
      token_expires_at: Date.now() + 3_600_000,
      broker_user_id: APP.fyId,
      connected_at: Date.now(),
    });
    // What the broker callback route does after a login.
    await trading.onUserChanged(operator);

    await eventually(() => fake.hsm.subscribed.has(NIFTY_INDEX_TOPIC), 'the NIFTY 50 index subscription');
    await eventually(() => {
      fake.hsm.push({ index: 24_123.45 });
      return trading.marketTick()?.price === 24_123.45;
    }, 'a NIFTY tick from the Fyers data socket');
    expect(trading.feedHealth()).toMatchObject({ status: 'live' });

    await updateBrokerAccount(knex, operator, { status: 'disconnected', access_token_enc: null });
    await trading.onUserChanged(operator);
    expect(trading.feedHealth()).toMatchObject({ status: 'down' });
    await eventually(() => fake.hsm.connections === 0, 'the data socket to close');
  });
});

describe('the Fyers data feed at the fake', () => {
  let fake: FyersFake;
  beforeAll(async () => {
    fake = await startFyersFake({ apps: [{ ...APP, appId: 'FYFEED2-100' }], ackEvery: 2 });
  });
  afterAll(async () => {
    await fake.close();
  });

  it('quotes subscribed strikes, acknowledges, goes stale without ticks, and resubscribes after a dropped socket', async () => {
    const module = fyersModule({ endpoints: fake.endpoints, algoTag: 'OPALGO', now: Date.now });
    const instruments = await module.fetchInstruments();
    const byToken = new Map(instruments.map((i) => [i.token, i]));
    const option = fake.instruments.find((i) => i.strike === 24_000 && i.optionType === 'CE')!;
    const session = {
      accessToken: fake.issueSession('FYFEED2-100'),
      expiresAt: 0,
      accountId: '',
      accountName: '',
    };
    const credentials = { apiKey: 'FYFEED2-100', apiSecret: APP.secret };
    const feed = module.createFeed!({
      credentials,
      session,
      instrumentOf: (symbol) => (symbol === 'NIFTY01DEC2624000CE' ? byToken.get(option.fyToken) : undefined),
    });
    const health: FeedHealth[] = [];
    const quotes: Quote[] = [];
    const ticks: number[] = [];
    const subs = [
      feed.health$.subscribe((h) => health.push(h)),
      feed.quotes$.subscribe((q) => quotes.push(q)),
      feed.ticks$.subscribe((tick) => ticks.push(tick.price)),
    ];
    try {
      feed.start();
      await eventually(() => fake.hsm.subscribed.has(NIFTY_INDEX_TOPIC), 'the index subscription');
      feed.subscribe('NIFTY01DEC2624000CE');
      feed.subscribe('NIFTY01DEC2699999CE'); // not listed: ignored
      await eventually(
        () => fake.hsm.subscribed.has(`sf|nse_fo|${option.scripCode}`),
        'the option subscription',
      );
      fake.hsm.push({ index: 24_010.5, quotes: { [option.fyToken]: 121.35 } });
      await eventually(() => quotes.length > 0 && ticks.length > 0, 'the first prices');
      expect(ticks[0]).toBe(24_010.5);
      expect(quotes[0]).toMatchObject({ symbol: 'NIFTY01DEC2624000CE', ltp: 121.35, bid: 121.3, ask: 121.4 });
      // Updates after the snapshot; the fake asked for an acknowledgement every 2 messages.
      fake.hsm.push({ index: 24_011, quotes: { [option.fyToken]: 122 } });
      await eventually(() => ticks.at(-1) === 24_011 && quotes.at(-1)?.ltp === 122, 'an update');
      expect(fake.hsm.acks).toEqual([2]);

      // No tick for more than 5 s: stale.
      await eventually(() => health.at(-1)?.status === 'stale', 'the feed to go stale', 9_000);

      // Fyers drops the socket: down, then back with every subscription made again.
      fake.inject('drop_socket');
      await eventually(() => health.some((h) => h.status === 'down'), 'the feed to go down');
      fake.hsm.subscribed.clear();
      await eventually(
        () =>
          fake.hsm.subscribed.has(NIFTY_INDEX_TOPIC) &&
          fake.hsm.subscribed.has(`sf|nse_fo|${option.scripCode}`),
        'the resubscription after the reconnect',
      );
      fake.hsm.push({ index: 24_020 });
      await eventually(() => health.at(-1)?.status === 'live' && ticks.at(-1) === 24_020, 'live again');
    } finally {
      feed.stop();
      for (const s of subs) s.unsubscribe();
    }
  }, 30_000);
});
