import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openLiveChannel, type LiveChannelOptions } from './liveChannel';
import type { ConnectionStatus } from './stores';
import { FakeSocket } from './testing';

type R = 'fast' | 'slow';

function setup(get: (path: string) => Promise<unknown> = (path) => Promise.resolve(`body of ${path}`)) {
  const socket = new FakeSocket();
  const applied: Array<[R, unknown]> = [];
  let connection: ConnectionStatus = 'idle';
  const getMock = vi.fn(get);
  const onSessionRevoked = vi.fn();
  const options: LiveChannelOptions<R> = {
    get: getMock,
    socket,
    paths: { fast: '/fast', slow: '/slow' },
    intervalsMs: { fast: 1000, slow: 5000 },
    apply: {
      fast: (body) => applied.push(['fast', body]),
      slow: (body) => applied.push(['slow', body]),
    },
    connection: () => connection,
    setConnection: (next) => {
      connection = next;
    },
    onSessionRevoked,
  };
  const channel = openLiveChannel(options);
  const calls = (path: string) => getMock.mock.calls.filter(([p]) => p === path).length;
  return { socket, applied, channel, calls, onSessionRevoked, state: () => connection };
}

describe('openLiveChannel', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('takes a snapshot, polls each resource at its own cadence until the socket connects, then resyncs once', async () => {
    const { socket, applied, calls, state } = setup();
    expect(state()).toBe('connecting');
    expect(socket.connectCalls).toBe(1);
    await vi.advanceTimersByTimeAsync(5000);
    expect(calls('/fast')).toBe(6); // snapshot + 5 polls
    expect(calls('/slow')).toBe(2);
    socket.serverConnect();
    expect(state()).toBe('connected');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(calls('/fast')).toBe(7); // one resync, no more polling
    expect(applied.at(-1)).toEqual(['slow', 'body of /slow']);
  });

  it('drops an answer that started before a reconnect, and refresh asks again at once', async () => {
    const pending: Array<(body: unknown) => void> = [];
    const { socket, applied, channel, calls } = setup(() => new Promise((resolve) => pending.push(resolve)));
    socket.serverConnect(); // a new epoch: the snapshot's answers are stale
    pending[0]?.('stale');
    await vi.advanceTimersByTimeAsync(0);
    expect(applied).toEqual([]);
    channel.refresh('fast');
    expect(calls('/fast')).toBe(3); // snapshot, resync, refresh
    pending.at(-1)?.('fresh');
    await vi.advanceTimersByTimeAsync(0);
    expect(applied).toEqual([['fast', 'fresh']]);
  });

  it('stops everything when the server revokes the session', async () => {
    const { socket, calls, onSessionRevoked, state } = setup();
    socket.serverEmit('connect_error', new Error('down'));
    socket.serverEmit('session:revoked', { reason: 'logout' });
    expect(onSessionRevoked).toHaveBeenCalledWith('logout');
    expect(state()).toBe('idle');
    expect(socket.disconnectCalls).toBe(1);
    const before = calls('/fast');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(calls('/fast')).toBe(before);
  });
});
