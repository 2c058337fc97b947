import { afterEach, describe, expect, it, vi } from 'vitest';
import { io } from 'socket.io-client';
import { SESSION_EXPIRED_EVENT } from '../api/client';
import { browser } from '../lib/browser';
import { useSessionStore } from '../stores/session';
import { createLiveSocket, endRevokedSession } from './socket';

vi.mock('socket.io-client', () => ({
  io: vi.fn(() => ({ connected: true, on: vi.fn(), connect: vi.fn(), disconnect: vi.fn() })),
}));

describe('live socket', () => {
  afterEach(() => vi.restoreAllMocks());

  it('sends the token in the handshake auth and waits for an explicit connect', () => {
    const socket = createLiveSocket('jwt-123');
    expect(io).toHaveBeenCalledWith(
      expect.objectContaining({ auth: { token: 'jwt-123' }, autoConnect: false }),
    );
    expect(socket.connected).toBe(true);
    const real = vi.mocked(io).mock.results[0]?.value as { on: ReturnType<typeof vi.fn> };
    const listener = vi.fn();
    socket.on('user:stats', listener);
    expect(real.on).toHaveBeenCalledWith('user:stats', listener);
  });

  it('a revoked session forgets the token and goes to the landing page', () => {
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
    window.localStorage.setItem('token', 'jwt');
    useSessionStore.setState({ token: 'jwt', status: 'user' });
    endRevokedSession('logout');
    expect(window.localStorage.getItem('token')).toBeNull();
    expect(useSessionStore.getState().status).toBe('anonymous');
    expect(assign).toHaveBeenCalledWith('/');
  });

  it('an expired session is announced like a REST 401 (the root layout toasts and leaves)', () => {
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
    const seen: unknown[] = [];
    const listener = (event: Event) => seen.push((event as CustomEvent).detail);
    window.addEventListener(SESSION_EXPIRED_EVENT, listener);
    try {
      endRevokedSession('expired');
    } finally {
      window.removeEventListener(SESSION_EXPIRED_EVENT, listener);
    }
    expect(seen).toEqual([{ message: 'Your sign-in has expired. Please sign in again.' }]);
    expect(assign).not.toHaveBeenCalled();
  });
});
