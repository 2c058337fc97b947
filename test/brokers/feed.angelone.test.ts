// FEED=angelone: the server's market comes from SmartStream 2.0 (the fake's binary packets) over the session of the
// FEED_ACCOUNT. Without a session the feed is down (entries halt); when the operator connects Angel One the feed
// attaches at once, subscribes the NIFTY 50 index (token 99926000, LTP mode), NIFTY ticks reach the market view in
// rupees from Angel's int64 paise, a dropped socket comes back
// with its subscriptions, and a disconnect takes the feed down.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeAngelTokens } from '../../server/src/brokers/angelone/session';
import { createSecretBox, loadOrCreateKey } from '../../server/src/crypto';
import { saveBrokerCredentials, updateBrokerAccount } from '../../server/src/db';
import { createAccount } from '../../server/src/testing/accounts';
import { startTestServer, type TestServer } from '../../server/src/testing/server';
import { startAngelFake, type AngelFake } from '../fakes/angelone/server';
import { ANGEL_ACCOUNT } from './angeloneHarness';
import { eventually } from './waiting';

const OPERATOR = 'operator@example.com';

describe('FEED=angelone', () => {
  let fake: AngelFake;
  let t: TestServer;

  beforeAll(async () => {
    fake = await startAngelFake({ accounts: [ANGEL_ACCOUNT] });
    t = await startTestServer({
      env: {
        FEED: 'angelone',
        FEED_ACCOUNT: OPERATOR,
        ANGELONE_API_ROOT: fake.url,
        ANGELONE_LOGIN_URL: `${fake.url}/publisher-login`,
        ANGELONE_WS_ROOT: fake.wsUrl,
        ANGELONE_MASTER_ROOT: fake.url,
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
    expect(fake.sockets.streamConnections).toBe(0);

    const operator = await createAccount(t, OPERATOR);
    const config = t.server.deps.config;
    const box = createSecretBox(loadOrCreateKey(config.dataDir, config.encryptionKey));
    const knex = t.server.deps.db.knex;
    await saveBrokerCredentials(knex, operator, {
      broker_type: 'angelone',
      api_key_enc: box.seal(ANGEL_ACCOUNT.apiKey),
      api_secret_enc: box.seal('angel-secret'),
      api_key_last4: 'ey01',
    });
    const issued = fake.issueSession(ANGEL_ACCOUNT.clientCode);
    await updateBrokerAccount(knex, operator, {
      status: 'connected',
      access_token_enc: box.seal(
        encodeAngelTokens({
          jwt: issued.jwt,
          feedToken: issued.feedToken,
          clientCode: ANGEL_ACCOUNT.clientCode,
        }),
      ),
      token_expires_at: Date.now() + 3_600_000,
      broker_user_id: ANGEL_ACCOUNT.clientCode,
      connected_at: Date.now(),
    });
    // What the connection routes do after a login.
    await trading.onUserChanged(operator);

    await eventually(() => fake.sockets.subscribed().has('99926000'), 'the NIFTY 50 index subscription');
    expect(fake.sockets.requests[0]).toMatchObject({
      action: 1,
      params: { mode: 1, tokenList: [{ exchangeType: 1, tokens: ['99926000'] }] },
    });
    await eventually(() => {
      // 24,123.45 goes as the int64 2412345 (paise).
      fake.sockets.push({ index: 24_123.45 });
      return trading.marketTick()?.price === 24_123.45;
    }, 'a NIFTY tick from SmartStream');
    expect(trading.feedHealth()).toMatchObject({ status: 'live' });

    // Angel drops the socket: the feed reconnects and subscribes the index again.
    const before = fake.sockets.handshakes.stream;
    fake.inject('drop_socket');
    await eventually(
      () => fake.sockets.handshakes.stream > before && fake.sockets.subscribed().has('99926000'),
      'the reconnect',
    );
    await eventually(() => {
      fake.sockets.push({ index: 24_150.5 });
      return trading.marketTick()?.price === 24_150.5;
    }, 'ticks after the reconnect');

    await updateBrokerAccount(knex, operator, { status: 'disconnected', access_token_enc: null });
    await trading.onUserChanged(operator);
    expect(trading.feedHealth()).toMatchObject({ status: 'down' });
    await eventually(() => fake.sockets.streamConnections === 0, 'the SmartStream socket to close');
  });
});
