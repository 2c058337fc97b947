// Scale-out failover with a live Zerodha position (issue 23): two nodes (cluster.ts) trade on the Kite fake's
// market (FEED=kite) for a trader whose Kite session is live. Node A leads, enters at the fake with the stop resting
// there (SL, TRIGGER PENDING); kill -9 of node A → node B takes the lock within 10 s, recovers the orders by asking
// the fake, and manages the position to its exit; the fake saw exactly one entry and one stop, never a second
// placement. Reported SKIPPED naming the variables when PostgreSQL or Redis is absent.
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSecretBox, decodeKey } from '@optionpilot/server/crypto/index';
import {
  closeDatabase,
  findUserByEmail,
  openDatabase,
  saveBrokerCredentials,
  saveTradingSettings,
  updateBrokerAccount,
} from '@optionpilot/server/db/index';
import { currentExpiry } from '../fakes/kite/currentExpiry';
import { startRisingMarket } from '../fakes/kite/marketWalk';
import { startKiteFake, type KiteFake } from '../fakes/kite/server';
import { api, logTail } from '../faults/product';
import { checkout, registerTrader, verify } from '../faults/traders';
import {
  createCluster,
  engineDetail,
  missingServices,
  sleep,
  suiteName,
  until,
  type Cluster,
} from './cluster';

const APP = {
  apiKey: 'kitescale01',
  apiSecret: 'kitescalesecret01',
  userId: 'SC1234',
  userName: 'Sana Iyer',
  redirectUrl: 'http://127.0.0.1:9/broker/zerodha/callback',
};
/** registerTrader(…, 0)'s e-mail: the trader is also the market-data account, as a solo operator's own */
const TRADER_EMAIL = 'fault0@trial.example.com';

describe.skipIf(missingServices.length > 0)(
  suiteName('scale-out failover with a live Zerodha position'),
  () => {
    let fake: KiteFake;
    let stopMarket: (() => void) | undefined;
    let cluster: Cluster;
    let socket: Socket | undefined;

    beforeAll(async () => {
      fake = await startKiteFake({
        apps: [APP],
        expiry: currentExpiry(),
        baseStrike: 24_000,
        autoFillPrice: 100,
      });
      // A steadily rising market: every one-minute candle is bullish, so a CALL arms and executes (as the e2e spec).
      stopMarket = startRisingMarket(fake);
      cluster = await createCluster({
        controls: { consecutiveCandles: '1', minMovement: '1', entryOffset: '1' },
        env: {
          FEED: 'kite',
          FEED_ACCOUNT: TRADER_EMAIL,
          KITE_API_ROOT: fake.url,
          KITE_LOGIN_URL: `${fake.url}/connect/login`,
          KITE_WS_ROOT: fake.wsUrl,
        },
      });
    });

    afterAll(async () => {
      socket?.close();
      stopMarket?.();
      await cluster?.close();
      await fake?.close();
    });

    /** Saves the trader's Kite app and a live session straight into the shared database, and chooses Live. */
    async function connectLive(): Promise<void> {
      const db = openDatabase({ dataDir: cluster.dirs[0] as string, databaseUrl: cluster.databaseUrl });
      try {
        const user = await findUserByEmail(db.knex, TRADER_EMAIL);
        if (!user) throw new Error('the trader is not registered');
        const box = createSecretBox(decodeKey(cluster.key, 'ENCRYPTION_KEY'));
        await saveBrokerCredentials(db.knex, user.id, {
          broker_type: 'zerodha',
          api_key_enc: box.seal(APP.apiKey),
          api_secret_enc: box.seal(APP.apiSecret),
          api_key_last4: APP.apiKey.slice(-4),
        });
        await updateBrokerAccount(db.knex, user.id, {
          status: 'connected',
          access_token_enc: box.seal(fake.issueSession(APP.apiKey)),
          token_expires_at: Date.now() + 3_600_000,
          broker_user_id: APP.userId,
          connected_at: Date.now(),
        });
        await saveTradingSettings(db.knex, user.id, { mode: 'live' });
      } finally {
        await closeDatabase(db);
      }
    }

    it('hands a live position with its resting stop to node B, with no order placed twice', async () => {
      const nodeA = await cluster.start(0);
      const nodeB = await cluster.start(1);
      const token = await registerTrader(nodeA.url, 0);
      expect((await verify(nodeA.url, await checkout(nodeA.url, token))).status).toBe(200);
      await connectLive();
      // Switching the bot on tells the engine the user changed: it loads the live session (and the feed starts).
      expect((await api(nodeA.url, 'PUT', '/api/user/bot', { token, body: { enabled: true } })).status).toBe(
        200,
      );

      socket = io(nodeB.url, { auth: { token }, transports: ['websocket'], reconnection: false });
      const trades: number[] = [];
      socket.on('user:trade', (trade: { id: number }) => trades.push(trade.id));

      const orders = () => fake.book.ordersOf(APP.userId);
      const stop = await until(
        'a live entry with its stop resting at the fake',
        async () =>
          orders().some((o) => o.transaction_type === 'BUY' && o.status === 'COMPLETE')
            ? (orders().find((o) => o.status === 'TRIGGER PENDING') ?? null)
            : null,
        150_000,
      ).catch((err: unknown) => {
        throw new Error(`${String(err)}; node A's log ends:\n${logTail(cluster.dirs[0] as string)}`);
      });
      await until('the trade pushed on node B', async () => (trades.length > 0 ? true : null), 10_000);
      const placedBefore = fake.orderRequests.placements;

      nodeA.child.kill('SIGKILL');
      const killedAt = Date.now();
      await nodeA.exited;
      const detail = await until(
        'node B leading with the position',
        async () => {
          const text = await engineDetail(nodeB.url);
          return /^1 open position/.test(text) ? text : null;
        },
        20_000,
      );
      const failoverMs = Date.now() - killedAt;
      console.log(`scale-out (Kite): node B leads ${failoverMs} ms after kill -9 of node A (${detail})`);
      expect(failoverMs).toBeLessThan(10_000);

      // The broker fills the resting stop: node B, which found the order again, closes the trade without an order.
      await sleep(2_000);
      await fake.fill(stop.order_id, stop.trigger_price);
      await until(
        'the live trade to close under node B',
        async () => {
          const rows = await cluster.query<{ n: string }>(
            "SELECT count(*) AS n FROM trades WHERE status = 'open'",
          );
          return Number(rows[0]?.n) === 0 ? true : null;
        },
        30_000,
      ).catch((err: unknown) => {
        throw new Error(`${String(err)}; node B's log ends:\n${logTail(cluster.dirs[1] as string)}`);
      });

      // Nothing was placed again at the broker: one entry, one stop (now filled), and no new placement by node B.
      expect(fake.orderRequests.placements).toBe(placedBefore);
      const book = orders();
      expect(book.filter((o) => o.transaction_type === 'BUY')).toHaveLength(1);
      expect(book.filter((o) => o.transaction_type === 'SELL').map((o) => o.status)).toEqual(['COMPLETE']);
    });
  },
);
