// The outbox: an event is recorded in the same transaction as the fact it reports, and a sender (sender.ts)
// delivers it later, outside any trading path. Recording is an insert that ignores a second record of one fact
// (same dedupe key), so a retried write or a re-run scheduler never notifies twice.
import type { Knex } from 'knex';
import { insertRows, type Db } from '../db';
import type { AdminEvent, NotificationEvent, TraderEvent } from './types';

/** Payload values as stored: figures in paise, instants in epoch ms, ids, short texts. */
export type NotificationPayload = Readonly<Record<string, string | number | boolean | null>>;

export interface TraderNotice {
  readonly event: TraderEvent;
  readonly userId: number;
  /** the fact's own id (trade id, payment id, trading date…): with event and user it makes the dedupe key */
  readonly factKey: string;
  readonly payload: NotificationPayload;
}

export interface AdminNotice {
  readonly event: AdminEvent;
  readonly factKey: string;
  readonly payload: NotificationPayload;
}

/** Wakes the sender after the transaction that recorded a notice committed (set by the sender; may be absent). */
export type OutboxWake = () => void;

const wakes = new Set<OutboxWake>();
/** Transactions already waiting for their commit to wake the senders (one wake per transaction). */
const waiting = new WeakSet<Knex.Transaction>();

/**
 * Calls `wake` after every commit that recorded a notice (the sender subscribes while it runs). Returns the
 * unsubscribe. Every running sender in the process hears every commit: a wake with nothing due costs one query.
 */
export function onNoticeRecorded(wake: OutboxWake): () => void {
  wakes.add(wake);
  return () => wakes.delete(wake);
}

function wakeAll(): void {
  for (const wake of wakes) {
    try {
      wake();
    } catch {
      // a wake never throws into the fact's code; the sender's poll is the fallback
    }
  }
}

/**
 * Wakes the senders once the write that recorded a notice is committed: after the outermost transaction's commit
 * (never inside it: the sender would not see the row yet), nothing on a rollback. Never awaited, never throws.
 */
function wakeAfterCommit(db: Db): void {
  if (wakes.size === 0) return;
  if (!('isTransaction' in db) || db.isTransaction !== true) {
    setImmediate(wakeAll);
    return;
  }
  let trx = db as Knex.Transaction;
  while (trx.parentTransaction !== undefined) trx = trx.parentTransaction;
  if (waiting.has(trx)) return;
  waiting.add(trx);
  // resolves after COMMIT, rejects on rollback (the notice is gone with the fact: nothing to send)
  trx.executionPromise.then(wakeAll, () => undefined);
}

/**
 * Records a notice for one user inside `db` (pass the fact's transaction). Returns the outbox id, or undefined
 * when this fact's notice was already recorded.
 */
export function recordNotice(db: Db, notice: TraderNotice, now: number): Promise<number | undefined> {
  return insertNotice(db, notice.event, notice.userId, notice.factKey, notice.payload, now);
}

/** Records a notice for every admin (admins at the time of the fact). Returns how many were recorded. */
export async function recordAdminNotice(db: Db, notice: AdminNotice, now: number): Promise<number> {
  const admins = (await db('users').where({ is_admin: true }).select('id')) as Array<{ id: number }>;
  let recorded = 0;
  for (const admin of admins) {
    const id = await insertNotice(db, notice.event, admin.id, notice.factKey, notice.payload, now);
    if (id !== undefined) recorded += 1;
  }
  return recorded;
}

async function insertNotice(
  db: Db,
  event: NotificationEvent,
  userId: number,
  factKey: string,
  payload: NotificationPayload,
  now: number,
): Promise<number | undefined> {
  const inserted = (await db('notification_outbox')
    .insert({
      event,
      user_id: userId,
      payload: JSON.stringify(payload),
      dedupe_key: `${event}:${factKey}:${userId}`,
      status: 'pending',
      created_at: now,
    })
    .onConflict('dedupe_key')
    .ignore()
    .returning('id')) as Array<{ id: number } | number>;
  const first = inserted[0];
  if (first === undefined) return undefined;
  wakeAfterCommit(db);
  return typeof first === 'number' ? first : first.id;
}

/**
 * Records many users' notices in one statement (a fan-out's trades opened together); a fact already recorded is
 * skipped, as with `recordNotice`.
 */
export async function recordNotices(db: Db, notices: readonly TraderNotice[], now: number): Promise<void> {
  if (notices.length === 0) return;
  await insertRows(
    db,
    'notification_outbox',
    notices.map((notice) => ({
      event: notice.event,
      user_id: notice.userId,
      payload: JSON.stringify(notice.payload),
      dedupe_key: `${notice.event}:${notice.factKey}:${notice.userId}`,
      status: 'pending',
      created_at: now,
    })),
    'ON CONFLICT (dedupe_key) DO NOTHING',
  );
  wakeAfterCommit(db);
}

/** How many recorded notices are not yet settled on every channel (the outbox depth `/metrics` shows). */
export async function countPendingNotices(db: Db): Promise<number> {
  const [row] = (await db('notification_outbox').where('status', 'pending').count({ n: '*' })) as Array<{
    n: number | string;
  }>;
  return Number(row?.n ?? 0);
}
