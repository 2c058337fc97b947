// The one Redis connection set of a node in a scale-out install (REDIS_URL): the Socket.IO adapter, so an emit to a
// room reaches that room's sockets on every node, and the shared rate limiter. The adapter is the official
// Redis Streams one (docs/architecture-notes.md "Scale-out"): a node that loses Redis for a moment resumes reading
// the stream where it stopped, so no tick or trade event is lost in the blip, which plain PUB/SUB would drop.
import { Redis } from 'ioredis';
import { createAdapter } from '@socket.io/redis-streams-adapter';
import type { RateLimiter } from '../auth/rateLimiter';
import type { Logger } from '../logger';
import { createRedisRateLimiter } from './redisRateLimiter';

export interface RedisLink {
  /** the Socket.IO adapter factory (`new Server({ adapter })`) */
  adapter: ReturnType<typeof createAdapter>;
  limiter: RateLimiter;
  close(): Promise<void>;
}

/**
 * Connects lazily (ioredis reconnects on its own; commands wait in its queue meanwhile). Errors are logged without
 * the URL, which may hold a password.
 */
export function connectRedis(props: { url: string; prefix: string; logger: Logger }): RedisLink {
  const log = props.logger.child({ module: 'redis' });
  const open = (role: string) => {
    const client = new Redis(props.url, { connectionName: `optionpilot-${role}` });
    let reported = false;
    client.on('error', (err: Error) => {
      // One line per outage, not one per reconnect attempt.
      if (!reported) log.error({ role, message: err.message }, 'Redis unreachable; reconnecting');
      reported = true;
    });
    client.on('ready', () => {
      if (reported) log.info({ role }, 'Redis reachable again');
      reported = false;
    });
    return client;
  };
  // The adapter blocks on XREAD in a duplicate of its client; limits get a client of their own so a login is never
  // queued behind a socket broadcast.
  const sockets = open('sockets');
  const limits = open('limits');
  return {
    adapter: createAdapter(sockets, {
      streamName: `${props.prefix}socket.io`,
      channelPrefix: `${props.prefix}socket.io`,
      // Ticks carry no binary data: skip the adapter's per-packet binary scan.
      onlyPlaintext: true,
    }),
    limiter: createRedisRateLimiter(limits, props.prefix),
    async close() {
      await Promise.allSettled([sockets.quit(), limits.quit()]);
    },
  };
}
