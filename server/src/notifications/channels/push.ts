// The browser push channel: a notice goes to every browser the user turned push on in, encrypted to that
// browser's keys (RFC 8291, aes128gcm) and signed with the server's VAPID key (RFC 8292), through the web-push
// library. The service worker (web/public/sw.js) shows it. A browser whose push service says the subscription is
// gone (404/410) is forgotten; a busy or unreachable push service (429, 5xx, network) is retried by the sender.
import type { Agent as HttpsAgent } from 'node:https';
import webpush from 'web-push';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import type { Db } from '../../db';
import type { Deps } from '../../deps';
import type { Logger } from '../../logger';
import {
  PermanentDeliveryError,
  type DeliveryOutcome,
  TEST_EVENT,
  type DeliveredEvent,
  type NotificationChannel,
  type NotificationEvent,
  type NotificationRecipient,
  type RenderedNotification,
} from '../types';
import {
  deletePushSubscriptionById,
  listPushSubscriptions,
  markPushSuccess,
  type PushSubscriptionRow,
} from './pushSubscriptions';
import { loadOrCreateVapidKeys, type VapidKeys } from './vapidKeys';

/** What the service worker receives (decrypted): it shows `title`/`body` and opens `url` when clicked. */
export interface PushPayload {
  readonly title: string;
  readonly body: string;
  readonly url: string;
  /** one per notice: a repeated delivery replaces the shown notification instead of adding a second one */
  readonly tag: string;
}

const HOUR_SECONDS = 3600;

/**
 * How long a push service keeps a message for a browser that is offline. A trade or a broker alert an hour late
 * is stale (the dashboard says more by then); a receipt or reminder still matters the next day.
 */
const TTL_SECONDS: Partial<Record<NotificationEvent, number>> = {
  trade_opened: HOUR_SECONDS,
  trade_closed: HOUR_SECONDS,
  order_rejected: HOUR_SECONDS,
  daily_loss_limit: HOUR_SECONDS,
  broker_session_expired: 4 * HOUR_SECONDS,
  feed_down: HOUR_SECONDS,
  restart_with_open_positions: HOUR_SECONDS,
  broker_errors: HOUR_SECONDS,
  daily_summary: 12 * HOUR_SECONDS,
};
const DEFAULT_TTL_SECONDS = 24 * HOUR_SECONDS;

/** Events a phone may wake for at once (RFC 8030 Urgency); the rest wait for the device's own schedule. */
const HIGH_URGENCY = new Set<DeliveredEvent>([
  'trade_opened',
  'trade_closed',
  'order_rejected',
  'daily_loss_limit',
  'broker_session_expired',
  'feed_down',
  'restart_with_open_positions',
]);

export function pushTtlSeconds(event: DeliveredEvent): number {
  return (event === TEST_EVENT ? undefined : TTL_SECONDS[event]) ?? DEFAULT_TTL_SECONDS;
}

export interface PushChannelOptions {
  db: Db;
  logger: Logger;
  clock: Clock;
  vapid: VapidKeys;
  /** VAPID `sub`: how a push service reaches the operator (`mailto:` or `https:`) */
  subject: string;
  /** the HTTPS agent for push services (tests pass one that trusts the fake's certificate) */
  agent?: HttpsAgent;
  /** per request; default 10 s */
  timeoutMs?: number;
}

type Attempt =
  | { kind: 'sent' }
  | { kind: 'gone'; status: number }
  | { kind: 'refused'; status: number }
  | { kind: 'retry'; reason: string };

