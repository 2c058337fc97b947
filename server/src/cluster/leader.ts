// Which process runs the engine. One VPS (SQLite, NODE_ROLE=all without Redis) is always the leader, as before.
// Several nodes on one PostgreSQL database elect one with a session advisory lock held on a dedicated connection for
// the leader's whole life: PostgreSQL releases it the moment that session ends (the process was killed, the network
// dropped), so a follower's next try takes it. The leader checks its connection every few seconds; a connection it
// can no longer use means the lock may already be someone else's, so the engine is stopped at once.
import pg from 'pg';
import type { Logger } from '../logger';

/** The advisory lock's key ("OPEN" "GINE" in ASCII): one engine per database. */
export const ENGINE_LOCK_KEY = '5715836722713585221';

export interface LeaderDuties {
  /** this process took the lock: restore, recover, resume exits, reconcile (the engine's start) */
  lead(): Promise<void>;
  /** this process lost the lock (or stops): stop trading now */
  resign(): Promise<void>;
}

export interface Leadership {
  isLeader(): boolean;
  /** resigns if leading, releases the lock and stops trying */
  stop(): Promise<void>;
}

/** The single-process case: leads from start to stop; a failing start fails the server's start, as before. */
export async function alwaysLeader(duties: LeaderDuties): Promise<Leadership> {
  await duties.lead();
  let leading = true;
  return {
    isLeader: () => leading,
    async stop() {
      if (!leading) return;
      leading = false;
      await duties.resign();
    },
  };
}

export interface ElectionOptions {
  databaseUrl: string;
  logger: Logger;
  duties: LeaderDuties;
  /** how often a follower tries the lock (ms) */
  retryMs?: number;
  /** how often the leader checks its lock connection (ms); a check that takes longer than this fails */
  checkMs?: number;
  lockKey?: string;
}

/**
 * Competes for the engine lock. The first try is awaited, so a lone node starts leading before the server
 * answers (as the single process does); after that a follower tries every `retryMs`.
 */
export async function electLeader(options: ElectionOptions): Promise<Leadership> {
  const { logger, duties } = options;
  const log = logger.child({ module: 'leader' });
  const retryMs = options.retryMs ?? 1_500;
  const checkMs = options.checkMs ?? 2_000;
  const lockKey = options.lockKey ?? ENGINE_LOCK_KEY;
  let client: pg.Client | undefined;
  let leading = false;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  // lead and resign never overlap: a lost lock during a slow start resigns after the start finished
  let transition: Promise<void> = Promise.resolve();

  const schedule = (ms: number) => {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(() => void step(), ms);
  };

  /** Forgets the connection (and with it the lock, on the server's side) and stops leading. */
  const lose = (reason: string, err?: unknown) => {
    const lost = client;
    client = undefined;
    lost?.removeAllListeners('error');
    lost?.on('error', () => {}); // a broken socket may still report after we gave up on it
    void lost?.end().catch(() => {});
    if (!leading) return;
    leading = false;
    log.error({ err, reason }, 'engine leadership lost: stopping the engine');
    transition = transition.then(() =>
      duties.resign().catch((e: unknown) => log.error({ err: e }, 'stopping the engine failed')),
    );
  };

  async function connect(): Promise<pg.Client> {
    const next = new pg.Client({
      connectionString: options.databaseUrl,
      keepAlive: true,
      query_timeout: checkMs,
      connectionTimeoutMillis: checkMs * 2,
      application_name: 'optionpilot-engine-lock',
    });
    next.on('error', (err) => {
      if (client === next) lose('lock connection error', err);
    });
    next.on('end', () => {
      if (client === next) lose('lock connection closed');
    });
    await next.connect();
    return next;
  }

  async function step(): Promise<void> {
    if (stopped) return;
    try {
      client ??= await connect();
      const current = client;
      if (leading) {
        await current.query('SELECT 1');
        schedule(checkMs);
        return;
      }
      const result = await current.query<{ locked: boolean }>(
        'SELECT pg_try_advisory_lock($1::bigint) AS locked',
        [lockKey],
      );
      if (stopped || client !== current) return;
      if (result.rows[0]?.locked === true) {
        leading = true;
        log.info('took the engine lock: starting the engine');
        transition = transition.then(() =>
          duties.lead().catch(async (err: unknown) => {
            // An engine that could not start must not hold the lock: another node may do better.
            log.error({ err }, 'the engine failed to start: giving the lock up');
            lose('engine start failed', err);
          }),
        );
        await transition;
      }
      schedule(leading ? checkMs : retryMs);
    } catch (err) {
      lose('lock connection failed', err);
      if (!stopped) log.warn({ err }, 'engine lock: database unreachable, trying again');
      schedule(retryMs);
    }
  }

  await step();
  return {
    isLeader: () => leading,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await transition;
      if (leading) {
        leading = false;
        await duties.resign().catch((err: unknown) => log.error({ err }, 'stopping the engine failed'));
      }
      const last = client;
      client = undefined;
      // Ending the session releases the lock; the next node takes it on its next try.
      await last?.end().catch(() => {});
    },
  };
}
