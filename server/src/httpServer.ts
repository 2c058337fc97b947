// The node http.Server under Koa and Socket.IO, with the two bounds a slow or greedy client meets before any
// middleware runs (issue 21): a deadline for receiving each whole request, and a cap on the connections one
// address holds open. Both act on the raw connection, where a trickled body would otherwise hold a socket and its
// buffers for Node's 5-minute default while Koa's body parser waits.
import { createServer, type RequestListener, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { addressGroup } from './auth/throttle';
import type { Logger } from './logger';

export interface HttpLimits {
  /** a client's time to send one whole request (headers and body); 408 and close past it */
  requestTimeoutMs: number;
  /** open connections per client address, loopback exempt; 0 = no cap */
  maxConnectionsPerIp: number;
}

/** Node checks its request deadlines on this interval; at most a second late, however long the deadline. */
const checkingIntervalMs = (timeoutMs: number) => Math.max(100, Math.min(1000, Math.floor(timeoutMs / 2)));

/** True for 127.0.0.0/8 and ::1 (also IPv4-mapped): the machine itself, e.g. a reverse proxy beside the app. */
export function isLoopback(address: string): boolean {
  return address === '::1' || /^(::ffff:)?127\./i.test(address);
}

/**
 * The http server for `listener` with the request deadline and (unless 0) the per-address connection cap, which
 * spares the addresses `exempt` says (loopback unless told otherwise).
 */
export function createBoundedServer(
  listener: RequestListener,
  limits: HttpLimits,
  logger: Logger,
  exempt: (address: string) => boolean = isLoopback,
): Server {
  const server = createServer(
    {
      // One deadline for headers and body: the headers deadline may not exceed the request's.
      requestTimeout: limits.requestTimeoutMs,
      headersTimeout: limits.requestTimeoutMs,
      connectionsCheckingInterval: checkingIntervalMs(limits.requestTimeoutMs),
    },
    listener,
  );
  if (limits.maxConnectionsPerIp > 0) {
    capConnectionsPerAddress(server, { max: limits.maxConnectionsPerIp, exempt, logger });
  }
  return server;
}

/**
 * Closes, as soon as it is accepted, every connection beyond `max` open from one address (IPv6 by /64). Counted at
 * the TCP peer, never from X-Forwarded-For: nothing of the request has been read yet, and behind a proxy every
 * peer is the proxy (so the cap is for servers reached directly). Logged once per address while it stays capped.
 */
export function capConnectionsPerAddress(
  server: Server,
  options: { max: number; exempt: (address: string) => boolean; logger: Logger },
): void {
  const open = new Map<string, number>();
  const warned = new Set<string>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress;
    if (address === undefined || options.exempt(address)) return;
    const group = addressGroup(address);
    const count = open.get(group) ?? 0;
    if (count >= options.max) {
      if (!warned.has(group)) {
        warned.add(group);
        options.logger.warn({ address: group, max: options.max }, 'connections per address capped');
      }
      socket.destroy();
      return;
    }
    open.set(group, count + 1);
    socket.once('close', () => {
      const left = (open.get(group) ?? 1) - 1;
      if (left > 0) open.set(group, left);
      else {
        open.delete(group);
        warned.delete(group);
      }
    });
  });
}