/** The push channel over explicit keys and agent (see `pushChannelFromConfig` for the server's). */
export function createPushChannel(options: PushChannelOptions): NotificationChannel {
  const { db, logger, clock, vapid, subject } = options;
  const vapidDetails = { subject, publicKey: vapid.publicKey, privateKey: vapid.privateKey };

  async function attempt(sub: PushSubscriptionRow, payload: string, event: DeliveredEvent): Promise<Attempt> {
    // The host names the push service (fcm.googleapis.com, …) without the private path.
    const host = hostOf(sub.endpoint);
    try {
      await webpush.sendNotification(
        { endpoint: sub.endpoint, keys: { p256dh: sub.p256dh, auth: sub.auth } },
        payload,
        {
          vapidDetails,
          TTL: pushTtlSeconds(event),
          urgency: HIGH_URGENCY.has(event) ? 'high' : 'normal',
          timeout: options.timeoutMs ?? 10_000,
          ...(options.agent ? { agent: options.agent } : {}),
        },
      );
      return { kind: 'sent' };
    } catch (err) {
      // web-push's errors carry the endpoint; only the status and host are kept, so no log line can hold it.
      if (err instanceof webpush.WebPushError) {
        const status = err.statusCode;
        if (status === 404 || status === 410) return { kind: 'gone', status };
        if (status === 429 || status >= 500) return { kind: 'retry', reason: `${host} answered ${status}` };
        return { kind: 'refused', status };
      }
      const code = (err as NodeJS.ErrnoException).code;
      return { kind: 'retry', reason: `${host} unreachable (${code ?? 'no answer'})` };
    }
  }

  return {
    name: 'push',
    async deliver(recipient: NotificationRecipient, message: RenderedNotification): Promise<DeliveryOutcome> {
      const subs = await listPushSubscriptions(db, recipient.userId);
      if (subs.length === 0) return { status: 'no_address' };
      const body: PushPayload = {
        title: message.title,
        body: message.text,
        url: message.path,
        tag: `notice-${message.outboxId}`,
      };
      const payload = JSON.stringify(body);
      const results = await Promise.all(subs.map((sub) => attempt(sub, payload, message.event)));

      let sent = 0;
      const gone: number[] = [];
      const refused: number[] = [];
      const retry: string[] = [];
      for (const [i, result] of results.entries()) {
        const sub = subs[i]!;
        if (result.kind === 'sent') {
          sent += 1;
          await markPushSuccess(db, sub.id, clock.now());
        } else if (result.kind === 'gone') {
          gone.push(result.status);
          await deletePushSubscriptionById(db, sub.id);
          logger.info(
            { userId: recipient.userId, subscriptionId: sub.id, status: result.status },
            'push subscription gone, removed',
          );
        } else if (result.kind === 'refused') {
          refused.push(result.status);
        } else {
          retry.push(result.reason);
        }
      }
      if (refused.length > 0) {
        logger.warn(
          { userId: recipient.userId, outboxId: message.outboxId, statuses: refused },
          'push service refused a message',
        );
      }
      // Retrying sends to every browser again, those that got it too: the notice's tag makes the repeat replace
      // the shown notification silently rather than add a second one.
      if (retry.length > 0) {
        throw new Error(`push to ${retry.length} of ${subs.length} browsers failed: ${retry.join('; ')}`);
      }
      if (sent > 0) return { status: 'sent', detail: `${sent} of ${subs.length} browsers` };
      const parts = [
        ...(gone.length > 0 ? [`${gone.length} subscriptions gone (removed)`] : []),
        ...(refused.length > 0 ? [`refused with HTTP ${refused.join(', ')}`] : []),
      ];
      throw new PermanentDeliveryError(`no browser accepted the push: ${parts.join('; ')}`);
    },
    // Nothing runs in the background; the agent belongs to whoever passed it.
    async close() {},
  };
}

function hostOf(endpoint: string): string {
  try {
    return new URL(endpoint).host;
  } catch {
    return 'push service';
  }
}

/** The VAPID `sub` claim: the operator's support address, where a push service can write about abuse. */
export function vapidSubject(config: Pick<Config, 'operator'>): string {
  return `mailto:${config.operator.supportEmail}`;
}

/** The server's push channel: VAPID keys from DATA_DIR/secrets/vapid.json (made on first start). */
export function pushChannelFromConfig(
  config: Pick<Config, 'dataDir' | 'operator'>,
  deps: Pick<Deps, 'db' | 'logger' | 'clock'>,
  extra: Pick<PushChannelOptions, 'agent' | 'timeoutMs'> = {},
): NotificationChannel {
  return createPushChannel({
    db: deps.db.knex,
    logger: deps.logger,
    clock: deps.clock,
    ...extra,
    vapid: loadOrCreateVapidKeys(config.dataDir),
    subject: vapidSubject(config),
  });
}
