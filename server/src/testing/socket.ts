// Socket.IO clients for tests, opened the way the web app opens them (WebSocket only, one connection each, no
// reconnection: a dropped socket must show up as dropped, not be replaced).
import { io, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents } from '../contract';

export type TestSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** Starts connecting to `url` with `token` in the handshake (none: no `auth.token`); does not wait. */
export function openSocket(url: string, token?: string): TestSocket {
  return io(url, {
    auth: token === undefined ? {} : { token },
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
  });
}

/** Resolves with the socket once it is connected; rejects with the server's refusal. */
export function connected(socket: TestSocket): Promise<TestSocket> {
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}
