import type {
  DeliveryStatusName,
  NotificationChannelName,
  NotificationDeliveryDto,
  NotificationSettingsDto,
} from '../contract';
import { isLocked, type PreferenceTable } from '../notifications/preferences';
import { ADMIN_EVENTS, CHANNELS, type ChannelName, type NotificationEvent } from '../notifications/types';

// The wire's channel names are the server's: a channel added on one side and not the other fails to compile.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameChannels: Same<ChannelName, NotificationChannelName> = true;
void sameChannels;

export const CHANNEL_LABELS: Readonly<Record<ChannelName, string>> = {
  email: 'E-mail',
  telegram: 'Telegram',
  push: 'Browser push',
};

export const EVENT_LABELS: Readonly<Record<NotificationEvent, { label: string; description: string }>> = {
  trade_opened: { label: 'Trade opened', description: 'The bot bought an option for you' },
  trade_closed: { label: 'Trade closed', description: 'A position was closed, with its P&L' },
  order_rejected: { label: 'Order rejected', description: 'Your broker refused an order' },
  daily_loss_limit: {
    label: 'Daily loss limit reached',
    description: 'Positions closed and trading stopped for the day',
  },
  broker_session_expired: {
    label: 'Broker session expired',
    description: 'Log in to your broker again to keep trading',
  },
  daily_summary: { label: 'Daily summary', description: "The day's trades and P&L after the close" },
  renewal_reminder: { label: 'Renewal reminder', description: 'Your subscription is about to end' },
  payment_received: {
    label: 'Payment received',
    description: 'Receipt with your GST invoice (always e-mailed)',
  },
  refund_issued: { label: 'Refund issued', description: 'Refund with its credit note (always e-mailed)' },
  feed_down: { label: 'Market feed down', description: 'Admin: the market data feed stopped' },
  restart_with_open_positions: {
    label: 'Restart with open positions',
    description: 'Admin: the server restarted while positions were open',
  },
  broker_errors: { label: 'Broker errors', description: 'Admin: repeated errors from a broker' },
  upi_review: { label: 'UPI payment to review', description: 'Admin: a trader sent a UPI payment' },
  contact_message: {
    label: 'Contact message',
    description: 'Admin: a visitor wrote through the contact form',
  },
};

const ADMIN = new Set<string>(ADMIN_EVENTS);

/** The label of a stored event id (`test` is an admin's test send). */
export function eventLabel(event: string): string {
  if (event === 'test') return 'Test';
  return event in EVENT_LABELS ? EVENT_LABELS[event as NotificationEvent].label : event;
}

/** The preference table of `events` → the Settings tab's DTO. */
export function presentNotificationSettings(
  table: PreferenceTable,
  events: readonly NotificationEvent[],
  available: readonly ChannelName[],
): NotificationSettingsDto {
  return {
    channels: CHANNELS.map((channel) => ({
      channel,
      label: CHANNEL_LABELS[channel],
      available: available.includes(channel),
    })),
    events: events.map((event) => ({
      event,
      label: EVENT_LABELS[event].label,
      description: EVENT_LABELS[event].description,
      audience: ADMIN.has(event) ? 'admin' : 'trader',
      channels: {
        email: { enabled: table[event].email, locked: isLocked(event, 'email') },
        telegram: { enabled: table[event].telegram, locked: isLocked(event, 'telegram') },
        push: { enabled: table[event].push, locked: isLocked(event, 'push') },
      },
    })),
  };
}

/** A deliveries row joined with its outbox row and user. */
export interface DeliveryListRow {
  id: number;
  outbox_id: number;
  event: string;
  user_id: number;
  email: string;
  channel: string;
  status: string;
  attempts: number;
  last_error: string | null;
  detail: string | null;
  recorded_at: number | string;
  updated_at: number | string;
  next_attempt_at: number | string | null;
}

const iso = (ms: number | string) => new Date(Number(ms)).toISOString();

export function presentDelivery(row: DeliveryListRow): NotificationDeliveryDto {
  return {
    id: row.id,
    outboxId: row.outbox_id,
    event: row.event,
    eventLabel: eventLabel(row.event),
    userId: row.user_id,
    userEmail: row.email,
    channel: row.channel as NotificationChannelName,
    status: row.status as DeliveryStatusName,
    attempts: row.attempts,
    lastError: row.last_error,
    detail: row.detail,
    recordedAt: iso(row.recorded_at),
    updatedAt: iso(row.updated_at),
    nextAttemptAt: row.status === 'pending' && row.next_attempt_at !== null ? iso(row.next_attempt_at) : null,
  };
}
