import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLiveData, RESOURCE_PATHS, startLiveData, stopLiveData, type LiveDataDeps } from './liveData';
import { notifications } from '@mantine/notifications';
import { IP_BLOCKED_BROKER } from '../features/broker/brokerFixtures';
import { resetLiveStore, useLiveStore } from './stores';
import {
  FakeSocket,
  sampleBot,
  sampleCandle,
  sampleStats,
  sampleStrategy,
  sampleTick,
  sampleTrade,
} from './testing';

const NOW = Date.parse('2026-03-02T05:00:01.000Z');

function setup(overrides: Partial<LiveDataDeps> = {}) {
  const socket = new FakeSocket();
  const bodies: Record<string, unknown> = {
    [RESOURCE_PATHS.market]: sampleTick(),
    [RESOURCE_PATHS.bot]: sampleBot(),
    [RESOURCE_PATHS.strategy]: sampleStrategy(),
    [RESOURCE_PATHS.stats]: sampleStats(),
    [RESOURCE_PATHS.trades]: [sampleTrade()],
    [RESOURCE_PATHS.candles]: [sampleCandle()],
  };
  const get = vi.fn((path: string) => Promise.resolve(bodies[path]));
  const onSessionRevoked = vi.fn();
  const createSocket = vi.fn(() => socket);
  const deps: LiveDataDeps = {
    get,
    getToken: () => 'jwt-token',
    createSocket,
    onSessionRevoked,
    now: () => NOW,
    ...overrides,
  };
  const calls = (path: string) => get.mock.calls.filter(([p]) => p === path).length;
  return { socket, get, deps, calls, bodies, onSessionRevoked, createSocket };
}

