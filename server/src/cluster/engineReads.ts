// A trader's reads that only the engine can answer, on a node that does not run it. `GET /api/bot/status` and
// `GET /api/user/stats` (and the Telegram bot's replies) need the engine's view: whether it runs, the broker session
// it trades on, the open positions and their P&L at the last quote. A follower has none of that (its engine never
// started), so it asks the leader through the adapter's server-side messages and the leader answers with its own
// service's result; every node hears the answer and only the one that asked (by id) takes it. When no leader answers
// in time (a failover under way) the follower answers from its own service, which says the engine is not running:
// true at that moment, and never a stale copy of someone else's positions.
import { randomUUID } from 'node:crypto';
import type { BotStatusDetailDto, UserStatsDto } from '../contract';
import type { Logger } from '../logger';
import type { RealtimeServer } from '../realtime/publisher';
import type { TradingService } from '../trading/api';

/** How long a follower waits for the leader's answer before it answers itself (ms). */
export const ENGINE_ASK_TIMEOUT_MS = 2_000;

export type EngineQuestion = { id: string; userId: number } & ({ kind: 'botStatus' } | { kind: 'stats' });

export type EngineAnswer = { id: string } & (
  { kind: 'botStatus'; botStatus: BotStatusDetailDto } | { kind: 'stats'; stats: UserStatsDto }
);

type Reads = Pick<TradingService, 'botStatus' | 'statsFor'>;

/**
 * Installs the leader's side (answer every question while leading) and returns the reads as routes should call
 * them: local while this node leads, asked of the leader otherwise.
 */
export function askLeaderForEngineReads(props: {
  io: RealtimeServer;
  trading: Reads;
  isLeader: () => boolean;
  logger: Logger;
  timeoutMs?: number;
}): Reads & { stop(): void } {
  const { io, trading, isLeader } = props;
  const log = props.logger.child({ module: 'engine-reads' });
  const timeoutMs = props.timeoutMs ?? ENGINE_ASK_TIMEOUT_MS;
  const waiting = new Map<string, (answer: EngineAnswer | undefined) => void>();

  io.on('engine:ask', (question) => {
    if (!isLeader()) return;
    const answered =
      question.kind === 'botStatus'
        ? trading.botStatus(question.userId).then((botStatus) => ({ kind: 'botStatus' as const, botStatus }))
        : trading.statsFor(question.userId).then((stats) => ({ kind: 'stats' as const, stats }));
    answered.then(
      (answer) => io.serverSideEmit('engine:answer', { id: question.id, ...answer }),
      (err: unknown) => log.error({ err, kind: question.kind }, 'answering a follower failed'),
    );
  });
  io.on('engine:answer', (answer) => {
    const take = waiting.get(answer.id);
    take?.(answer); // undefined: another node's question (or one already answered)
  });

  /** The leader's answer, or undefined when none came in time. */
  function ask(question: Omit<EngineQuestion, 'id'>): Promise<EngineAnswer | undefined> {
    const id = randomUUID();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        waiting.delete(id);
        log.warn({ kind: question.kind }, 'no engine leader answered: answering from this node');
        resolve(undefined);
      }, timeoutMs);
      waiting.set(id, (answer) => {
        clearTimeout(timer);
        waiting.delete(id);
        resolve(answer);
      });
      io.serverSideEmit('engine:ask', { id, ...question } as EngineQuestion);
    });
  }

  return {
    async botStatus(userId) {
      if (isLeader()) return trading.botStatus(userId);
      const answer = await ask({ kind: 'botStatus', userId });
      return answer?.kind === 'botStatus' ? answer.botStatus : trading.botStatus(userId);
    },
    async statsFor(userId) {
      if (isLeader()) return trading.statsFor(userId);
      const answer = await ask({ kind: 'stats', userId });
      return answer?.kind === 'stats' ? answer.stats : trading.statsFor(userId);
    },
    /** questions still waiting are answered by this node at once */
    stop() {
      for (const take of [...waiting.values()]) take(undefined);
    },
  };
}
