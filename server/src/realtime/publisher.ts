// The server's only way to push to browsers. Publish ONLY after the database transaction that produced the data
// has committed (STYLE §7): a client must never hear of a write that was rolled back. Typical use:
//   const trade = await db.knex.transaction((trx) => closeTrade(trx, …));
//   deps.realtime.toUser(trade.user_id, 'user:trade', presentTrade(trade));
// Payloads come from presenters, the same functions as REST responses use.
import type { Server } from 'socket.io';
import { ROOMS, type ClientToServerEvents, type ServerToClientEvents, type SocketData } from '../contract';
import type { NodeEvents } from '../cluster/relay';

export type RealtimeServer = Server<ClientToServerEvents, ServerToClientEvents, NodeEvents, SocketData>;

type EventName = keyof ServerToClientEvents;

/** The room of one session's sockets (joined at connect): logging out ends exactly those, on whichever node. */
export const sessionRoom = (sessionId: string) => `session-${sessionId}`;
type Payload<E extends EventName> = Parameters<ServerToClientEvents[E]>;

export type SyncTopic = 'market' | 'bot' | 'stats';

/** Sends the current snapshot of one topic to one socket (answering its `sync:request`). */
export type SyncHandler = (props: {
  socketId: string;
  userId: number;
  isAdmin: boolean;
}) => void | Promise<void>;

export interface Realtime {
  /** Emits to one socket only (snapshots for `sync:request`). */
  toSocket<E extends EventName>(socketId: string, event: E, ...payload: Payload<E>): void;
  toUser<E extends EventName>(userId: number, event: E, ...payload: Payload<E>): void;
  toAdmins<E extends EventName>(event: E, ...payload: Payload<E>): void;
  toMarket<E extends EventName>(event: E, ...payload: Payload<E>): void;
  /**
   * Tells a user's sockets why (`session:revoked`) and disconnects them: those of `sessionIds`, or all of the
   * user's sockets when `sessionIds` is omitted (password change/reset revokes every session).
   */
  endSessions(props: { userId: number; reason: string; sessionIds?: readonly string[] }): Promise<void>;
  /**
   * The users with at least one connected socket (every process's, through the adapter): a change that concerns
   * everyone but reads differently per user (the strategy each follows) is presented once per user online.
   */
  connectedUserIds(): Promise<number[]>;
  /** The module owning a topic (market feed, bot, stats) registers how to send its snapshot, once at startup. */
  onSync(topic: SyncTopic, handler: SyncHandler): void;
  /** The registered handler of a topic (used by the gateway). */
  syncHandler(topic: SyncTopic): SyncHandler | undefined;
}

/** A publisher over a Socket.IO server (works unchanged with the Redis adapter: rooms span processes). */
export function createRealtime(io: RealtimeServer): Realtime {
  const syncHandlers = new Map<SyncTopic, SyncHandler>();
  return {
    toSocket(socketId, event, ...payload) {
      io.to(socketId).emit(event, ...payload);
    },
    toUser(userId, event, ...payload) {
      io.to(ROOMS.user(userId)).emit(event, ...payload);
    },
    toAdmins(event, ...payload) {
      io.to(ROOMS.admins).emit(event, ...payload);
    },
    toMarket(event, ...payload) {
      io.to(ROOMS.market).emit(event, ...payload);
    },
    async endSessions({ userId, reason, sessionIds }) {
      // Broadcasts, not a search: with several nodes they reach every node's sockets through the adapter and wait
      // for no node's answer (a node that just died would otherwise fail a logout until its heartbeat lapsed).
      const rooms = sessionIds ? sessionIds.map(sessionRoom) : [ROOMS.user(userId)];
      if (rooms.length === 0) return;
      io.to(rooms).emit('session:revoked', { reason });
      io.in(rooms).disconnectSockets(true);
    },
    async connectedUserIds() {
      // Every authenticated socket joins `market` at connect.
      const sockets = await io.in(ROOMS.market).fetchSockets();
      return [...new Set(sockets.map((socket) => socket.data.userId))];
    },
    onSync(topic, handler) {
      if (syncHandlers.has(topic)) throw new Error(`sync handler for "${topic}" is already registered`);
      syncHandlers.set(topic, handler);
    },
    syncHandler: (topic) => syncHandlers.get(topic),
  };
}
