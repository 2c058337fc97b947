// Renewal reminders (issue 11): an e-mail 3 days and 1 day before an active subscription ends. The work is derived
// from the database on every run (active subscriptions ending within 3 days, minus reminders already recorded), so
// a run after downtime catches up and a second run sends nothing. Each reminder is claimed by inserting its row
// (unique per user, end date and kind) before the mail goes out: two processes never send the same one, and a
// renewal (a new end date) gets reminders of its own. After downtime only the nearest reminder is sent; the
// overtaken 3-day one is recorded as skipped rather than sent late. A refused mail is marked failed and not retried
// (a reminder that arrives a day late misleads more than it helps); the log says so.
import type { Deps } from '../deps';
import { isUniqueViolation, type LogRow } from '../db';
import { announceAudit, recordAudit } from '../services/audit';

type ReminderDeps = Pick<Deps, 'db' | 'clock' | 'logger' | 'realtime' | 'mailer'> & {
  config: Pick<Deps['config'], 'publicUrl'>;
};

const DAY = 86_400_000;

export type ReminderKind = '3d' | '1d';

/** The reminder due `msLeft` before the end: the nearest one not yet passed. */
export function reminderDue(msLeft: number): ReminderKind | null {
  if (msLeft <= 0) return null;
  if (msLeft <= DAY) return '1d';
  if (msLeft <= 3 * DAY) return '3d';
  return null;
}

const IST_END = new Intl.DateTimeFormat('en-IN', {
  timeZone: 'Asia/Kolkata',
  weekday: 'long',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  hour12: true,
});

/** The e-mail of one reminder (plain text; no secrets, no amounts the trader did not see at checkout). */
export function reminderMail(props: {
  firstName: string;
  endAt: number;
  kind: ReminderKind;
  publicUrl: string;
}) {
  const when = `${IST_END.format(props.endAt)} IST`;
  const subject =
    props.kind === '1d'
      ? 'Your OptionPilot subscription ends tomorrow'
      : 'Your OptionPilot subscription ends in 3 days';
  const text = [
    `Hello ${props.firstName},`,
    '',
    `Your OptionPilot subscription ends on ${when}.`,
    `Renew from Manage Subscription: ${props.publicUrl}/subscription`,
    'A renewal adds the new period to the current end date, so no day is lost.',
    '',
    'When a subscription has ended the bot opens no new trades; positions already open are still managed to their exits.',
    '',
    'OptionPilot',
  ].join('\n');
  return { subject, text };
}

interface DueRow {
  id: number;
  email: string;
  first_name: string;
  subscription_end_at: number | string;
}

/** Claims a reminder row; false when another run (or process) already holds it. */
async function claim(
  deps: ReminderDeps,
  row: { userId: number; endAt: number; kind: ReminderKind; status: string },
) {
  try {
    await deps.db.knex('renewal_reminders').insert({
      user_id: row.userId,
      end_at: row.endAt,
      kind: row.kind,
      status: row.status,
      created_at: deps.clock.now(),
    });
    return true;
  } catch (err) {
    if (isUniqueViolation(err)) return false;
    throw err;
  }
}

const mark = (
  deps: ReminderDeps,
  row: { userId: number; endAt: number; kind: ReminderKind },
  status: string,
) =>
  deps.db
    .knex('renewal_reminders')
    .where({ user_id: row.userId, end_at: row.endAt, kind: row.kind })
    .update({ status });

/** Sends every reminder due now; returns how many e-mails went out. */
export async function sendDueReminders(props: { deps: ReminderDeps }): Promise<number> {
  const { deps } = props;
  const now = deps.clock.now();
  const due = (await deps.db
    .knex('users')
    .where({ subscription_status: 'active' })
    .where('subscription_end_at', '>', now)
    .where('subscription_end_at', '<=', now + 3 * DAY)
    .select('id', 'email', 'first_name', 'subscription_end_at')) as DueRow[];
  let sent = 0;
  const logs: LogRow[] = [];
  for (const user of due) {
    const endAt = Number(user.subscription_end_at);
    const kind = reminderDue(endAt - now);
    if (kind === null) continue;
    const key = { userId: user.id, endAt, kind };
    if (kind === '1d') {
      // Overtaken while the server was down: never send the 3-day one after the 1-day one is due.
      await claim(deps, { ...key, kind: '3d', status: 'skipped' });
    }
    if (deps.mailer === null) {
      if (await claim(deps, { ...key, status: 'skipped' }))
        deps.logger.info({ userId: user.id, kind }, 'renewal reminder not sent: SMTP_URL is not set');
      continue;
    }
    if (!(await claim(deps, { ...key, status: 'sending' }))) continue;
    const mail = reminderMail({ firstName: user.first_name, endAt, kind, publicUrl: deps.config.publicUrl });
    try {
      await deps.mailer.send({ to: user.email, ...mail });
    } catch (err) {
      await mark(deps, key, 'failed');
      deps.logger.warn(
        { err, userId: user.id, kind },
        'renewal reminder refused by the mail server; not retried',
      );
      continue;
    }
    await mark(deps, key, 'sent');
    sent += 1;
    logs.push(
      await recordAudit({
        db: deps.db.knex,
        deps,
        entry: {
          type: 'payment',
          description: `Renewal reminder sent (${kind === '1d' ? '1 day' : '3 days'} before the end)`,
          userId: user.id,
          data: { kind, endAt },
        },
      }),
    );
  }
  announceAudit({ deps, rows: logs });
  return sent;
}
