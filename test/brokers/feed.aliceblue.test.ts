// FEED=aliceblue: the server's market comes from ANT's NOREN socket (the fake's JSON touchline frames) over the
// session of the FEED_ACCOUNT. Without a session the feed is down (entries halt); when the operator connects Alice
// Blue the feed makes a socket session, logs in with the double SHA-256 of the session, subscribes the NIFTY 50
// index (`NSE|26000`), NIFTY ticks reach the market view, a dropped socket comes back with its subscriptions, and
// a disconnect takes the feed down. The server is imported by path so a worktree tests its own server code.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeAliceTokens } from '../../server/src/brokers/aliceblue/login';
import { createSecretBox, loadOrCreateKey } from '../../server/src/crypto';
import { saveBrokerCredentials, updateBrokerAccount } from '../../server/src/db';
import { createAccount } from '../../server/src/testing/accounts';
import { startTestServer, type TestServer } from '../../server/src/testing/server';
import { startAliceFake, type AliceFake } from '../fakes/aliceblue/server';
import { ALICE_ACCOUNT } from './aliceblueHarness';
import { eventually } from './waiting';

const OPERATOR = 'operator@example.com';

describe('FEED=aliceblue', () => {
  let fake: AliceFake;
  let t: TestServer;

  beforeAll(async () => {
    fake = await startAliceFake({ accounts: [ALICE_ACCOUNT] });
    t = await startTestServer({
      env: {
        FEED: 'aliceblue',
        FEED_ACCOUNT: OPERATOR,
        ALICEBLUE_API_ROOT: fake.url,
        ALICEBLUE_LOGIN_URL: `${fake.url}/`,
        ALICEBLUE_WS_ROOT: fake.endpoints.wsRoot,
        ALICEBLUE_MASTER_ROOT: fake.url,
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
    expect(fake.sockets.logins.ok).toBe(0);

    const operator = await createAccount(t, OPERATOR);
    const config = t.server.deps.config;
    const box = createSecretBox(loadOrCreateKey(config.dataDir, config.encryptionKey));
    const knex = t.server.deps.db.knex;
    await saveBrokerCredentials(knex, operator, {
      broker_type: 'aliceblue',
      api_key_enc: box.seal(ALICE_ACCOUNT.appCode),
      api_secret_enc: box.seal(ALICE_ACCOUNT.apiSecret),
      api_key_last4: 'DE01',
    });
    const userSession = fake.issueSession(ALICE_ACCOUNT.userId);
    await updateBrokerAccount(knex, operator, {
      status: 'connected',
      access_token_enc: box.seal(encodeAliceTokens({ userId: ALICE_ACCOUNT.userId, userSession })),
      token_expires_at: Date.now() + 3_600_000,
      broker_user_id: ALICE_ACCOUNT.userId,
      connected_at: Date.now(),
    });
    // What the connection routes do after a login.
    await trading.onUserChanged(operator);

    await eventually(() => fake.sockets.subscribed().has('NSE|26000'), 'the NIFTY 50 index subscription');
    expect(fake.sockets.logins).toMatchObject({ ok: 1, refused: 0 });
    expect(fake.requests.some((r) => r.path.endsWith('/ws/createSocketSess'))).toBe(true);
    expect(JSON.parse(fake.sockets.subscriptions[0] ?? '{}')).toMatchObject({ t: 't' });
    await eventually(() => {
      fake.sockets.push({ index: 24_123.45 });
      return trading.marketTick()?.price === 24_123.45;
    }, 'a NIFTY tick from the NOREN socket');
    expect(trading.feedHealth()).toMatchObject({ status: 'live' });

    // ANT drops the socket: the feed logs in again and subscribes the index again.
    fake.inject('drop_socket');
    await eventually(
      () => fake.sockets.logins.ok >= 2 && fake.sockets.subscribed().has('NSE|26000'),
      'the reconnect',
    );
    await eventually(() => {
      fake.sockets.push({ index: 24_150.5 });
      return trading.marketTick()?.price === 24_150.5;
    }, 'ticks after the reconnect');

    await updateBrokerAccount(knex, operator, { status: 'disconnected', access_token_enc: null });
    await trading.onUserChanged(operator);
    expect(trading.feedHealth()).toMatchObject({ status: 'down' });
    await eventually(() => fake.sockets.subscribed().size === 0, 'the NOREN socket to close');
  });
});
