// Commands behind the notification routes: the caller's table (read, change), the admin's deliveries list. Routes
// stay thin and call these with one props object.
import type { DeliveriesQuery, NotificationSettingsDto, NotificationSettingsRequest } from '../contract';
import { countOf, type Db } from '../db';
import { AppError } from '../errors';
import {
  presentDelivery,
  presentNotificationSettings,
  EVENT_LABELS,
  CHANNEL_LABELS,
  type DeliveryListRow,
} from '../presenters/notifications';
import { eventsFor, isLocked, readPreferences, writePreferences, type PreferenceChange } from './preferences';
import type { ChannelName, NotificationEvent } from './types';

interface Caller {
  id: number;
  is_admin: boolean;
}

/** The caller's per-event × per-channel table: trader events, and admin events too for an admin. */
export async function notificationSettingsFor(props: {
  db: Db;
  user: Caller;
  available: readonly ChannelName[];
}): Promise<NotificationSettingsDto> {
  const table = await readPreferences(props.db, props.user.id);
  return presentNotificationSettings(table, eventsFor(props.user), props.available);
}

/**
 * Applies the caller's changes in one transaction. An event the caller may not choose about (an admin event for a
 * trader, an unknown name) or a locked switch turned off is a 400 naming `changes.<i>.event` / `.enabled`.
 */
export async function updateNotificationSettings(props: {
  db: Db;
  user: Caller;
  input: NotificationSettingsRequest;
  available: readonly ChannelName[];
  now: number;
}): Promise<NotificationSettingsDto> {
  const allowed = new Set<string>(eventsFor(props.user));
  const changes: PreferenceChange[] = props.input.changes.map((change, i) => {
    if (!allowed.has(change.event)) {
      throw new AppError('validation_failed', {
        field: `changes.${i}.event`,
        message: `changes.${i}.event: ${change.event.slice(0, 40)} is not a notification you can choose`,
      });
    }
    const event = change.event as NotificationEvent;
    if (isLocked(event, change.channel) && !change.enabled) {
      throw new AppError('validation_failed', {
        field: `changes.${i}.enabled`,
        message: `changes.${i}.enabled: ${CHANNEL_LABELS[change.channel]} for ${EVENT_LABELS[event].label} cannot be turned off`,
      });
    }
    return { event, channel: change.channel, enabled: change.enabled };
  });
  await props.db.transaction((trx) => writePreferences(trx, props.user.id, changes, props.now));
  return notificationSettingsFor(props);
}

/** Recent deliveries, newest first, filtered by status and channel. */
export async function listDeliveries(props: {
  db: Db;
  query: DeliveriesQuery;
  channels: readonly ChannelName[];
}) {
  const { db, query } = props;
  const filtered = () => {
    const q = db('notification_deliveries as d')
      .join('notification_outbox as o', 'o.id', 'd.outbox_id')
      .join('users as u', 'u.id', 'o.user_id');
    if (query.status) q.where('d.status', query.status);
    if (query.channel) q.where('d.channel', query.channel);
    return q;
  };
  const [total, rows] = await Promise.all([
    filtered().count({ n: '*' }),
    filtered()
      .orderBy('d.id', 'desc')
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize)
      .select(
        'd.id',
        'd.outbox_id',
        'o.event',
        'o.user_id',
        'u.email',
        'd.channel',
        'd.status',
        'd.attempts',
        'd.last_error',
        'd.detail',
        'o.created_at as recorded_at',
        'd.updated_at',
        'd.next_attempt_at',
      ),
  ]);
  return {
    items: (rows as DeliveryListRow[]).map(presentDelivery),
    total: countOf(total),
    page: query.page,
    pageSize: query.pageSize,
    channels: [...props.channels],
  };
}
