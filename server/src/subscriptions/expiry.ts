// Active → expired at the end date (and, in the same job, renewal reminders: renewalReminders.ts). The work is derived from the database (every active subscription whose end
// has passed), so a run after a restart or a missed tick catches up with everything due; running it twice changes
// nothing the second time. Each transition is audited; the trading engine hears of it after the commit (the bot
// takes no new entries for the user, open positions are still managed to their exits by the engine).
import type { Deps } from '../deps';
import type { LogRow } from '../db';
import { announceAudit, recordAudit } from '../services/audit';
import { recordDueReminders } from './renewalReminders';

type JobDeps = Pick<Deps, 'db' | 'clock' | 'logger' | 'realtime'>;

/** Expires every subscription due by now; returns the user ids that changed. */
export async function expireDueSubscriptions(props: {
  deps: JobDeps;
  onUserChanged: (userId: number) => Promise<void>;
}): Promise<number[]> {
  const { deps } = props;
  const now = deps.clock.now();
  const due = (await deps.db
    .knex('users')
    .where({ subscription_status: 'active' })
    .where('subscription_end_at', '<=', now)
    .select('id', 'subscription_end_at')) as Array<{ id: number; subscription_end_at: number | string }>;
  const expired: number[] = [];
  const logs: LogRow[] = [];
  for (const row of due) {
    const log = await deps.db.knex.transaction(async (trx) => {
      // Guarded update: a renewal committed since the select keeps the subscription active.
      const changed = await trx('users')
        .where({ id: row.id, subscription_status: 'active' })
        .where('subscription_end_at', '<=', now)
        .update({ subscription_status: 'expired', updated_at: now });
      if (changed === 0) return null;
      return recordAudit({
        db: trx,
        deps,
        entry: {
          type: 'payment',
          description: `Subscription expired (ended ${new Date(Number(row.subscription_end_at)).toISOString()})`,
          userId: row.id,
          data: { from: 'active', to: 'expired', endAt: Number(row.subscription_end_at) },
        },
      });
    });
    if (!log) continue;
    logs.push(log);
    expired.push(row.id);
  }
  announceAudit({ deps, rows: logs });
  for (const userId of expired) {
    try {
      await props.onUserChanged(userId);
    } catch (err) {
      deps.logger.error({ err, userId }, 'trading refresh after expiry failed');
    }
  }
  return expired;
}

/**
 * Runs the expiry and the renewal reminders once now (catching up on anything missed while the server was down)
 * and then every `intervalMs`; a failure of one never skips the other. Returns a stop function for shutdown.
 */
export function startSubscriptionJobs(props: {
  deps: JobDeps & Parameters<typeof recordDueReminders>[0]['deps'];
  onUserChanged: (userId: number) => Promise<void>;
  intervalMs?: number;
}): { ready: Promise<void>; stop: () => void } {
  const run = async () => {
    try {
      await expireDueSubscriptions(props);
    } catch (err) {
      props.deps.logger.error({ err }, 'subscription expiry run failed');
    }
    try {
      await recordDueReminders({ deps: props.deps });
    } catch (err) {
      props.deps.logger.error({ err }, 'renewal reminder run failed');
    }
  };
  const ready = run();
  const timer = setInterval(() => void run(), props.intervalMs ?? 60_000);
  timer.unref();
  return { ready, stop: () => clearInterval(timer) };
}
