// FEED=dhan: the server's market comes from Dhan's live market feed v2 (the fake's binary packets) over the session
// of the FEED_ACCOUNT. Without a session the feed is down (entries halt); when the operator connects Dhan the feed
// attaches at once (token and client id in the URL), subscribes the NIFTY 50 index (IDX_I 13, ticker mode), NIFTY
// ticks reach the market view in rupees from Dhan's float32, a dropped socket comes back with its subscriptions,
// and a disconnect takes the feed down.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeDhanTokens } from '../../server/src/brokers/dhan';
import { createSecretBox, loadOrCreateKey } from '../../server/src/crypto';
import { saveBrokerCredentials, updateBrokerAccount } from '../../server/src/db';
import { createAccount } from '../../server/src/testing/accounts';
import { startTestServer, type TestServer } from '../../server/src/testing/server';
import { startDhanFake, type DhanFake } from '../fakes/dhan/server';
import { DHAN_ACCOUNT } from './dhanHarness';
import { eventually } from './waiting';

const OPERATOR = 'operator@example.com';

describe('FEED=dhan', () => {
  let fake: DhanFake;
  let t: TestServer;

  beforeAll(async () => {
    fake = await startDhanFake({ accounts: [DHAN_ACCOUNT] });
    t = await startTestServer({
      env: {
        FEED: 'dhan',
        FEED_ACCOUNT: OPERATOR,
        DHAN_API_ROOT: fake.url,
        DHAN_LOGIN_URL: fake.endpoints.loginUrl,
        DHAN_WS_ROOT: fake.endpoints.wsRoot,
        DHAN_MASTER_ROOT: fake.url,
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('is down without the market-data account, streams NIFTY once it connects, survives a dropped socket, and goes down on disconnect', async () => {
    const trading = t.server.deps.trading;
    expect(trading.feedHealth()).toMatchObject({ status: 'down' });
    expect(fake.sockets.feedConnections()).toBe(0);

    const operator = await createAccount(t, OPERATOR);
    const config = t.server.deps.config;
    const box = createSecretBox(loadOrCreateKey(config.dataDir, config.encryptionKey));
    const knex = t.server.deps.db.knex;
    await saveBrokerCredentials(knex, operator, {
      broker_type: 'dhan',
      api_key_enc: box.seal(`${DHAN_ACCOUNT.clientId}:${DHAN_ACCOUNT.appId}`),
      api_secret_enc: box.seal(DHAN_ACCOUNT.appSecret),
      api_key_last4: 'pp01',
    });
    await updateBrokerAccount(knex, operator, {
      status: 'connected',
      access_token_enc: box.seal(
        encodeDhanTokens({
          accessToken: fake.issueToken(DHAN_ACCOUNT.clientId),
          clientId: DHAN_ACCOUNT.clientId,
        }),
      ),
      token_expires_at: Date.now() + 3_600_000,
      broker_user_id: DHAN_ACCOUNT.clientId,
      connected_at: Date.now(),
    });
    // What the connection routes do after a login.
    await trading.onUserChanged(operator);

    await eventually(() => fake.sockets.subscribed().has('IDX_I:13'), 'the NIFTY 50 index subscription');
    expect(fake.sockets.requests[0]).toEqual({
      RequestCode: 15,
      InstrumentCount: 1,
      InstrumentList: [{ ExchangeSegment: 'IDX_I', SecurityId: '13' }],
    });
    await eventually(() => {
      fake.sockets.push({ index: 24_123.45 });
      return trading.marketTick()?.price === 24_123.45;
    }, 'a NIFTY tick from the Dhan feed');
    expect(trading.feedHealth()).toMatchObject({ status: 'live' });

    const before = fake.sockets.handshakes.feed;
    fake.inject('drop_socket');
    await eventually(
      () => fake.sockets.handshakes.feed > before && fake.sockets.subscribed().has('IDX_I:13'),
      'the reconnect',
    );
    await eventually(() => {
      fake.sockets.push({ index: 24_150.5 });
      return trading.marketTick()?.price === 24_150.5;
    }, 'ticks after the reconnect');

    await updateBrokerAccount(knex, operator, { status: 'disconnected', access_token_enc: null });
    await trading.onUserChanged(operator);
    expect(trading.feedHealth()).toMatchObject({ status: 'down' });
    await eventually(() => fake.sockets.feedConnections() === 0, 'the feed socket to close');
  });
});
