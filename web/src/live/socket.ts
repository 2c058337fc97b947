// The browser's one Socket.IO connection, typed by the contract's event maps (ARCHITECTURE.md "Realtime contract").
// The JWT travels in the handshake's `auth`, never in the URL, so it stays out of proxy and access logs.
import { io, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents } from '@optionpilot/server/contract';
import { SESSION_EXPIRED_EVENT, type SessionExpiredDetail } from '../api/client';
import { browser } from '../lib/browser';
import { readToken } from '../lib/tokenStorage';
import { useSessionStore } from '../stores/session';

export type LiveSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** Connection lifecycle events Socket.IO emits on the client, next to the server's events. */
export interface SocketLifecycleEvents {
  connect: () => void;
  disconnect: (reason: string) => void;
  connect_error: (err: Error) => void;
}

export type LiveListenEvents = ServerToClientEvents & SocketLifecycleEvents;

/**
 * The part of a socket the live-data layer uses. The real `LiveSocket` satisfies it; tests pass a small fake, so
 * the polling/resync logic is exercised without a server.
 */
export interface LiveSocketLike {
  readonly connected: boolean;
  on<E extends keyof LiveListenEvents>(event: E, listener: LiveListenEvents[E]): unknown;
  connect(): unknown;
  disconnect(): unknown;
}

/** The bearer token the session keeps in `localStorage.token` (decisions.md), or null when signed out. */
export function readStoredToken(): string | null {
  return readToken();
}

/** Creates the typed socket for the current origin; it connects only when `connect()` is called. */
export function createLiveSocket(token: string): LiveSocketLike {
  const socket: LiveSocket = io({
    auth: { token },
    autoConnect: false,
    // The server refuses a bad token at the handshake; keep retrying with backoff so a server restart heals itself.
    reconnectionDelay: 1000,
    reconnectionDelayMax: 10_000,
  });
  // Socket.IO types a listener as a conditional type over the event name, which TypeScript cannot relate to a
  // generic `LiveListenEvents[E]` even though both come from the same contract maps; this one widening is the
  // bridge, and `LiveSocketLike.on` keeps every caller strictly typed.
  const on = socket.on.bind(socket) as (event: string, listener: (...args: never[]) => void) => unknown;
  return {
    get connected() {
      return socket.connected;
    },
    on: (event, listener) => on(event, listener),
    connect: () => socket.connect(),
    disconnect: () => socket.disconnect(),
  };
}

/**
 * What to do when the server says this session ended. An expiry is handled like a REST 401 (RootLayout: the
 * "Session expired" toast, back to `/`). Logout elsewhere or a password change: forget the session locally and
 * go to the landing page with a full navigation, which also drops every store, so nothing of the old session
 * survives.
 */
export function endRevokedSession(reason: string): void {
  if (reason === 'expired') {
    const detail: SessionExpiredDetail = { message: 'Your sign-in has expired. Please sign in again.' };
    window.dispatchEvent(new CustomEvent(SESSION_EXPIRED_EVENT, { detail }));
    return;
  }
  useSessionStore.getState().clearSession();
  browser.assign('/');
}
