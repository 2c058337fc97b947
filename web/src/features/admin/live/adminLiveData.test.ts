import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeSocket } from '../../../live/testing';
import { defaultControls, sampleAdminTrade, sampleControl, sampleLog, sampleSignal } from '../test/samples';
import { createAdminLiveData, type AdminLiveDataDeps } from './adminLiveData';
import { ADMIN_LIVE_PATHS } from './adminLivePaths';
import { controlValue, resetAdminLiveStore, useAdminLiveStore } from './adminLiveStore';

function setup(overrides: Partial<AdminLiveDataDeps> = {}) {
  const socket = new FakeSocket();
  const bodies: Record<string, unknown> = {
    [ADMIN_LIVE_PATHS.controls]: defaultControls(),
    [ADMIN_LIVE_PATHS.trades]: { items: [sampleAdminTrade()], total: 1, page: 1, pageSize: 50 },
    [ADMIN_LIVE_PATHS.signals]: { items: [sampleSignal()], total: 1, page: 1, pageSize: 50 },
    [ADMIN_LIVE_PATHS.logs]: { items: [sampleLog()], total: 1, page: 1, pageSize: 50 },
  };
  const get = vi.fn((path: string) => Promise.resolve(bodies[path]));
  const onSessionRevoked = vi.fn();
  const deps: AdminLiveDataDeps = {
    get,
    getToken: () => 'admin-jwt',
    createSocket: () => socket,
    onSessionRevoked,
    ...overrides,
  };
  const calls = (path: string) => get.mock.calls.filter(([p]) => p === path).length;
  return { socket, get, deps, calls, bodies, onSessionRevoked };
}

const store = useAdminLiveStore.getState;

describe('admin live data', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    resetAdminLiveStore();
  });
  afterEach(() => vi.useRealTimers());

  it('loads a first snapshot of every list and fills the store', async () => {
    const { deps, get } = setup();
    const live = createAdminLiveData(deps);
    await vi.advanceTimersByTimeAsync(0);
    expect(get).toHaveBeenCalledTimes(4);
    expect(controlValue(store(), 'tradingEnabled')).toBe('true');
    expect(store().activeTrades).toHaveLength(1);
    expect(store().signals).toHaveLength(1);
    expect(store().logs).toHaveLength(1);
    live.stop();
  });

  it('polls while the socket is down and stops polling once it connects, after one resync', async () => {
    const { deps, calls, socket } = setup();
    const live = createAdminLiveData(deps);
    socket.serverEmit('connect_error', new Error('down'));
    const before = calls(ADMIN_LIVE_PATHS.controls);
    await vi.advanceTimersByTimeAsync(9_000);
    expect(calls(ADMIN_LIVE_PATHS.controls) - before).toBe(3);
    expect(calls(ADMIN_LIVE_PATHS.logs)).toBe(1 + 1); // snapshot + one 5 s poll
    socket.serverConnect();
    const atConnect = calls(ADMIN_LIVE_PATHS.logs);
    expect(atConnect).toBe(3); // the resync
    await vi.advanceTimersByTimeAsync(30_000);
    expect(calls(ADMIN_LIVE_PATHS.logs)).toBe(atConnect);
    live.stop();
  });

  it('applies admin:* events from the admins room', () => {
    const { deps, socket } = setup();
    const live = createAdminLiveData(deps);
    socket.serverConnect();
    socket.serverEmit('admin:control', sampleControl('tradingEnabled', 'false', '2026-03-02T05:00:00.000Z'));
    socket.serverEmit('admin:signal', sampleSignal({ id: 9, timestamp: '2026-03-02T05:00:00.000Z' }));
    socket.serverEmit('admin:log', sampleLog({ id: 9, description: 'Trading paused' }));
    // Trades that changed together arrive in one frame; each row lands.
    socket.serverEmit('admin:trades', [
      sampleAdminTrade({ id: 9, timestamp: '2026-03-02T05:00:00.000Z' }),
      sampleAdminTrade({ id: 10, timestamp: '2026-03-02T05:00:01.000Z' }),
    ]);
    expect(controlValue(store(), 'tradingEnabled')).toBe('false');
    expect(store().signals[0]?.id).toBe(9);
    expect(store().logs.some((l) => l.description === 'Trading paused')).toBe(true);
    expect(store().activeTrades.map((t) => t.id)).toEqual(expect.arrayContaining([9, 10]));
    live.stop();
  });

  it('drops a poll answer that arrives after the socket reconnected', async () => {
    const pending: Array<(v: unknown) => void> = [];
    const { deps, socket } = setup();
    const get = vi.fn((path: string) =>
      path === ADMIN_LIVE_PATHS.controls
        ? new Promise<unknown>((resolve) => pending.push(resolve))
        : Promise.resolve([]),
    );
    const live = createAdminLiveData({ ...deps, get });
    socket.serverConnect();
    socket.serverEmit('admin:control', sampleControl('tradingEnabled', 'false', '2026-03-02T05:00:00.000Z'));
    pending[0]?.([sampleControl('tradingEnabled', 'true', '2026-03-02T06:00:00.000Z')]);
    await vi.advanceTimersByTimeAsync(0);
    expect(controlValue(store(), 'tradingEnabled')).toBe('false');
    live.stop();
  });

  it('ends the session when the server revokes it, and stays idle without a token', async () => {
    const { deps, socket, onSessionRevoked, get } = setup();
    createAdminLiveData(deps);
    socket.serverEmit('session:revoked', { reason: 'logout' });
    expect(onSessionRevoked).toHaveBeenCalledWith('logout');
    expect(socket.disconnectCalls).toBe(1);
    const n = get.mock.calls.length;
    await vi.advanceTimersByTimeAsync(10_000);
    expect(get.mock.calls.length).toBe(n);

    const idle = setup({ getToken: () => null });
    createAdminLiveData(idle.deps);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(idle.get).not.toHaveBeenCalled();
  });
});
