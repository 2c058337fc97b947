// Socket.IO connections: the JWT from `auth.token` is checked at connect against a live session (same rules as
// REST), then the socket joins `market`, `user-<id>` and, for admins, `admins`. A socket lives no longer than its
// session: it is told `session:revoked` ({ reason: 'expired' }) and disconnected when the session expires (logout
// and password changes end it earlier, see publisher.endSessions). Every client message is validated with zod and
// budgeted per socket; a bad or excess one is answered through its ack with an error and has no other effect.
import { z } from 'zod';
import { ROOMS } from '../contract';
import type { Deps } from '../deps';
import { BUDGETS, chargeBudget } from '../auth/throttle';
import { AppError, validationError } from '../errors';
import { authenticateToken } from '../services/sessions';
import { sessionRoom, type RealtimeServer } from './publisher';

const syncRequestSchema = z.object({
  topics: z
    .array(z.enum(['market', 'bot', 'stats']))
    .min(1)
    .max(3),
});

type SyncAck = (result: { ok: true } | { ok: false; error: string; message: string }) => void;

/** setTimeout's longest delay (~24.8 days); sessions may last 30 days, so the expiry timer re-arms itself. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Installs authentication, room membership and message validation on `io`. */
export function attachGateway(props: { io: RealtimeServer; deps: Deps }): void {
  const { io, deps } = props;

  // Engine.IO keeps each connection's first HTTP request (headers, parser state: a few KB) for its whole life; nothing
  // here reads it after the handshake (the token comes in `auth`), so it goes, as Socket.IO's memory guide advises:
  // at 10,000 dashboards that is tens of MB.
  io.engine.on('connection', (rawSocket: { request: unknown }) => {
    rawSocket.request = null;
  });

  io.use((socket, next) => {
    const token: unknown = (socket.handshake.auth as Record<string, unknown> | undefined)?.token;
    if (typeof token !== 'string' || token === '') {
      next(new Error('unauthenticated: pass the sign-in token as auth.token'));
      return;
    }
    authenticateToken({ deps, token }).then(
      ({ user, session }) => {
        socket.data = {
          userId: user.id,
          isAdmin: user.is_admin,
          sessionId: session.id,
          expiresAt: session.expires_at,
        };
        next();
      },
      (err: unknown) => {
        if (err instanceof AppError) {
          next(new Error(`${err.id}: ${err.message}`));
          return;
        }
        deps.logger.error({ err }, 'socket authentication failed unexpectedly');
        next(new Error('internal: authentication failed'));
      },
    );
  });

  io.on('connection', (socket) => {
    const { userId, isAdmin, sessionId } = socket.data;
    void socket.join([
      ROOMS.market,
      ROOMS.user(userId),
      sessionRoom(sessionId),
      ...(isAdmin ? [ROOMS.admins] : []),
    ]);

    let expiryTimer: NodeJS.Timeout | undefined;
    const armExpiry = () => {
      const remaining = socket.data.expiresAt - deps.clock.now();
      if (remaining > 0) {
        expiryTimer = setTimeout(armExpiry, Math.min(remaining, MAX_TIMER_MS));
        return;
      }
      socket.emit('session:revoked', { reason: 'expired' });
      socket.disconnect(true);
    };
    armExpiry();
    socket.once('disconnect', () => clearTimeout(expiryTimer));

    socket.on('sync:request', (payload: unknown, ack: unknown) => {
      const reply: SyncAck = typeof ack === 'function' ? (ack as SyncAck) : () => {};
      chargeBudget(deps.limiter, BUDGETS.syncPerSocket, socket.id).then(
        (state) => {
          if (state.count > BUDGETS.syncPerSocket.limit) {
            reply({
              ok: false,
              error: 'rate_limited',
              message: 'Too many sync requests; try again in a minute.',
            });
            return;
          }
          sync(payload, reply);
        },
        (err: unknown) => {
          deps.logger.error({ err, userId }, 'sync request budget check failed');
          reply({ ok: false, error: 'internal', message: 'Could not send the snapshot.' });
        },
      );
    });

    function sync(payload: unknown, reply: SyncAck): void {
      const parsed = syncRequestSchema.safeParse(payload);
      if (!parsed.success) {
        const error = validationError(parsed.error, 'payload');
        reply({ ok: false, error: error.id, message: error.message });
        return;
      }
      // Topics nobody has registered a snapshot for yet are acknowledged without data.
      const handlers = [...new Set(parsed.data.topics)].flatMap(
        (topic) => deps.realtime.syncHandler(topic) ?? [],
      );
      Promise.all(handlers.map((handler) => handler({ socketId: socket.id, userId, isAdmin }))).then(
        () => reply({ ok: true }),
        (err: unknown) => {
          deps.logger.error({ err, userId }, 'sync request failed');
          reply({ ok: false, error: 'internal', message: 'Could not send the snapshot.' });
        },
      );
    }
  });
}
