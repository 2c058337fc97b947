// Who wants what, where: a per-event × per-channel table. Only the choices a user changed from the defaults are
// stored (notification_preferences), so a new event or a changed default reaches everyone who never touched it.
// The sender asks `isEnabled` before every attempt; the settings routes read and write through the same functions.
import type { Db } from '../db';
import {
  ADMIN_EVENTS,
  CHANNELS,
  TRADER_EVENTS,
  type ChannelName,
  type NotificationEvent,
  type TraderEvent,
} from './types';

const EVERYWHERE: Readonly<Record<ChannelName, boolean>> = { email: true, telegram: true, push: true };
const EMAIL_ONLY: Readonly<Record<ChannelName, boolean>> = { email: true, telegram: false, push: false };

/**
 * The defaults: trades and safety events everywhere, the daily summary everywhere, money matters (renewal, payment,
 * refund) by e-mail; admin events everywhere for admins. Nothing we send is marketing, so there is no such row.
 */
export const DEFAULT_PREFERENCES: Readonly<
  Record<NotificationEvent, Readonly<Record<ChannelName, boolean>>>
> = {
  trade_opened: EVERYWHERE,
  trade_closed: EVERYWHERE,
  order_rejected: EVERYWHERE,
  daily_loss_limit: EVERYWHERE,
  broker_session_expired: EVERYWHERE,
  daily_summary: EVERYWHERE,
  renewal_reminder: EMAIL_ONLY,
  payment_received: EMAIL_ONLY,
  refund_issued: EMAIL_ONLY,
  feed_down: EVERYWHERE,
  restart_with_open_positions: EVERYWHERE,
  broker_errors: EVERYWHERE,
  upi_review: EVERYWHERE,
  contact_message: EVERYWHERE,
};

/**
 * E-mails a user cannot turn off: the payment receipt carries the GST tax invoice and the refund e-mail its credit
 * note. They carry no unsubscribe link (RenderedNotification.essential) and their switch is shown locked.
 */
export const ESSENTIAL_EMAIL_EVENTS: ReadonlySet<NotificationEvent> = new Set<TraderEvent>([
  'payment_received',
  'refund_issued',
]);

/** true when (event, channel) cannot be turned off. */
export function isLocked(event: NotificationEvent, channel: ChannelName): boolean {
  return channel === 'email' && ESSENTIAL_EMAIL_EVENTS.has(event);
}

/** The events a user may choose about: trader events for everyone, admin events for admins too. */
export function eventsFor(user: { is_admin: boolean }): readonly NotificationEvent[] {
  return user.is_admin ? [...TRADER_EVENTS, ...ADMIN_EVENTS] : TRADER_EVENTS;
}

export type PreferenceTable = Record<NotificationEvent, Record<ChannelName, boolean>>;

/** One choice to store. */
export interface PreferenceChange {
  readonly event: NotificationEvent;
  readonly channel: ChannelName;
  readonly enabled: boolean;
}

interface PreferenceRow {
  event: string;
  channel: string;
  enabled: boolean | number;
}

const isEvent = (value: string): value is NotificationEvent => value in DEFAULT_PREFERENCES;
const isChannel = (value: string): value is ChannelName => (CHANNELS as readonly string[]).includes(value);

/** The whole table for `userId`: the defaults overlaid with the stored changes (locked pairs always on). */
export async function readPreferences(db: Db, userId: number): Promise<PreferenceTable> {
  const table = Object.fromEntries(
    Object.entries(DEFAULT_PREFERENCES).map(([event, channels]) => [event, { ...channels }]),
  ) as PreferenceTable;
  const rows = (await db('notification_preferences')
    .where({ user_id: userId })
    .select('event', 'channel', 'enabled')) as PreferenceRow[];
  for (const row of rows) {
    if (!isEvent(row.event) || !isChannel(row.channel) || isLocked(row.event, row.channel)) continue;
    table[row.event][row.channel] = Boolean(row.enabled);
  }
  return table;
}

/** Whether `userId` wants `event` on `channel` (what the sender asks before every attempt). */
export async function isEnabled(
  db: Db,
  userId: number,
  event: NotificationEvent,
  channel: ChannelName,
): Promise<boolean> {
  if (isLocked(event, channel)) return true;
  const row = (await db('notification_preferences')
    .where({ user_id: userId, event, channel })
    .first('enabled')) as Pick<PreferenceRow, 'enabled'> | undefined;
  return row === undefined ? DEFAULT_PREFERENCES[event][channel] : Boolean(row.enabled);
}

/**
 * Stores `changes` for `userId`: a choice equal to the default deletes its row, any other is upserted, so the
 * table holds only what differs. Locked pairs are the caller's to refuse (the route answers 400); here they are
 * skipped. Pass a transaction to make several changes one write.
 */
export async function writePreferences(
  db: Db,
  userId: number,
  changes: readonly PreferenceChange[],
  now: number,
): Promise<void> {
  for (const { event, channel, enabled } of changes) {
    if (isLocked(event, channel)) continue;
    if (DEFAULT_PREFERENCES[event][channel] === enabled) {
      await db('notification_preferences').where({ user_id: userId, event, channel }).delete();
    } else {
      await db('notification_preferences')
        .insert({ user_id: userId, event, channel, enabled, updated_at: now })
        .onConflict(['user_id', 'event', 'channel'])
        .merge({ enabled, updated_at: now });
    }
  }
}
