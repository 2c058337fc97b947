// Two Socket.IO servers on the Redis Streams adapter (TEST_REDIS_URL, a stream and channels of their own): what a
// follower is asked for the engine reaches the leader, the kill switch's count comes back, and a snapshot the
// leader sends answers a socket connected to the follower.
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { Server as SocketServer } from 'socket.io';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../logger';
import { ROOMS } from '../contract';
import { createRealtime, sessionRoom, type RealtimeServer } from '../realtime/publisher';
import type { TradingService } from '../trading/api';
import { connected, openSocket, type TestSocket } from '../testing/socket';
import { connectRedis, type RedisLink } from './redis';
import { relayToLeader } from './relay';

const redisUrl = process.env.TEST_REDIS_URL;
const logger = createLogger({ level: 'silent' });

interface Node {
  http: HttpServer;
  io: RealtimeServer;
  redis: RedisLink;
  calls: string[];
  relayed: ReturnType<typeof relayToLeader>;
  url: string;
  /** whether this node leads now (a test may take the lead away) */
  role: { leading: boolean };
}

async function startNode(prefix: string, leader: boolean, flattened: number): Promise<Node> {
  const role = { leading: leader };
  const redis = connectRedis({ url: redisUrl as string, prefix, logger });
  const io: RealtimeServer = new SocketServer({ adapter: redis.adapter });
  const http = createServer();
  io.attach(http);
  // What the gateway does for a signed-in socket (user 1, the session named in the handshake).
  io.on('connection', (socket) => {
    const session = String((socket.handshake.auth as { session?: string }).session);
    void socket.join([ROOMS.user(1), sessionRoom(session)]);
  });
  await new Promise<void>((done) => http.listen(0, '127.0.0.1', done));
  const calls: string[] = [];
  const trading = {
    onUserChanged: async (id: number) => void calls.push(`userChanged ${id}`),
    reloadControls: async () => void calls.push('reloadControls'),
    flattenAll: async () => {
      calls.push('flattenAll');
      return flattened;
    },
    // The leader's view has a price and three one-minute candles; the follower's engine never ran.
    marketTick: () => (leader ? { price: 24_012.5 } : null),
    feedHealth: () => ({ status: leader ? 'live' : 'down' }),
    candles: (interval: number, limit: number) =>
      (leader && interval === 1 ? [{ close: 1 }, { close: 2 }, { close: 3 }] : []).slice(-limit),
    // The leader's engine holds trade 7 (₹312.5 up at the last quote) and trade 8 (not quoted yet).
    openPositions: () => (leader ? [{ positionId: '7' }, { positionId: '8' }] : []),
    markPnl: (tradeId: number) => (leader && tradeId === 7 ? 312.5 : null),
    botStatus: async (userId: number) => {
      calls.push(`botStatus ${userId}`);
      return leader
        ? { isRunning: true, mode: 'live' }
        : { isRunning: false, reason: 'Trading engine is not running' };
    },
    statsFor: async (userId: number) => {
      calls.push(`statsFor ${userId}`);
      return { openTrades: leader ? 1 : 0, todayPnl: leader ? 312.5 : 0 };
    },
  } as unknown as TradingService;
  const realtime = createRealtime(io);
  realtime.onSync('market', ({ socketId }) => {
    calls.push('sync market');
    realtime.toSocket(socketId, 'feed:health', { status: 'live', kind: 'sim', lastTickAt: null } as never);
  });
  const relayed = relayToLeader({
    io,
    trading,
    realtime,
    isLeader: () => role.leading,
    logger,
    marketCopyMs: 50,
    askTimeoutMs: 300,
  });
  const { port } = http.address() as AddressInfo;
  return { http, io, redis, calls, relayed, url: `http://127.0.0.1:${port}`, role };
}

