import { afterEach, describe, expect, it, vi } from 'vitest';
import { io } from 'socket.io-client';
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
    endRevokedSession();
    expect(window.localStorage.getItem('token')).toBeNull();
    expect(useSessionStore.getState().status).toBe('anonymous');
    expect(assign).toHaveBeenCalledWith('/');
  });
});
