import { insertRows, type Db } from '../knex';
import { rowMapper } from '../normalise';
import type { LogEventType, LogRow } from '../rows';

const toLog = rowMapper<LogRow>();

export interface NewLog {
  event_type: LogEventType;
  description: string;
  user_id?: number | null;
  actor_id?: number | null;
  /** any JSON-serialisable value; stored as JSON text */
  data?: unknown;
  at?: number;
}

/** Appends one audit record (the table refuses updates and deletes). */
function logColumns(log: NewLog, now: number) {
  return {
    at: log.at ?? now,
    event_type: log.event_type,
    description: log.description,
    user_id: log.user_id ?? null,
    actor_id: log.actor_id ?? null,
    data: log.data === undefined ? null : JSON.stringify(log.data),
  };
}

export async function appendLog(db: Db, log: NewLog): Promise<LogRow> {
  const [row] = await db('logs').insert(logColumns(log, Date.now())).returning('*');
  return toLog(row);
}

/** Appends several records in one statement; returns them in the order given. */
export async function appendLogs(db: Db, logs: readonly NewLog[]): Promise<LogRow[]> {
  if (logs.length === 0) return [];
  const now = Date.now();
  const rows = await insertRows(
    db,
    'logs',
    logs.map((log) => logColumns(log, now)),
    'returning *',
  );
  // Ids are given in insertion order; RETURNING's own order is not guaranteed (SQLite).
  return rows.map(toLog).sort((a, b) => a.id - b.id);
}

export interface ListLogsFilter {
  eventType?: string;
  userId?: number;
  /** inclusive lower bound of `at` */
  since?: number;
  /** exclusive upper bound of `at` */
  until?: number;
  /** keyset pagination: only rows with a smaller id */
  beforeId?: number;
  /** default 100, at most 1000 */
  limit?: number;
}

/** Most recent first. */
export async function listLogs(db: Db, filter: ListLogsFilter = {}): Promise<LogRow[]> {
  const query = db('logs').select('*');
  if (filter.eventType) query.where({ event_type: filter.eventType });
  if (filter.userId !== undefined) query.where({ user_id: filter.userId });
  if (filter.since !== undefined) query.where('at', '>=', filter.since);
  if (filter.until !== undefined) query.where('at', '<', filter.until);
  if (filter.beforeId !== undefined) query.where('id', '<', filter.beforeId);
  query
    .orderBy([
      { column: 'at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(Math.min(Math.max(filter.limit ?? 100, 1), 1000));
  return (await query).map(toLog);
}
