// Nodes of the built server for the scale-out tests: one uniquely named PostgreSQL database on TEST_DATABASE_URL's
// server, a Redis key prefix of their own on TEST_REDIS_URL, shared keys, and child processes spawned as the crash
// trials spawn them (test/faults/product.ts), each with its own DATA_DIR.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { closeDatabase, migrateLatest, openDatabase, setAdminControl } from '@optionpilot/server/db/index';
import { buildServer, freePort, spawnProduct, waitHealthy, type Product } from '../faults/product';

/** The variables a scale-out test needs and this run lacks (the suite is reported SKIPPED naming them). */
export const missingServices = [
  ...(process.env.TEST_DATABASE_URL ? [] : ['TEST_DATABASE_URL']),
  ...(process.env.TEST_REDIS_URL ? [] : ['TEST_REDIS_URL']),
];

export const suiteName = (what: string) =>
  missingServices.length > 0
    ? `${what} — SKIPPED: ${missingServices.join(' and ')} not set (.ci/run sets them when PostgreSQL and Redis answer)`
    : `${what} (PostgreSQL + Redis)`;

export const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

export async function until<T>(what: string, check: () => Promise<T | null>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

/** The engine subsystem's detail from /api/health: "N open position(s), …" on the leader, "follower: …" else. */
export async function engineDetail(url: string): Promise<string> {
  try {
    const res = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2_000) });
    const json = (await res.json()) as { subsystems?: Record<string, { detail?: string }> };
    return json.subsystems?.engine?.detail ?? '';
  } catch {
    return '';
  }
}

export interface Cluster {
  /** the shared ENCRYPTION_KEY (tests seal broker secrets with it) */
  readonly key: string;
  readonly databaseUrl: string;
  readonly dirs: string[];
  /** spawns node `i` (NODE_ROLE=engine) and waits for its health */
  start(i: number): Promise<Product>;
  query<R extends pg.QueryResultRow>(sql: string, params?: unknown[]): Promise<R[]>;
  /** kills every node, drops the database, removes the directories */
  close(): Promise<void>;
}

/**
 * Builds the server, creates and migrates the database and writes `controls` (admin_controls) before any node.
 * `nodes` (default 2) is how many DATA_DIRs to prepare; the servers default to TEST_DATABASE_URL / TEST_REDIS_URL.
 */
export async function createCluster(props: {
  controls: Record<string, string>;
  env: Record<string, string>;
  nodes?: number;
  databaseServerUrl?: string;
  redisUrl?: string;
}): Promise<Cluster> {
  const server = props.databaseServerUrl ?? (process.env.TEST_DATABASE_URL as string);
  const redisUrl = props.redisUrl ?? (process.env.TEST_REDIS_URL as string);
  const name = `optionpilot_scale_${randomBytes(5).toString('hex')}`;
  const url = new URL(server);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();
  const dirs = Array.from({ length: props.nodes ?? 2 }, () =>
    mkdtempSync(join(tmpdir(), 'optionpilot-scale-')),
  );
  const key = randomBytes(32).toString('base64');
  const prefix = `optionpilot-test:${name}:`;
  const nodes: Product[] = [];
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: server });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };

  buildServer();
  await admin(`CREATE DATABASE "${name}"`);
  const db = openDatabase({ dataDir: dirs[0] as string, databaseUrl });
  try {
    await migrateLatest(db);
    for (const [control, value] of Object.entries(props.controls)) {
      await setAdminControl(db.knex, control, value, null);
    }
  } finally {
    await closeDatabase(db);
  }

  return {
    key,
    databaseUrl,
    dirs,
    async start(i) {
      const node = spawnProduct({
        dataDir: dirs[i] as string,
        port: await freePort(),
        env: {
          DATABASE_URL: databaseUrl,
          REDIS_URL: redisUrl,
          REDIS_PREFIX: prefix,
          NODE_ROLE: 'engine',
          JWT_SECRET: key,
          ENCRYPTION_KEY: key,
          ...props.env,
        },
      });
      nodes.push(node);
      await waitHealthy(node, dirs[i] as string);
      return node;
    },
    async query<R extends pg.QueryResultRow>(sql: string, params: unknown[] = []) {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      try {
        return (await client.query<R>(sql, params)).rows;
      } finally {
        await client.end();
      }
    },
    async close() {
      await Promise.all(nodes.map((node) => node.kill()));
      await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await forgetRedisKeys(prefix, redisUrl);
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Deletes every Redis key under `prefix` (the adapter's stream, the limits' counters). */
export async function forgetRedisKeys(
  prefix: string,
  redisUrl = process.env.TEST_REDIS_URL as string,
): Promise<void> {
  const redis = new Redis(redisUrl);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    await redis.quit();
  }
}