describe('live data lifecycle', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    resetLiveStore();
  });
  afterEach(() => {
    stopLiveData();
    vi.useRealTimers();
  });

  it('does nothing at import time and opens the socket with the stored token on start', () => {
    const { deps, createSocket, socket, get } = setup();
    expect(createSocket).not.toHaveBeenCalled();
    startLiveData(deps);
    expect(createSocket).toHaveBeenCalledWith('jwt-token');
    expect(socket.connectCalls).toBe(1);
    expect(get).toHaveBeenCalledTimes(Object.keys(RESOURCE_PATHS).length); // first snapshot
    // A second start while running must not open a second socket.
    startLiveData(deps);
    expect(createSocket).toHaveBeenCalledTimes(1);
  });

  it('stays idle without a token', () => {
    const { deps, createSocket, get } = setup({ getToken: () => null });
    createLiveData(deps);
    vi.advanceTimersByTime(10_000);
    expect(createSocket).not.toHaveBeenCalled();
    expect(get).not.toHaveBeenCalled();
    expect(useLiveStore.getState().connection).toBe('idle');
  });

  it('polls at the spec intervals while the socket is down', async () => {
    const { deps, calls, socket } = setup();
    createLiveData(deps);
    socket.serverEmit('connect_error', new Error('xhr poll error'));
    expect(useLiveStore.getState().connection).toBe('disconnected');
    const before = {
      market: calls(RESOURCE_PATHS.market),
      bot: calls(RESOURCE_PATHS.bot),
      strategy: calls(RESOURCE_PATHS.strategy),
      stats: calls(RESOURCE_PATHS.stats),
      trades: calls(RESOURCE_PATHS.trades),
    };
    await vi.advanceTimersByTimeAsync(15_000);
    expect(calls(RESOURCE_PATHS.market) - before.market).toBe(15);
    expect(calls(RESOURCE_PATHS.bot) - before.bot).toBe(5);
    expect(calls(RESOURCE_PATHS.strategy) - before.strategy).toBe(5);
    expect(calls(RESOURCE_PATHS.stats) - before.stats).toBe(3);
    expect(calls(RESOURCE_PATHS.trades) - before.trades).toBe(3);
    const state = useLiveStore.getState();
    expect(state.tick?.price).toBe(24_512.35);
    expect(state.stats?.totalTrades).toBe(12);
    expect(state.bot?.isRunning).toBe(true);
    expect(state.strategy?.params.stopLoss).toBe(20);
    expect(state.trades).toHaveLength(1);
    expect(state.candles[1]).toHaveLength(1);
  });

  it('stops polling once connected and resynchronises from REST exactly once', async () => {
    const { deps, calls, socket } = setup();
    createLiveData(deps);
    await vi.advanceTimersByTimeAsync(2_000);
    socket.serverConnect();
    expect(useLiveStore.getState().connection).toBe('connected');
    const atConnect = calls(RESOURCE_PATHS.market);
    await vi.advanceTimersByTimeAsync(30_000);
    // Only the resync request, no polling afterwards.
    expect(calls(RESOURCE_PATHS.market)).toBe(atConnect);
    expect(calls(RESOURCE_PATHS.stats)).toBe(2); // start snapshot + resync
  });

  it('polls again after a drop and resyncs on reconnect', async () => {
    const { deps, calls, socket, bodies } = setup();
    createLiveData(deps);
    socket.serverConnect();
    await vi.advanceTimersByTimeAsync(0);
    socket.serverDrop();
    expect(useLiveStore.getState().connection).toBe('disconnected');
    const beforeDrop = calls(RESOURCE_PATHS.bot);
    await vi.advanceTimersByTimeAsync(6_000);
    expect(calls(RESOURCE_PATHS.bot) - beforeDrop).toBe(2);

    // While away, a trade closed; the reconnect snapshot must bring it in.
    bodies[RESOURCE_PATHS.trades] = [sampleTrade({ status: 'closed', exitPrice: 160.5, pnl: 2600 })];
    const beforeReconnect = calls(RESOURCE_PATHS.trades);
    socket.serverConnect();
    await vi.advanceTimersByTimeAsync(0);
    expect(calls(RESOURCE_PATHS.trades) - beforeReconnect).toBe(1);
    expect(useLiveStore.getState().trades[0]?.status).toBe('closed');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(calls(RESOURCE_PATHS.trades) - beforeReconnect).toBe(1);
  });

  it('drops a poll answer that arrives after the socket reconnected', async () => {
    const pendingStats: Array<(v: unknown) => void> = [];
    const { deps, socket } = setup();
    const slowGet = vi.fn((path: string) =>
      path === RESOURCE_PATHS.stats
        ? new Promise<unknown>((resolve) => {
            pendingStats.push(resolve);
          })
        : Promise.resolve(undefined),
    );
    createLiveData({ ...deps, get: slowGet });
    socket.serverConnect();
    socket.serverEmit('user:stats', sampleStats({ totalTrades: 99 }));
    // The start snapshot's stats request was still pending; it answers late with old numbers.
    expect(pendingStats).toHaveLength(2); // start snapshot + resync
    pendingStats[0]?.(sampleStats({ totalTrades: 1 }));
    await vi.advanceTimersByTimeAsync(0);
    expect(useLiveStore.getState().stats?.totalTrades).toBe(99);
  });

  it('feeds socket events into the store and upserts trades by id, newest first', () => {
    const { deps, socket } = setup();
    createLiveData(deps);
    socket.serverConnect();
    socket.serverEmit('market:tick', sampleTick({ price: 24_600, timestamp: '2026-03-02T05:00:05.000Z' }));
    socket.serverEmit('user:trade', sampleTrade({ id: 1 }));
    socket.serverEmit('user:trade', sampleTrade({ id: 2, timestamp: '2026-03-02T04:30:00.000Z' }));
    socket.serverEmit('user:trade', sampleTrade({ id: 1, status: 'closed', exitPrice: 150, pnl: 1917.5 }));
    socket.serverEmit('bot:status', { isRunning: false, reason: 'Outside market hours' });
    socket.serverEmit('feed:health', { source: 'sim', status: 'stale', lastTickAt: null });
    const s = useLiveStore.getState();
    expect(s.tick?.price).toBe(24_600);
    expect(s.trades.map((t) => [t.id, t.status])).toEqual([
      [2, 'open'],
      [1, 'closed'],
    ]);
    expect(s.bot).toMatchObject({ isRunning: false, reason: 'Outside market hours' });
    expect(s.feedHealth?.status).toBe('stale');
  });

  it('draws the forming candle from market:tick and the closed one from market:candle', () => {
    const { deps, socket } = setup();
    createLiveData(deps);
    socket.serverConnect();
    const minute = Date.parse('2026-03-02T05:00:00.000Z');
    const forming = sampleCandle({ time: minute, close: 24_600, closed: false });
    socket.serverEmit('market:tick', {
      ...sampleTick({ price: 24_600, timestamp: '2026-03-02T05:00:05.000Z' }),
      candle: forming,
    });
    const s = useLiveStore.getState();
    expect(s.tick?.price).toBe(24_600);
    // The store keeps the tick's figures only; the candle went to the chart's series.
    expect(s.tick).not.toHaveProperty('candle');
    expect(s.candles[1]?.at(-1)).toEqual(forming);

    socket.serverEmit('market:tick', {
      ...sampleTick({ price: 24_610, timestamp: '2026-03-02T05:00:06.000Z' }),
      candle: { ...forming, high: 24_610, close: 24_610 },
    });
    expect(useLiveStore.getState().candles[1]?.at(-1)).toMatchObject({ time: minute, close: 24_610 });

    // A tick without a forming candle (before the first one of the session) leaves the series alone.
    socket.serverEmit('market:tick', sampleTick({ price: 24_620, timestamp: '2026-03-02T05:00:07.000Z' }));
    socket.serverEmit('market:candle', { ...forming, high: 24_620, close: 24_620, closed: true });
    const series = useLiveStore.getState().candles[1] ?? [];
    expect(series.filter((c) => c.time === minute)).toEqual([
      { ...forming, high: 24_620, close: 24_620, closed: true },
    ]);
  });

  it("takes an admin's strategy change from the socket, master switch included", async () => {
    const { deps, socket } = setup();
    createLiveData(deps);
    socket.serverConnect();
    await vi.advanceTimersByTimeAsync(0);
    expect(useLiveStore.getState().bot?.globalTradingEnabled).toBe(true);
    socket.serverEmit('bot:status', { isRunning: false, reason: 'Trading paused by admin' });
    socket.serverEmit(
      'strategy:info',
      sampleStrategy({ tradingEnabled: false, putEnabled: false, stopLoss: 25 }),
    );
    const s = useLiveStore.getState();
    expect(s.strategy?.params).toMatchObject({ tradingEnabled: false, putEnabled: false, stopLoss: 25 });
    // bot:status carries no master switch; the strategy's tradingEnabled is it.
    expect(s.bot).toMatchObject({ isRunning: false, globalTradingEnabled: false });
  });

  it('takes a reviewed payment request and the new subscription from the socket', () => {
    const { deps, socket } = setup();
    createLiveData(deps);
    socket.serverConnect();
    const request = {
      id: 5,
      amount: 5898.82,
      amountPaise: 589_882,
      utrNumber: '123456789012',
      method: 'upi' as const,
      status: 'approved' as const,
      createdAt: '2026-03-02T05:00:00.000Z',
      approvedAt: '2026-03-02T05:10:00.000Z',
      reviewedAt: '2026-03-02T05:10:00.000Z',
      adminNotes: null,
      paymentScreenshot: null,
      plan: null,
      user: { id: 7, firstName: 'Asha', lastName: 'Rao', email: 'asha@example.com' },
    };
    socket.serverEmit('user:payment-request', request);
    socket.serverEmit('user:payment-request', { ...request, id: 4, status: 'rejected' });
    socket.serverEmit('user:subscription', {
      status: 'active',
      plan: null,
      startDate: '2026-03-02T05:10:00.000Z',
      endDate: '2026-04-02T05:10:00.000Z',
      amount: 5898.82,
      amountPaise: 589_882,
      daysLeft: 31,
    });
    const s = useLiveStore.getState();
    // The older request (id 4) arriving late does not replace the newest one.
    expect(s.paymentRequest).toMatchObject({ id: 5, status: 'approved' });
    expect(s.subscription?.status).toBe('active');
  });

  it('ends the session when the server revokes it and stops polling', async () => {
    const { deps, socket, onSessionRevoked, get } = setup();
    createLiveData(deps);
    socket.serverEmit('connect_error', new Error('down'));
    socket.serverEmit('session:revoked', { reason: 'logout' });
    expect(onSessionRevoked).toHaveBeenCalledWith('logout');
    expect(socket.disconnectCalls).toBe(1);
    const n = get.mock.calls.length;
    await vi.advanceTimersByTimeAsync(10_000);
    expect(get.mock.calls.length).toBe(n);
  });

  it('stopLiveData disconnects and stops polling', async () => {
    const { deps, socket, get } = setup();
    startLiveData(deps);
    stopLiveData();
    expect(socket.disconnectCalls).toBe(1);
    expect(useLiveStore.getState().connection).toBe('idle');
    const n = get.mock.calls.length;
    await vi.advanceTimersByTimeAsync(10_000);
    expect(get.mock.calls.length).toBe(n);
  });

  it('marks the feed stale from an old polled tick', async () => {
    const { deps, socket, bodies } = setup();
    bodies[RESOURCE_PATHS.market] = sampleTick({ timestamp: '2026-03-02T04:59:00.000Z' });
    createLiveData(deps);
    socket.serverEmit('connect_error', new Error('down'));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(useLiveStore.getState().feedHealth?.status).toBe('stale');
  });

  it('announces an IP block once with a toast naming the IP, and every broker push to the views', () => {
    const show = vi.spyOn(notifications, 'show');
    const { deps, socket } = setup();
    createLiveData(deps);
    socket.serverEmit('connect');
    const blocked = { ...IP_BLOCKED_BROKER };
    const before = useLiveStore.getState().brokerChanges;
    socket.serverEmit('user:broker', blocked);
    socket.serverEmit('user:broker', blocked);
    expect(useLiveStore.getState().brokerChanges).toBe(before + 2);
    const toasts = show.mock.calls.filter(([n]) => n.title === 'IP not allowed');
    expect(toasts).toHaveLength(1);
    expect(String(toasts[0]?.[0].message)).toContain('203.0.113.77');
    // Resumed, then blocked again: a new block is announced again.
    socket.serverEmit('user:broker', { ...blocked, session: 'connected', lastError: null });
    socket.serverEmit('user:broker', blocked);
    expect(show.mock.calls.filter(([n]) => n.title === 'IP not allowed')).toHaveLength(2);
  });
});
