// Renewal reminders (issue 11): a notice 3 days and 1 day before an active subscription ends. The work is derived
// from the database on every run (active subscriptions ending within 3 days, minus reminders already recorded), so
// a run after downtime catches up and a second run records nothing. Each reminder is claimed by inserting its row
// (unique per user, end date and kind) in the same transaction that records its `renewal_reminder` notice in the
// notification outbox (issue 20): two processes never record the same one, and a renewal (a new end date) gets
// reminders of its own. Delivery (e-mail, Telegram, push), retries and the user's choices are the outbox sender's;
// `sent` in `renewal_reminders` means handed to the outbox. After downtime only the nearest reminder is recorded;
// the overtaken 3-day one is recorded as skipped rather than sent late.
import type { Deps } from '../deps';
import type { Db, LogRow } from '../db';
import { recordNotice } from '../notifications/outbox';
import { announceAudit, recordAudit } from '../services/audit';

type ReminderDeps = Pick<Deps, 'db' | 'clock' | 'realtime'>;

const DAY = 86_400_000;

export type ReminderKind = '3d' | '1d';

/** The reminder due `msLeft` before the end: the nearest one not yet passed. */
export function reminderDue(msLeft: number): ReminderKind | null {
  if (msLeft <= 0) return null;
  if (msLeft <= DAY) return '1d';
  if (msLeft <= 3 * DAY) return '3d';
  return null;
}

interface DueRow {
  id: number;
  subscription_end_at: number | string;
}

/** Claims a reminder row inside `trx`; false when another run (or process) already holds it. */
async function claim(
  trx: Db,
  row: { userId: number; endAt: number; kind: ReminderKind; status: 'sent' | 'skipped' },
  now: number,
): Promise<boolean> {
  // ON CONFLICT DO NOTHING rather than catching the violation: on PostgreSQL a failed insert aborts the transaction.
  const inserted = (await trx('renewal_reminders')
    .insert({ user_id: row.userId, end_at: row.endAt, kind: row.kind, status: row.status, created_at: now })
    .onConflict(['user_id', 'end_at', 'kind'])
    .ignore()
    .returning('id')) as unknown[];
  return inserted.length > 0;
}

/** Records every reminder due now in the notification outbox; returns how many were recorded. */
export async function recordDueReminders(props: { deps: ReminderDeps }): Promise<number> {
  const { deps } = props;
  const now = deps.clock.now();
  const due = (await deps.db
    .knex('users')
    .where({ subscription_status: 'active' })
    .where('subscription_end_at', '>', now)
    .where('subscription_end_at', '<=', now + 3 * DAY)
    .select('id', 'subscription_end_at')) as DueRow[];
  const logs: LogRow[] = [];
  for (const user of due) {
    const endAt = Number(user.subscription_end_at);
    const kind = reminderDue(endAt - now);
    if (kind === null) continue;
    const key = { userId: user.id, endAt, kind };
    const log = await deps.db.knex.transaction(async (trx) => {
      if (kind === '1d') {
        // Overtaken while the server was down: never send the 3-day one after the 1-day one is due.
        await claim(trx, { ...key, kind: '3d', status: 'skipped' }, now);
      }
      if (!(await claim(trx, { ...key, status: 'sent' }, now))) return null;
      await recordNotice(
        trx,
        { event: 'renewal_reminder', userId: user.id, factKey: `${endAt}:${kind}`, payload: { kind, endAt } },
        now,
      );
      return recordAudit({
        db: trx,
        deps,
        entry: {
          type: 'payment',
          description: `Renewal reminder queued (${kind === '1d' ? '1 day' : '3 days'} before the end)`,
          userId: user.id,
          data: { kind, endAt },
        },
      });
    });
    if (log !== null) logs.push(log);
  }
  announceAudit({ deps, rows: logs });
  return logs.length;
}
