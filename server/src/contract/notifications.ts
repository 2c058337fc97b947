// Contract of notifications (issue 20): the Settings tab's per-event × per-channel table, and the admin page's
// deliveries list and test send. The server decides which events a caller sees (trader events; admin events too
// for admins) and sends them with their labels, so the web renders the table it is given.
import { z } from 'zod';
import type { PageDto } from './admin/listing';

export const NOTIFICATION_CHANNELS = ['email', 'telegram', 'push'] as const;
export type NotificationChannelName = (typeof NOTIFICATION_CHANNELS)[number];

export const DELIVERY_STATUSES = ['pending', 'sent', 'failed', 'no_address', 'off'] as const;
export type DeliveryStatusName = (typeof DELIVERY_STATUSES)[number];

export interface NotificationChannelDto {
  channel: NotificationChannelName;
  /** "E-mail", "Telegram", "Browser push" */
  label: string;
  /** the operator set this channel up on this server; switches of other channels change nothing today */
  available: boolean;
}

export interface NotificationEventDto {
  /** the event's id, e.g. `trade_closed` */
  event: string;
  /** "Trade closed" */
  label: string;
  description: string;
  audience: 'trader' | 'admin';
  /** per channel: on or off, and whether it can be changed (a payment receipt's e-mail cannot be turned off) */
  channels: Record<NotificationChannelName, { enabled: boolean; locked: boolean }>;
}

/** `GET/PUT /api/user/notifications` */
export interface NotificationSettingsDto {
  channels: NotificationChannelDto[];
  events: NotificationEventDto[];
}

/** `PUT /api/user/notifications`: the switches that changed (the others stay as they are). */
export const notificationSettingsSchema = z.object({
  changes: z
    .array(
      z.object({
        event: z.string({ error: 'event must be text' }).trim().min(1, 'event is required').max(40),
        channel: z.enum(NOTIFICATION_CHANNELS, {
          error: `channel must be one of ${NOTIFICATION_CHANNELS.join(', ')}`,
        }),
        enabled: z.boolean({ error: 'enabled must be true or false' }),
      }),
      { error: 'changes must be a list' },
    )
    .min(1, 'changes must name at least one switch')
    .max(200, 'changes must name at most 200 switches'),
});
export type NotificationSettingsRequest = z.infer<typeof notificationSettingsSchema>;

/** `GET /api/admin/notifications/deliveries?page=&pageSize=&status=&channel=` */
export const deliveriesQuerySchema = z.object({
  page: z.coerce
    .number({ error: 'page must be a number' })
    .int('page must be a whole number')
    .min(1, 'page must be at least 1')
    .max(100_000, 'page is too large')
    .default(1),
  pageSize: z.coerce
    .number({ error: 'pageSize must be a number' })
    .int('pageSize must be a whole number')
    .min(1, 'pageSize must be between 1 and 100')
    .max(100, 'pageSize must be between 1 and 100')
    .default(50),
  status: z
    .enum(DELIVERY_STATUSES, { error: `status must be one of ${DELIVERY_STATUSES.join(', ')}` })
    .optional(),
  channel: z
    .enum(NOTIFICATION_CHANNELS, { error: `channel must be one of ${NOTIFICATION_CHANNELS.join(', ')}` })
    .optional(),
});
export type DeliveriesQuery = z.infer<typeof deliveriesQuerySchema>;

/** One delivery of one notice on one channel, as the admin page lists it. Times are ISO-8601 UTC. */
export interface NotificationDeliveryDto {
  id: number;
  outboxId: number;
  /** the event's id, or `test` for an admin's test send */
  event: string;
  eventLabel: string;
  userId: number;
  userEmail: string;
  channel: NotificationChannelName;
  status: DeliveryStatusName;
  attempts: number;
  /** why the last attempt failed */
  lastError: string | null;
  /** what the channel said when it accepted (e.g. a message id) */
  detail: string | null;
  /** when the notice was recorded */
  recordedAt: string;
  updatedAt: string;
  /** the next retry (pending only) */
  nextAttemptAt: string | null;
}

/** `GET /api/admin/notifications/deliveries`: newest first, with the channels this server has (for "Send test"). */
export interface NotificationDeliveriesDto extends PageDto<NotificationDeliveryDto> {
  channels: NotificationChannelName[];
}

/** `POST /api/admin/notifications/test` */
export const notificationTestSchema = z.object({
  channel: z.enum(NOTIFICATION_CHANNELS, {
    error: `channel must be one of ${NOTIFICATION_CHANNELS.join(', ')}`,
  }),
});

export interface NotificationTestDto {
  channel: NotificationChannelName;
  status: 'sent' | 'no_address' | 'failed';
  detail: string | null;
  error: string | null;
  message: string;
}
