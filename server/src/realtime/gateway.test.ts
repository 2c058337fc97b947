import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { MarketTickDto, ServerToClientEvents } from '../contract';
import { createSession } from '../db';
import { registration, startTestServer, type TestServer } from '../testing/server';
import { connected, openSocket, type TestSocket } from '../testing/socket';

const tick: MarketTickDto = {
  symbol: 'NIFTY 50',
  price: 24_000,
  change: 10,
  changePercent: 0.04,
  open: 23_990,
  high: 24_010,
  low: 23_980,
  volume: 0,
  timestamp: '2026-01-05T04:00:00.000Z',
};

describe('realtime gateway', () => {
  let t: TestServer;
  const sockets: TestSocket[] = [];
  let userToken: string;
  let userId: number;
  let adminToken: string;

  const open = (token?: string): TestSocket => {
    const socket = openSocket(t.url, token);
    sockets.push(socket);
    return socket;
  };
  const refused = (socket: TestSocket) =>
    new Promise<string>((resolve, reject) => {
      socket.once('connect', () => reject(new Error('connected but should have been refused')));
      socket.once('connect_error', (err) => resolve(err.message));
    });
  const next = <E extends keyof ServerToClientEvents>(socket: TestSocket, event: E) =>
    new Promise<Parameters<ServerToClientEvents[E]>[0]>((resolve) => {
      socket.once(event, ((payload: Parameters<ServerToClientEvents[E]>[0]) => resolve(payload)) as never);
    });
  // Server-side membership is the observable truth of "joined"; it avoids racing on timing.
  const roomsOf = async (id: number) => {
    const all = await t.server.io.in(`user-${id}`).fetchSockets();
    return all.map((s) => [...s.rooms].sort());
  };

  beforeAll(async () => {
    t = await startTestServer();
    const reg = await t.request('POST', '/api/auth/register', { body: registration('socket') });
    userToken = reg.json.token as string;
    userId = (reg.json.user as { id: number }).id;
    const admin = await t.request('POST', '/api/init-admin');
    adminToken = (
      await t.request('POST', '/api/auth/admin-login', {
        body: { email: admin.json.email, password: admin.json.password },
      })
    ).json.token as string;
  });
  afterEach(() => {
    for (const s of sockets.splice(0)) s.disconnect();
  });
  afterAll(async () => {
    await t.close();
  });

  it('refuses connections without a token, with a bad token and with a revoked session', async () => {
    expect(await refused(open())).toMatch(/unauthenticated/);
    expect(await refused(open('not-a-jwt'))).toMatch(/unauthenticated/);
    const login = await t.request('POST', '/api/auth/login', {
      body: { email: 'ashasocket@example.com', password: 'Secret123' },
    });
    const token = login.json.token as string;
    await t.request('POST', '/api/auth/logout', { token });
    expect(await refused(open(token))).toMatch(/session_expired/);
  });

  it('joins market and the own user room; admins also join admins', async () => {
    const user = open(userToken);
    await connected(user);
    expect(await roomsOf(userId)).toEqual([expect.arrayContaining(['market', `user-${userId}`])]);
    expect((await roomsOf(userId))[0]).not.toContain('admins');

    const admin = open(adminToken);
    await connected(admin);
    const admins = await t.server.io.in('admins').fetchSockets();
    expect(admins).toHaveLength(1);
  });

  it("drops each connection's HTTP request once connected, and the socket still works", async () => {
    const user = open(userToken);
    await connected(user);
    const [socket] = await t.server.io.in(`user-${userId}`).fetchSockets();
    const local = t.server.io.of('/').sockets.get(socket?.id ?? '');
    expect(local?.conn.request).toBeNull();
    const gotTick = next(user, 'market:tick');
    t.server.deps.realtime.toMarket('market:tick', tick);
    expect(await gotTick).toEqual(tick);
  });

  it('publishes to the right rooms only', async () => {
    const user = open(userToken);
    const admin = open(adminToken);
    await Promise.all([connected(user), connected(admin)]);

    const userGotTick = next(user, 'market:tick');
    t.server.deps.realtime.toMarket('market:tick', tick);
    expect(await userGotTick).toEqual(tick);

    const adminLog = next(admin, 'admin:log');
    let userSawAdminEvent = false;
    user.on('admin:log', () => {
      userSawAdminEvent = true;
    });
    t.server.deps.realtime.toAdmins('admin:log', {
      id: 1,
      timestamp: tick.timestamp,
      eventType: 'other',
      description: 'hello admins',
      userId: null,
    });
    expect((await adminLog).description).toBe('hello admins');

    const stats = next(user, 'user:stats');
    const sample = {
      todayPnl: 1,
      todayRealisedPnl: 0.5,
      openPnl: 0.5,
      openTrades: 1,
      totalTrades: 2,
      winRate: 50,
      totalPnl: 3,
      totalRealisedPnl: 2.5,
    };
    t.server.deps.realtime.toUser(userId, 'user:stats', sample);
    expect(await stats).toEqual(sample);
    // The admin event was emitted before the user event on the same server, so the user would have seen it first.
    expect(userSawAdminEvent).toBe(false);
  });

  it('validates client messages: a bad payload gets an error ack, a good one ok', async () => {
    const user = open(userToken);
    await connected(user);
    const bad = await user.emitWithAck('sync:request', { topics: ['everything'] } as never);
    expect(bad).toMatchObject({ ok: false, error: 'validation_failed' });
    const notObject = await user.emitWithAck('sync:request', 'nonsense' as never);
    expect(notObject).toMatchObject({ ok: false, error: 'validation_failed' });
    const good = await user.emitWithAck('sync:request', { topics: ['market', 'stats'] });
    expect(good).toEqual({ ok: true });
    // The market module's snapshot goes to the asking socket only. (The trading service registers the real
    // handlers at startup; the lookup is replaced here so the test does not depend on live market data.)
    const realtime = t.server.deps.realtime;
    const registered = realtime.syncHandler.bind(realtime);
    realtime.syncHandler = (topic) =>
      topic === 'market'
        ? ({ socketId }) => realtime.toSocket(socketId, 'market:tick', tick)
        : registered(topic);
    const other = open(userToken);
    await connected(other);
    let otherGotTick = false;
    other.on('market:tick', () => {
      otherGotTick = true;
    });
    const snapshot = next(user, 'market:tick');
    expect(await user.emitWithAck('sync:request', { topics: ['market'] })).toEqual({ ok: true });
    expect(await snapshot).toEqual(tick);
    // A round trip on the other socket: anything emitted to it before would have arrived first (in-order delivery).
    await other.emitWithAck('sync:request', { topics: ['bot'] });
    expect(otherGotTick).toBe(false);
    realtime.syncHandler = registered;
    // The connection survives bad input.
    expect(user.connected).toBe(true);
  });

  it('tells a socket its session expired and disconnects it at the expiry, not before', async () => {
    // A session with 300 ms left (JWT_TTL's minimum is a minute): its row and token made the way login makes
    // them. The JWT's `exp` has whole seconds, so the session ends on a second boundary.
    const expiresAt = Math.ceil(t.clock.now() / 1000) * 1000 + 1000;
    t.clock.set(expiresAt - 300);
    const sessionId = `short-${userId}`;
    await createSession(t.server.deps.db.knex, { id: sessionId, user_id: userId, expires_at: expiresAt });
    const token = await t.server.deps.tokens.sign({ userId, sessionId, expiresAt });
    const socket = open(token);
    let revokedAt = 0;
    const revoked = new Promise<{ reason: string }>((resolve) =>
      socket.once('session:revoked', (info) => {
        revokedAt = t.clock.now();
        resolve(info);
      }),
    );
    const gone = new Promise<string>((resolve) => socket.once('disconnect', (reason) => resolve(reason)));
    await connected(socket);
    // The timer fires after the session's remaining 300 ms of real time, but the server's (manual) clock has not
    // moved: the session is still live, so the socket stays and the timer re-arms.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(socket.connected).toBe(true);
    t.clock.advance(300);
    expect(await revoked).toEqual({ reason: 'expired' });
    expect(await gone).toBe('io server disconnect');
    expect(revokedAt).toBeGreaterThanOrEqual(expiresAt);
    const stillHere = open(userToken);
    await connected(stillHere);
    expect(stillHere.connected).toBe(true);
  });

  it('budgets sync requests per socket and answers the excess with rate_limited', async () => {
    const socket = open(userToken);
    await connected(socket);
    const answers = [];
    for (let i = 0; i < 22; i++) answers.push(await socket.emitWithAck('sync:request', { topics: ['bot'] }));
    expect(answers.slice(0, 20).every((a) => a.ok)).toBe(true);
    expect(answers.slice(20)).toEqual([
      expect.objectContaining({ ok: false, error: 'rate_limited' }),
      expect.objectContaining({ ok: false, error: 'rate_limited' }),
    ]);
    // Another socket of the same user has its own budget, and the window reopens after a minute.
    const other = open(userToken);
    await connected(other);
    expect(await other.emitWithAck('sync:request', { topics: ['bot'] })).toEqual({ ok: true });
    t.clock.advance(60_001);
    expect(await socket.emitWithAck('sync:request', { topics: ['bot'] })).toEqual({ ok: true });
    expect(socket.connected).toBe(true);
  });

  it('disconnects the socket of a session when it logs out, telling it why', async () => {
    const login = await t.request('POST', '/api/auth/login', {
      body: { email: 'ashasocket@example.com', password: 'Secret123' },
    });
    const token = login.json.token as string;
    const mine = open(token);
    const other = open(userToken);
    await Promise.all([connected(mine), connected(other)]);
    const revoked = next(mine, 'session:revoked');
    const disconnected = new Promise<string>((resolve) =>
      mine.once('disconnect', (reason) => resolve(reason)),
    );
    expect((await t.request('POST', '/api/auth/logout', { token })).status).toBe(200);
    expect(await revoked).toEqual({ reason: 'logout' });
    expect(await disconnected).toBe('io server disconnect');
    expect(other.connected).toBe(true);
  });

  it('disconnects every socket of the user on a password change', async () => {
    const a = open(userToken);
    await connected(a);
    const gone = new Promise<void>((resolve) => a.once('disconnect', () => resolve()));
    const res = await t.request('POST', '/api/auth/change-password', {
      token: userToken,
      body: { currentPassword: 'Secret123', newPassword: 'Changed2026' },
    });
    expect(res.status).toBe(200);
    await gone;
    expect(await roomsOf(userId)).toEqual([]);
    const fresh = open(res.json.token as string);
    await connected(fresh);
  });

  // Last in this file: it moves the clock past every token's expiry.
  it('refuses a token whose session has expired (JWT_TTL), even though the session row was never revoked', async () => {
    const login = await t.request('POST', '/api/auth/login', {
      body: { email: 'ashasocket@example.com', password: 'Changed2026' },
    });
    const token = login.json.token as string;
    await connected(open(token));
    t.clock.advance(t.config.jwtTtlMs + 1000);
    expect(await refused(open(token))).toMatch(/unauthenticated|session_expired/);
  });
});
