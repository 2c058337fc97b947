// The engine lock on a real PostgreSQL (TEST_DATABASE_URL): one leader among competitors, a lost lock connection
// stops the engine at once, and a follower takes over on its next try. Each test locks a key of its own, so
// parallel runs on one database never meet.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../logger';
import { alwaysLeader, electLeader, type Leadership } from './leader';

const databaseUrl = process.env.TEST_DATABASE_URL;
const logger = createLogger({ level: 'silent' });
const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

/** Records what a node was told to do. */
function node() {
  const log: string[] = [];
  return {
    log,
    duties: {
      lead: async () => void log.push('lead'),
      resign: async () => void log.push('resign'),
    },
  };
}

async function waitFor(check: () => boolean, timeoutMs = 8_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(50);
  }
}

describe('the single process', () => {
  it('leads from its start until it stops', async () => {
    const one = node();
    const leadership = await alwaysLeader(one.duties);
    expect(leadership.isLeader()).toBe(true);
    await leadership.stop();
    await leadership.stop();
    expect([leadership.isLeader(), one.log]).toEqual([false, ['lead', 'resign']]);
  });
});

describe.skipIf(!databaseUrl)(
  databaseUrl
    ? 'engine leader election on PostgreSQL'
    : 'engine leader election — SKIPPED: TEST_DATABASE_URL is not set',
  () => {
    const running: Leadership[] = [];
    afterEach(async () => {
      await Promise.all(running.splice(0).map((l) => l.stop()));
    });
    const elect = async (duties: ReturnType<typeof node>['duties'], lockKey: string) => {
      const leadership = await electLeader({
        databaseUrl: databaseUrl as string,
        logger,
        duties,
        lockKey,
        retryMs: 100,
        checkMs: 200,
      });
      running.push(leadership);
      return leadership;
    };
    const newKey = () => BigInt(`0x${randomBytes(7).toString('hex')}`).toString();

    it('lets one node lead; when it stops, a follower takes the lock', async () => {
      const key = newKey();
      const a = node();
      const b = node();
      const first = await elect(a.duties, key);
      const second = await elect(b.duties, key);
      expect([first.isLeader(), second.isLeader()]).toEqual([true, false]);
      await sleep(400); // several retries by the follower: still refused
      expect(b.log).toEqual([]);
      await first.stop();
      expect(a.log).toEqual(['lead', 'resign']);
      await waitFor(() => second.isLeader());
      expect(b.log).toEqual(['lead']);
    });

    it('stops the engine when the lock connection dies, and the other node leads', async () => {
      const key = newKey();
      const a = node();
      const b = node();
      const first = await elect(a.duties, key);
      const second = await elect(b.duties, key);
      // What a crash or a cut network looks like to PostgreSQL: the session holding the lock ends.
      const admin = new pg.Client({ connectionString: databaseUrl });
      await admin.connect();
      try {
        const killed = await admin.query(
          `SELECT pg_terminate_backend(l.pid) AS done FROM pg_locks l
           WHERE l.locktype = 'advisory' AND l.granted
             AND ((l.classid::bigint << 32) | l.objid::bigint) = $1::bigint`,
          [key],
        );
        expect(killed.rowCount).toBe(1);
      } finally {
        await admin.end();
      }
      await waitFor(() => !first.isLeader() && second.isLeader());
      expect(a.log).toEqual(['lead', 'resign']);
      expect(b.log).toEqual(['lead']);
      // The old leader comes back as a follower: it tries again but the lock is taken.
      await sleep(400);
      expect(first.isLeader()).toBe(false);
    });

    it('gives the lock up when the engine fails to start', async () => {
      const key = newKey();
      const log: string[] = [];
      const failing = await elect(
        {
          lead: async () => {
            log.push('lead');
            throw new Error('broker unreachable');
          },
          resign: async () => void log.push('resign'),
        },
        key,
      );
      expect(failing.isLeader()).toBe(false);
      expect(log).toEqual(['lead', 'resign']);
      await failing.stop();
      const b = node();
      const next = await elect(b.duties, key);
      expect(next.isLeader()).toBe(true);
    });
  },
);
