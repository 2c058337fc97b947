// FEED=groww: the server's market comes from Groww's socket (NATS over WebSocket) with the session of the
// FEED_ACCOUNT. Without a session the feed is down (entries halt); when the operator connects Groww the feed asks
// Groww for a socket token, signs in and subscribes the NIFTY 50's subject; ticks reach the market view in rupees and
// follow Groww's price; a dropped socket comes back by itself; a disconnect takes the feed down and closes the socket.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSecretBox, loadOrCreateKey } from '../../server/src/crypto';
import { saveBrokerCredentials, updateBrokerAccount } from '../../server/src/db';
import { createAccount } from '../../server/src/testing/accounts';
import { startTestServer, type TestServer } from '../../server/src/testing/server';
import { startGrowwFake, type GrowwFake } from '../fakes/groww/server';
import { GROWW_ACCOUNT } from './growwHarness';
import { eventually } from './waiting';

const OPERATOR = 'operator@example.com';

const tokenCalls = (fake: GrowwFake) =>
  fake.requests.filter((r) => r.path === '/v1/api/apex/v1/socket/token/create/');

describe('FEED=groww', () => {
  let fake: GrowwFake;
  let t: TestServer;

  beforeAll(async () => {
    fake = await startGrowwFake({ accounts: [GROWW_ACCOUNT], ltp: { index: 24_123.45, option: 120 } });
    t = await startTestServer({
      env: {
        FEED: 'groww',
        FEED_ACCOUNT: OPERATOR,
        GROWW_API_ROOT: fake.url,
        GROWW_LOGIN_URL: fake.endpoints.loginUrl,
        GROWW_WS_ROOT: fake.endpoints.wsRoot,
        GROWW_MASTER_ROOT: fake.url,
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('is down without the market-data account, ticks NIFTY once it connects, follows Groww’s price, and goes down on disconnect', async () => {
    const trading = t.server.deps.trading;
    expect(trading.feedHealth()).toMatchObject({ status: 'down' });
    expect(tokenCalls(fake)).toHaveLength(0);

    const operator = await createAccount(t, OPERATOR);
    const config = t.server.deps.config;
    const box = createSecretBox(loadOrCreateKey(config.dataDir, config.encryptionKey));
    const knex = t.server.deps.db.knex;
    await saveBrokerCredentials(knex, operator, {
      broker_type: 'groww',
      api_key_enc: box.seal(GROWW_ACCOUNT.apiKey),
      api_secret_enc: box.seal(GROWW_ACCOUNT.apiSecret),
      api_key_last4: 'ey01',
    });
    await updateBrokerAccount(knex, operator, {
      status: 'connected',
      access_token_enc: box.seal(fake.issueToken(GROWW_ACCOUNT.apiKey)),
      token_expires_at: Date.now() + 3_600_000,
      broker_user_id: GROWW_ACCOUNT.ucc,
      connected_at: Date.now(),
    });
    // What the connection routes do after a login.
    await trading.onUserChanged(operator);

    await eventually(() => trading.marketTick()?.price === 24_123.45, 'a NIFTY tick from the socket');
    expect(trading.feedHealth()).toMatchObject({ status: 'live' });
    expect(tokenCalls(fake)[0]?.headers['x-api-version']).toBe('1.0');
    expect(fake.socket.connections).toBe(1);
    expect(fake.requests.filter((r) => r.path === '/v1/live-data/ltp')).toHaveLength(0);

    fake.ltp = { index: 24_150.5, option: 121 };
    await eventually(() => trading.marketTick()?.price === 24_150.5, 'the next price');

    // Groww drops the socket: the feed signs in again (a new token) and the prices flow on.
    fake.inject('drop_socket');
    fake.ltp = { index: 24_175.25, option: 122 };
    await eventually(() => trading.marketTick()?.price === 24_175.25, 'a price after the reconnect');
    expect(fake.socket.connections).toBe(2);
    expect(tokenCalls(fake)).toHaveLength(2);

    await updateBrokerAccount(knex, operator, { status: 'disconnected', access_token_enc: null });
    await trading.onUserChanged(operator);
    expect(trading.feedHealth()).toMatchObject({ status: 'down' });
    await eventually(() => fake.socket.open === 0, 'the socket closed');
    await new Promise((r) => setTimeout(r, 1_000));
    expect(tokenCalls(fake)).toHaveLength(2);
  });
});
