// The sender's bookkeeping in SQL (sender.ts decides when and what; this is how it is written down): a delivery row
// per (outbox notice, channel), created before the channel is ever called; each attempt claimed by moving the row's
// `attempts` forward with a compare-and-set, holding a lease (next_attempt_at = now + lease) that another sender may
// take over once it runs out; an attempt's end written only if no later attempt took the row over; and the outbox
// notice closed once every channel of this server has settled its delivery.
import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock';
import type { Db } from '../db';
import { TEST_EVENT, type ChannelName } from './types';

export type DeliveryStatus = 'pending' | 'sent' | 'failed' | 'no_address' | 'off';

/** A claimed attempt: the delivery row, its notice, and the attempt's number (the claim). */
export interface DueRow {
  id: number;
  outbox_id: number;
  attempts: number;
}

/** An outbox row as stored. */
export interface OutboxRecord {
  id: number;
  event: string;
  user_id: number;
  payload: string;
  created_at: number | string;
}

/** How an attempt ended: a detail of the channel's (a message id) or the error, and when to try again. */
export interface SettleFields {
  detail?: string | null;
  lastError?: string | null;
  nextAttemptAt?: number | null;
}

export interface DeliveryStoreOptions {
  db: Db;
  clock: Clock;
  /** the channels this server has: a notice is done once each of them has settled */
  channelNames: readonly ChannelName[];
  /** how long a claimed attempt is owned before another sender may take it over */
  leaseMs: number;
  /** notices older than this are closed without a delivery */
  maxAgeMs: number;
}

export interface DeliveryStore {
  /** Creates this channel's delivery rows for new notices (the unique pair makes a second insert a no-op). */
  enqueue(channel: ChannelName): Promise<void>;
  /** Claims up to `limit` due attempts of `channel`: each claim moves `attempts` on only if nobody else did. */
  claimDue(channel: ChannelName, limit: number): Promise<DueRow[]>;
  /** Records the end of attempt `row.attempts` (only if no later attempt took the row over). */
  settle(row: DueRow, status: DeliveryStatus, fields: SettleFields): Promise<void>;
  /** The notice of a claimed attempt; undefined when it is gone. */
  notice(outboxId: number): Promise<OutboxRecord | undefined>;
  /** Records an admin's test send to `userId` through `channel`: a closed notice and its claimed first attempt. */
  recordTestSend(userId: number, channel: ChannelName): Promise<DueRow>;
}

/** The id of a row just inserted, whether the driver answers `.returning('id')` with `{ id }` or the bare number. */
const insertedId = (inserted: { id: number } | number | undefined): number =>
  typeof inserted === 'number' ? inserted : (inserted?.id ?? 0);

export function createDeliveryStore(options: DeliveryStoreOptions): DeliveryStore {
  const { db, clock, channelNames, leaseMs, maxAgeMs } = options;

  async function enqueue(channel: ChannelName): Promise<void> {
    const now = clock.now();
    // Too old to be worth sending (the server was down for days): closed without a delivery.
    await db('notification_outbox')
      .where('status', 'pending')
      .where('created_at', '<', now - maxAgeMs)
      .update({ status: 'done' });
    const ids = (await db('notification_outbox as o')
      .where('o.status', 'pending')
      .whereNotExists(
        db('notification_deliveries as d')
          .select(db.raw('1'))
          .whereRaw('d.outbox_id = o.id')
          .andWhere('d.channel', channel),
      )
      .orderBy('o.id')
      .limit(200)
      .pluck('o.id')) as number[];
    if (ids.length === 0) return;
    await db('notification_deliveries')
      .insert(
        ids.map((id) => ({
          outbox_id: id,
          channel,
          status: 'pending',
          attempts: 0,
          next_attempt_at: now,
          created_at: now,
          updated_at: now,
        })),
      )
      .onConflict(['outbox_id', 'channel'])
      .ignore();
  }

  async function claimDue(channel: ChannelName, limit: number): Promise<DueRow[]> {
    if (limit <= 0) return [];
    const now = clock.now();
    const due = (await db('notification_deliveries')
      .where({ channel, status: 'pending' })
      .where('next_attempt_at', '<=', now)
      .orderBy('next_attempt_at')
      .orderBy('id')
      .limit(limit)
      .select('id', 'outbox_id', 'attempts')) as DueRow[];
    const claimed: DueRow[] = [];
    for (const row of due) {
      const changed = await db('notification_deliveries')
        .where({ id: row.id, status: 'pending', attempts: row.attempts })
        .where('next_attempt_at', '<=', now)
        .update({ attempts: row.attempts + 1, next_attempt_at: now + leaseMs, updated_at: now });
      if (changed === 1) claimed.push({ ...row, attempts: row.attempts + 1 });
    }
    return claimed;
  }

  async function settle(row: DueRow, status: DeliveryStatus, fields: SettleFields): Promise<void> {
    const now = clock.now();
    await db('notification_deliveries')
      .where({ id: row.id, attempts: row.attempts, status: 'pending' })
      .update({
        status,
        next_attempt_at: fields.nextAttemptAt ?? null,
        ...(fields.detail !== undefined ? { detail: fields.detail?.slice(0, 200) ?? null } : {}),
        ...(fields.lastError !== undefined ? { last_error: fields.lastError?.slice(0, 500) ?? null } : {}),
        updated_at: now,
      });
    if (status !== 'pending') await markDoneIfSettled(row.outbox_id);
  }

  /** The outbox row is done once every channel of this server has settled its delivery. */
  async function markDoneIfSettled(outboxId: number): Promise<void> {
    const settled = (await db('notification_deliveries')
      .where({ outbox_id: outboxId })
      .whereIn('channel', [...channelNames])
      .whereNot('status', 'pending')
      .pluck('channel')) as string[];
    if (new Set(settled).size < channelNames.length) return;
    await db('notification_outbox').where({ id: outboxId, status: 'pending' }).update({ status: 'done' });
  }

  async function notice(outboxId: number): Promise<OutboxRecord | undefined> {
    return (await db('notification_outbox')
      .where({ id: outboxId })
      .first('id', 'event', 'user_id', 'payload', 'created_at')) as OutboxRecord | undefined;
  }

  async function recordTestSend(userId: number, channel: ChannelName): Promise<DueRow> {
    const now = clock.now();
    const [inserted] = (await db('notification_outbox')
      .insert({
        event: TEST_EVENT,
        user_id: userId,
        payload: '{}',
        dedupe_key: `test:${randomUUID()}:${userId}`,
        status: 'done',
        created_at: now,
      })
      .returning('id')) as Array<{ id: number } | number>;
    const outboxId = insertedId(inserted);
    const [delivery] = (await db('notification_deliveries')
      .insert({
        outbox_id: outboxId,
        channel,
        status: 'pending',
        attempts: 1,
        next_attempt_at: now + leaseMs,
        created_at: now,
        updated_at: now,
      })
      .returning('id')) as Array<{ id: number } | number>;
    return { id: insertedId(delivery), outbox_id: outboxId, attempts: 1 };
  }

  return { enqueue, claimDue, settle, notice, recordTestSend };
}