describe.skipIf(!redisUrl)(
  redisUrl ? 'relay to the engine leader' : 'relay to the engine leader — SKIPPED: TEST_REDIS_URL is not set',
  () => {
    const prefix = `optionpilot-test:${randomBytes(6).toString('hex')}:`;
    let leader: Node;
    let follower: Node;
    let client: TestSocket;
    beforeAll(async () => {
      leader = await startNode(prefix, true, 3);
      follower = await startNode(prefix, false, 0);
      // the adapters see each other once each has announced itself on the stream
      await new Promise((done) => setTimeout(done, 300));
    });
    afterAll(async () => {
      client?.close();
      for (const node of [leader, follower]) {
        node.relayed.stop();
        await new Promise<void>((done) => void node.io.close(() => done()));
        await node.redis.close();
      }
      const redis = new Redis(redisUrl as string);
      await redis.del(`${prefix}socket.io`);
      await redis.quit();
    });

    const until = async (check: () => boolean) => {
      for (let i = 0; i < 100 && !check(); i += 1) await new Promise((done) => setTimeout(done, 20));
    };

    it('hands user changes and control reloads to the leader only', async () => {
      await follower.relayed.trading.onUserChanged(42);
      await follower.relayed.trading.reloadControls();
      await until(() => leader.calls.length >= 2);
      expect(leader.calls).toEqual(['userChanged 42', 'reloadControls']);
      expect(follower.calls).toEqual([]);
      leader.calls.length = 0;
    });

    it('runs the kill switch on the leader and returns its count', async () => {
      expect(await follower.relayed.trading.flattenAll()).toBe(3);
      expect(leader.calls).toEqual(['flattenAll']);
      expect(follower.calls).toEqual([]);
      leader.calls.length = 0;
    });

    it("answers a follower's socket with the leader's snapshot", async () => {
      client = await connected(openSocket(follower.url));
      const health = new Promise((done) => client.once('feed:health', done));
      const [socket] = await follower.io.fetchSockets();
      const handler = follower.relayed.realtime.syncHandler('market');
      await handler?.({ socketId: socket?.id ?? '', userId: 1, isAdmin: false });
      expect(await health).toMatchObject({ status: 'live' });
      expect(leader.calls).toEqual(['sync market']);
      expect(follower.calls).toEqual([]);
    });

    it('ends a session whose socket is on another node, and only that session', async () => {
      const open = async (session: string) => {
        const socket = openSocket(follower.url);
        (socket.auth as Record<string, string>).session = session;
        return connected(socket);
      };
      const ended = await open('s-ended');
      const kept = await open('s-kept');
      const revoked = new Promise((done) => ended.once('session:revoked', done));
      const dropped = new Promise((done) => ended.once('disconnect', done));
      await leader.relayed.realtime.endSessions({ userId: 1, reason: 'logout', sessionIds: ['s-ended'] });
      expect(await revoked).toEqual({ reason: 'logout' });
      await dropped;
      await new Promise((done) => setTimeout(done, 200));
      expect(kept.connected).toBe(true);
      ended.close();
      kept.close();
    });

    it("answers the market's REST reads on a follower from a copy of the leader's view", async () => {
      await until(() => follower.relayed.trading.marketTick() !== null);
      expect(follower.relayed.trading.marketTick()).toEqual({ price: 24_012.5 });
      expect(follower.relayed.trading.feedHealth()).toEqual({ status: 'live' });
      expect(follower.relayed.trading.candles(1, 2)).toEqual([{ close: 2 }, { close: 3 }]);
      expect(follower.relayed.trading.candles(5, 10)).toEqual([]);
    });

    it("answers a follower's open positions and their marks from the leader's copy", async () => {
      await until(() => follower.relayed.trading.openPositions().length > 0);
      expect(follower.relayed.trading.openPositions().map((p) => p.positionId)).toEqual(['7', '8']);
      expect(follower.relayed.trading.markPnl(7)).toBe(312.5);
      expect(follower.relayed.trading.markPnl(8)).toBeNull();
      expect(follower.relayed.trading.markPnl(9)).toBeNull();
    });

    it("asks the leader for a trader's bot status and stats, not the follower's idle engine", async () => {
      leader.calls.length = 0;
      expect(await follower.relayed.trading.botStatus(5)).toEqual({ isRunning: true, mode: 'live' });
      expect(await follower.relayed.trading.statsFor(5)).toEqual({ openTrades: 1, todayPnl: 312.5 });
      expect(leader.calls).toEqual(['botStatus 5', 'statsFor 5']);
      expect(follower.calls).toEqual([]);
      leader.calls.length = 0;
    });

    it('answers from the follower itself when no leader answers (a failover under way)', async () => {
      leader.role.leading = false;
      try {
        expect(await follower.relayed.trading.botStatus(5)).toEqual({
          isRunning: false,
          reason: 'Trading engine is not running',
        });
        expect(follower.calls).toEqual(['botStatus 5']);
        expect(leader.calls).toEqual([]);
      } finally {
        leader.role.leading = true;
        follower.calls.length = 0;
      }
    });
  },
);
