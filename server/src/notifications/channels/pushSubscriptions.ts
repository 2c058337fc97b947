// The push_subscriptions table: one row per browser a user turned push on in. Endpoint and keys are private
// (whoever holds them can write to that browser): they leave this module only towards the push service.
import type { Db } from '../../db';

/** How many browsers one user may register; the oldest beyond it is dropped (a user cannot fill the table). */
export const MAX_PUSH_SUBSCRIPTIONS_PER_USER = 20;

export interface PushSubscriptionRow {
  id: number;
  user_id: number;
  endpoint: string;
  p256dh: string;
  auth: string;
  user_agent: string | null;
  created_at: number;
  last_success_at: number | null;
}

export interface NewPushSubscription {
  userId: number;
  endpoint: string;
  p256dh: string;
  auth: string;
  userAgent: string | null;
  now: number;
}

/**
 * Saves a browser's subscription for `userId`. An endpoint is one browser profile: subscribing again (new keys, or
 * another account signed in on that browser) replaces the row, so a browser never receives another account's
 * notices.
 */
export async function savePushSubscription(db: Db, sub: NewPushSubscription): Promise<void> {
  await db('push_subscriptions')
    .insert({
      user_id: sub.userId,
      endpoint: sub.endpoint,
      p256dh: sub.p256dh,
      auth: sub.auth,
      user_agent: sub.userAgent,
      created_at: sub.now,
      last_success_at: null,
    })
    .onConflict('endpoint')
    .merge(['user_id', 'p256dh', 'auth', 'user_agent', 'created_at', 'last_success_at']);
  const stale = (await db('push_subscriptions')
    .where({ user_id: sub.userId })
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .offset(MAX_PUSH_SUBSCRIPTIONS_PER_USER)
    .limit(1000)
    .select('id')) as Array<{ id: number }>;
  if (stale.length > 0) {
    await db('push_subscriptions')
      .whereIn(
        'id',
        stale.map((r) => r.id),
      )
      .delete();
  }
}

/** Removes `userId`'s subscription for `endpoint`; true when there was one (another user's is left alone). */
export async function deletePushSubscription(db: Db, userId: number, endpoint: string): Promise<boolean> {
  const deleted = await db('push_subscriptions').where({ user_id: userId, endpoint }).delete();
  return deleted > 0;
}

/** The user's subscriptions, oldest first. */
export async function listPushSubscriptions(db: Db, userId: number): Promise<PushSubscriptionRow[]> {
  const rows = (await db('push_subscriptions')
    .where({ user_id: userId })
    .orderBy('id')
    .select('*')) as PushSubscriptionRow[];
  return rows.map((row) => ({
    ...row,
    // PostgreSQL returns bigint columns as strings.
    created_at: Number(row.created_at),
    last_success_at: row.last_success_at === null ? null : Number(row.last_success_at),
  }));
}

/** Drops a subscription the push service said is gone (404/410). */
export async function deletePushSubscriptionById(db: Db, id: number): Promise<void> {
  await db('push_subscriptions').where({ id }).delete();
}

/** Records that the push service accepted a message for this subscription. */
export async function markPushSuccess(db: Db, id: number, now: number): Promise<void> {
  await db('push_subscriptions').where({ id }).update({ last_success_at: now });
}
