// What a node that does not run the engine hands to the one that does. Requests arrive at any node; the engine
// lives on the leader only. Through the Socket.IO adapter's server-side messages (Redis), a follower tells the
// leader that a user changed (bot switch, payment, broker session), that the controls changed, asks it to flatten
// every position (the kill switch must work from whichever node the admin reached), and asks it to answer a
// socket's `sync:request`: the leader's answer is emitted to that socket id, which the adapter routes to the node
// holding it. Every node hears a message; only the one leading at that moment acts on it. A trader's bot status and
// stats are asked of the leader (engineReads.ts); the market's REST reads and the open positions' marks answer from a
// copy of the leader's view (marketMirror.ts).
import type { Logger } from '../logger';
import { askLeaderForEngineReads, type EngineAnswer, type EngineQuestion } from './engineReads';
import { followMarket, serveMarketCopies, type MarketCopy } from './marketMirror';
import type { Realtime, RealtimeServer, SyncTopic } from '../realtime/publisher';
import type { TradingService } from '../trading/api';

interface SyncRequest {
  topic: SyncTopic;
  socketId: string;
  userId: number;
  isAdmin: boolean;
}

/** The server-side messages between nodes (the Socket.IO server's fourth type parameter). */
export interface NodeEvents {
  'engine:userChanged': (userId: number) => void;
  'engine:reloadControls': () => void;
  'engine:flattenAll': (ack: (closed: number) => void) => void;
  'engine:sync': (request: SyncRequest) => void;
  'engine:market': (ack: (copy: MarketCopy | null) => void) => void;
  'engine:ask': (question: EngineQuestion) => void;
  'engine:answer': (answer: EngineAnswer) => void;
}

/**
 * The trading service and publisher as routes and sockets of a node of several see them: local while this node
 * leads, relayed to the leader otherwise. The leader side of every message is installed here too.
 */
export function relayToLeader(props: {
  io: RealtimeServer;
  trading: TradingService;
  realtime: Realtime;
  isLeader: () => boolean;
  logger: Logger;
  /** how often a follower refreshes its copy of the market (ms) */
  marketCopyMs?: number;
  /** how long a follower waits for the leader to answer a trader's read (ms) */
  askTimeoutMs?: number;
}): { trading: TradingService; realtime: Realtime; stop(): void } {
  const { io, trading, realtime, isLeader } = props;
  const log = props.logger.child({ module: 'relay' });
  const failed = (what: string) => (err: unknown) => log.error({ err }, `${what} failed on the leader`);

  serveMarketCopies({ io, trading, isLeader });
  const reads = askLeaderForEngineReads({
    io,
    trading,
    isLeader,
    logger: props.logger,
    ...(props.askTimeoutMs === undefined ? {} : { timeoutMs: props.askTimeoutMs }),
  });
  const market = followMarket({
    io,
    isLeader,
    logger: props.logger,
    ...(props.marketCopyMs === undefined ? {} : { everyMs: props.marketCopyMs }),
  });

  io.on('engine:userChanged', (userId) => {
    if (isLeader()) trading.onUserChanged(userId).catch(failed('a relayed user change'));
  });
  io.on('engine:reloadControls', () => {
    if (isLeader()) trading.reloadControls().catch(failed('a relayed controls reload'));
  });
  io.on('engine:flattenAll', (ack) => {
    if (!isLeader()) {
      ack(0);
      return;
    }
    trading.flattenAll().then(ack, (err: unknown) => {
      failed('the relayed kill switch')(err);
      ack(0);
    });
  });
  io.on('engine:sync', (request) => {
    if (!isLeader()) return;
    const handler = realtime.syncHandler(request.topic);
    Promise.resolve(handler?.(request)).catch(failed('a relayed snapshot'));
  });

  return {
    stop() {
      market.stop();
      reads.stop();
    },
    trading: {
      ...trading,
      botStatus: reads.botStatus,
      statsFor: reads.statsFor,
      markPnl: (tradeId) => {
        if (isLeader()) return trading.markPnl(tradeId);
        return market.copy()?.marks.find(([id]) => id === tradeId)?.[1] ?? null;
      },
      openPositions: () => (isLeader() ? trading.openPositions() : (market.copy()?.positions ?? [])),
      marketTick: () => (isLeader() ? trading.marketTick() : (market.copy()?.tick ?? null)),
      feedHealth: () =>
        isLeader() ? trading.feedHealth() : (market.copy()?.feedHealth ?? trading.feedHealth()),
      candles: (interval, limit) =>
        isLeader()
          ? trading.candles(interval, limit)
          : (market.copy()?.candles[interval] ?? []).slice(-limit),
      async onUserChanged(userId) {
        if (isLeader()) return trading.onUserChanged(userId);
        io.serverSideEmit('engine:userChanged', userId);
      },
      async reloadControls() {
        if (isLeader()) return trading.reloadControls();
        io.serverSideEmit('engine:reloadControls');
      },
      async flattenAll() {
        if (isLeader()) return trading.flattenAll();
        // Every other node answers (followers with 0). A node that died moments ago is still counted until its
        // heartbeat lapses and never answers: the adapter's timeout (5 s) then ends the wait, and the answers that
        // came (the leader's among them) still count.
        const answers = await new Promise<number[]>((resolve) => {
          io.serverSideEmit('engine:flattenAll', (err: Error | null, responses: number[]) => {
            if (err) log.warn({ err }, 'a node did not answer the relayed kill switch');
            resolve(responses);
          });
        });
        return answers.reduce((sum, closed) => sum + closed, 0);
      },
    },
    realtime: {
      ...realtime,
      syncHandler(topic) {
        const local = realtime.syncHandler(topic);
        if (local === undefined) return undefined;
        return (context) =>
          isLeader() ? local(context) : void io.serverSideEmit('engine:sync', { topic, ...context });
      },
    },
  };
}
