// Database write latency from Knex's own query events, so every write path (the runtime's group commits, routes,
// the notification sender) is measured without touching it. Reads are left out: a slow read delays one page, a
// slow write delays every order behind it (persist before send).
import { performance } from 'node:perf_hooks';
import type { Knex } from 'knex';
import type { Metrics } from './metrics';

/** What Knex passes with its `query`, `query-response` and `query-error` events. */
interface QueryData {
  readonly __knexQueryUid?: string;
  readonly method?: string;
  readonly sql?: string;
}

// Transaction control (BEGIN, COMMIT) is not measured: Knex emits it without a query id and never answers it.
const WRITE_SQL = /^\s*(insert|update|delete)\b/i;

/** The statement a query writes with (insert, update, delete), or undefined when it only reads. */
export function writeStatement(query: QueryData): string | undefined {
  if (query.method === 'insert' || query.method === 'update') return query.method;
  if (query.method === 'del') return 'delete';
  // Raw statements (the stores' multi-row inserts) say what they do in their first word.
  if (query.method !== 'raw' && query.method !== undefined) return undefined;
  const match = query.sql === undefined ? null : WRITE_SQL.exec(query.sql);
  return match?.[1]?.toLowerCase();
}

/** Observes every write of `knex` (transactions included) into `metrics`; returns the function that stops it. */
export function watchDatabaseWrites(knex: Knex, metrics: Pick<Metrics, 'dbWrite'>): () => void {
  const started = new Map<string, { statement: string; at: number }>();
  const onQuery = (query: QueryData) => {
    const uid = query.__knexQueryUid;
    if (uid === undefined) return;
    const statement = writeStatement(query);
    if (statement !== undefined) started.set(uid, { statement, at: performance.now() });
  };
  const onDone = (query: QueryData) => {
    const uid = query.__knexQueryUid;
    const start = uid === undefined ? undefined : started.get(uid);
    if (start === undefined || uid === undefined) return;
    started.delete(uid);
    metrics.dbWrite(start.statement, (performance.now() - start.at) / 1000);
  };
  const onResponse = (_response: unknown, query: QueryData) => onDone(query);
  const onError = (_error: unknown, query: QueryData) => onDone(query);
  knex.on('query', onQuery);
  knex.on('query-response', onResponse);
  knex.on('query-error', onError);
  return () => {
    knex.off('query', onQuery);
    knex.off('query-response', onResponse);
    knex.off('query-error', onError);
    started.clear();
  };
}
