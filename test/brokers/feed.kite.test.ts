// FEED=kite: the server's market comes from the Kite Ticker (the fake's binary packets) over the session of the
// FEED_ACCOUNT. Without a session the feed is down (entries halt); when the operator connects Zerodha the feed
// attaches at once, NIFTY ticks reach the market view with the index token 256265, and a disconnect takes it down.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSecretBox, loadOrCreateKey } from '../../server/src/crypto';
import { saveBrokerCredentials, updateBrokerAccount } from '../../server/src/db';
import { createAccount } from '../../server/src/testing/accounts';
import { startTestServer, type TestServer } from '../../server/src/testing/server';
import { startKiteFake, type KiteFake, type KiteFakeApp } from '../fakes/kite/server';
import { eventually } from './waiting';

const OPERATOR = 'operator@example.com';
const APP: KiteFakeApp = {
  apiKey: 'feedkey01',
  apiSecret: 'feedsecret01',
  userId: 'OP0001',
  userName: 'Operator',
  redirectUrl: 'http://127.0.0.1:9/broker/zerodha/callback',
};

describe('FEED=kite', () => {
  let fake: KiteFake;
  let t: TestServer;

  beforeAll(async () => {
    fake = await startKiteFake({ apps: [APP] });
    t = await startTestServer({
      env: {
        FEED: 'kite',
        FEED_ACCOUNT: OPERATOR,
        KITE_API_ROOT: fake.url,
        KITE_LOGIN_URL: `${fake.url}/connect/login`,
        KITE_WS_ROOT: fake.wsUrl,
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
    expect(fake.ticker.connections).toBe(0);

    const operator = await createAccount(t, OPERATOR);
    const config = t.server.deps.config;
    const box = createSecretBox(loadOrCreateKey(config.dataDir, config.encryptionKey));
    const knex = t.server.deps.db.knex;
    await saveBrokerCredentials(knex, operator, {
      broker_type: 'zerodha',
      api_key_enc: box.seal(APP.apiKey),
      api_secret_enc: box.seal(APP.apiSecret),
      api_key_last4: 'ey01',
    });
    await updateBrokerAccount(knex, operator, {
      status: 'connected',
      access_token_enc: box.seal(fake.issueSession(APP.apiKey)),
      token_expires_at: Date.now() + 3_600_000,
      broker_user_id: APP.userId,
      connected_at: Date.now(),
    });
    // What the broker callback route does after a login.
    await trading.onUserChanged(operator);

    await eventually(() => fake.ticker.subscriptions().has(256265), 'the NIFTY 50 index subscription');
    await eventually(() => {
      fake.ticker.push({ index: 24_123.45 });
      return trading.marketTick()?.price === 24_123.45;
    }, 'a NIFTY tick from the Kite Ticker');
    expect(trading.feedHealth()).toMatchObject({ status: 'live' });

    await updateBrokerAccount(knex, operator, { status: 'disconnected', access_token_enc: null });
    await trading.onUserChanged(operator);
    expect(trading.feedHealth()).toMatchObject({ status: 'down' });
    await eventually(() => fake.ticker.connections === 0, 'the ticker socket to close');
  });
});
