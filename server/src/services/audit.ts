// Audit trail of security-relevant events in the append-only `logs` table. Entries never carry a password, a
// token or a hash: only who, what, when and the client's address.
import type { Deps } from '../deps';
import { appendLog, type Db, type LogEventType, type LogRow } from '../db';
import { presentLog } from '../presenters/log';

export interface AuditEntry {
  type: LogEventType;
  description: string;
  userId?: number | null;
  actorId?: number | null;
  data?: Record<string, string | number | boolean | null>;
}

/** Appends an entry inside the caller's transaction; pass the row to `announceAudit` after the commit. */
export function recordAudit(props: {
  db: Db;
  deps: Pick<Deps, 'clock'>;
  entry: AuditEntry;
}): Promise<LogRow> {
  const { db, deps, entry } = props;
  return appendLog(db, {
    event_type: entry.type,
    description: entry.description,
    user_id: entry.userId ?? null,
    actor_id: entry.actorId ?? null,
    data: entry.data,
    at: deps.clock.now(),
  });
}

/** Pushes committed audit rows to the admins' live log. */
export function announceAudit(props: { deps: Pick<Deps, 'realtime'>; rows: readonly LogRow[] }): void {
  for (const row of props.rows) props.deps.realtime.toAdmins('admin:log', presentLog(row));
}
