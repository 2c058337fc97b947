// The shared vocabulary of notifications: which events there are, which channels carry them, and what a channel
// must do. The outbox (outbox.ts) records an event in the same transaction as the fact it reports; the sender
// (sender.ts) renders it once and hands it to each channel the operator configured and the user chose.

/** What happened. Trader events go to the user they concern; admin events go to every admin. */
export const TRADER_EVENTS = [
  'trade_opened',
  'trade_closed',
  'daily_summary',
  'daily_loss_limit',
  'broker_session_expired',
  'order_rejected',
  'renewal_reminder',
  'payment_received',
  'refund_issued',
] as const;

export const ADMIN_EVENTS = [
  'feed_down',
  'restart_with_open_positions',
  'broker_errors',
  'upi_review',
  'contact_message',
] as const;

export type TraderEvent = (typeof TRADER_EVENTS)[number];
export type AdminEvent = (typeof ADMIN_EVENTS)[number];
export type NotificationEvent = TraderEvent | AdminEvent;

/** The admin page's test send: delivered through a channel like an event, never recorded from a fact. */
export const TEST_EVENT = 'test';
/** What a channel may be handed: an event, or the admin's test send. */
export type DeliveredEvent = NotificationEvent | typeof TEST_EVENT;

export const CHANNELS = ['email', 'telegram', 'push'] as const;
export type ChannelName = (typeof CHANNELS)[number];

/** A file sent with an e-mail (other channels ignore it), e.g. the GST invoice PDF with a payment receipt. */
export interface NotificationAttachment {
  readonly filename: string;
  readonly contentType: string;
  readonly content: Buffer;
}

/** One event rendered for one user, ready for any channel. */
export interface RenderedNotification {
  /** the outbox row's id: a channel may use it as an idempotency key */
  readonly outboxId: number;
  readonly event: DeliveredEvent;
  /** subject line / push title / first line of the Telegram message */
  readonly title: string;
  /** the message as plain text (Telegram, push body, the e-mail's text part) */
  readonly text: string;
  /** the e-mail's HTML part (escaped by the renderer) */
  readonly html: string;
  /** where the app shows it, a path such as /dashboard (push click target, e-mail button) */
  readonly path: string;
  /** true for mail the user cannot unsubscribe from (payment receipts, refunds, security) */
  readonly essential: boolean;
  readonly attachments?: readonly NotificationAttachment[];
}

/** Who a notification goes to, as the sender looked them up. */
export interface NotificationRecipient {
  readonly userId: number;
  readonly email: string;
  readonly name: string;
  /** a signed one-click unsubscribe URL for non-essential mail (absolute) */
  readonly unsubscribeUrl: string;
}

/** The outcome of one delivery attempt that did not throw. */
export type DeliveryOutcome =
  /** handed to the channel's service */
  | { readonly status: 'sent'; readonly detail?: string }
  /** the user has no address on this channel (no linked chat, no push subscription): not an error, not retried */
  | { readonly status: 'no_address' };

/** A failure that retrying cannot fix (a chat that blocked the bot, a push subscription that is gone). */
export class PermanentDeliveryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PermanentDeliveryError';
  }
}

/**
 * One way of reaching a person. `deliver` throws on failure: a `PermanentDeliveryError` is recorded as failed
 * and not retried; any other error is retried with backoff by the sender.
 */
export interface NotificationChannel {
  readonly name: ChannelName;
  deliver(recipient: NotificationRecipient, message: RenderedNotification): Promise<DeliveryOutcome>;
  /**
   * A channel that also receives (Telegram's commands, by long polling) starts listening: only on the node that
   * sends, since two pollers on one bot token refuse each other. Resolves once listening; rejects when it could not.
   */
  listen?(): Promise<void>;
  /** stops listening (the node stopped leading); `listen` may start it again */
  stopListening?(): Promise<void>;
  /** stops background work (Telegram polling, SMTP pool) */
  close(): Promise<void>;
}
