// The cluster phase's servers for `npm run bench:live -- --nodes N`: N nodes of the built server (NODE_ROLE=engine)
// on one fresh, migrated PostgreSQL database and a Redis key prefix of their own, set up by test/scaleout/cluster.ts
// (the scale-out tests' set-up, shared rather than copied). Node 1 starts first and so takes the engine lock: it
// runs the simulated feed and emits every tick; the others are followers whose sockets get the leader's emit through
// the Redis adapter. PostgreSQL and Redis are checked first, so a missing server is a setup error naming which one.
import type { ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import pg from 'pg';
import { createCluster, engineDetail } from '../scaleout/cluster';
import type { NodeResult } from './report';

/** A machine the bench cannot run on as asked (a server it needs does not answer); exit 2 like a usage error. */
export class SetupError extends Error {
  override readonly name = 'SetupError';
}

const CHECK_TIMEOUT_MS = 5_000;

/** The URL as printed: a password is replaced by `***` (a Redis or PostgreSQL URL may carry one). */
export function redactUrl(raw: string): string {
  try {
    const url = new URL(raw);
    if (url.password !== '') url.password = '***';
    return url.toString();
  } catch {
    return '(an unparsable URL)';
  }
}

const reason = (err: unknown) => (err instanceof Error ? err.message || err.name : String(err));

async function postgresProblem(url: string): Promise<string | null> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: CHECK_TIMEOUT_MS });
  client.on('error', () => {}); // a dropped connection after the check is not this check's business
  try {
    await client.connect();
    await client.query('SELECT 1');
    return null;
  } catch (err) {
    return reason(err);
  } finally {
    await client.end().catch(() => {});
  }
}

async function redisProblem(url: string): Promise<string | null> {
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: CHECK_TIMEOUT_MS,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  // The socket's own error (ECONNREFUSED, ENOTFOUND) says more than connect()'s "Connection is closed."
  let socketError: unknown;
  redis.on('error', (err: unknown) => (socketError ??= err));
  try {
    await redis.connect();
    await redis.ping();
    return null;
  } catch (err) {
    return reason(socketError ?? err);
  } finally {
    redis.disconnect();
  }
}

/** Throws a SetupError naming every server of the two that does not answer. */
export async function checkClusterServers(servers: {
  databaseServerUrl: string;
  redisUrl: string;
}): Promise<void> {
  const [pgProblem, redis] = await Promise.all([
    postgresProblem(servers.databaseServerUrl),
    redisProblem(servers.redisUrl),
  ]);
  const problems = [
    ...(pgProblem === null
      ? []
      : [`PostgreSQL at ${redactUrl(servers.databaseServerUrl)} is unreachable (${pgProblem})`]),
    ...(redis === null ? [] : [`Redis at ${redactUrl(servers.redisUrl)} is unreachable (${redis})`]),
  ];
  if (problems.length > 0) {
    throw new SetupError(
      `--nodes needs PostgreSQL and Redis: ${problems.join('; ')}. Start it, or point TEST_DATABASE_URL ` +
        '(or DATABASE_URL) / TEST_REDIS_URL at one.',
    );
  }
}

export interface ClusterNode {
  url: string;
  pid: number;
  role: NodeResult['role'];
}

export interface RunningCluster {
  nodes: ClusterNode[];
  /** stops the nodes, drops the database and the Redis keys */
  close(): Promise<void>;
}

/** Which role a node reports on /api/health (the engine subsystem's detail). */
export function roleFromHealth(detail: string): NodeResult['role'] {
  if (/open position/.test(detail)) return 'leader';
  if (/^follower/.test(detail)) return 'follower';
  return 'unknown';
}

/** Creates the database, starts `count` nodes one after the other with `env`, and reads each one's role. */
export async function startCluster(props: {
  count: number;
  env: Record<string, string>;
  databaseServerUrl: string;
  redisUrl: string;
  /** each node's process as it starts, for the bench to kill with its other children whatever ends it */
  onStarted: (child: ChildProcess) => void;
}): Promise<RunningCluster> {
  const cluster = await createCluster({
    controls: {},
    env: props.env,
    nodes: props.count,
    databaseServerUrl: props.databaseServerUrl,
    redisUrl: props.redisUrl,
  });
  const nodes: ClusterNode[] = [];
  try {
    for (let i = 0; i < props.count; i += 1) {
      const product = await cluster.start(i);
      props.onStarted(product.child);
      nodes.push({ url: product.url, pid: product.child.pid ?? 0, role: 'unknown' });
    }
    for (const node of nodes) node.role = roleFromHealth(await engineDetail(node.url));
  } catch (err) {
    await cluster.close();
    throw err;
  }
  return { nodes, close: () => cluster.close() };
}
