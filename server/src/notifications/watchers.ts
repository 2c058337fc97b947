// Admin events that are not rows of their own: the market feed silent during the session, a run of broker
// errors, an engine start with positions open. Each is recorded in the outbox when it is observed, once per
// occurrence (the fact key names the outage, the error window or the start), by one insert per admin and never on
// an order's path: the trading service calls these from its health stream and timers, and a failure is logged.
import type { FeedHealth } from '@optionpilot/engine';
import type { Db } from '../db';
import { recordAdminNotice } from './outbox';

/** A feed silent this long while the market is open is an outage worth an admin's attention. */
export const FEED_DOWN_AFTER_MS = 30_000;

export interface FeedDownWatcher {
  /**
   * Looks at the feed at `now` (wall clock): records `feed_down` once per outage when the feed has been silent for
   * more than 30 s during the session. Resolves true when it recorded a notice.
   */
  check(feed: FeedHealth, inSession: boolean, now: number): Promise<boolean>;
}

/**
 * Watches for a silent feed. The outage starts at the last tick (or, with no tick yet, when the silence was first
 * seen in session); its start is the fact key, so the notice is recorded once per outage, even across a restart
 * that sees the same last tick.
 */
export function createFeedDownWatcher(props: { db: Db; feedKind: () => string }): FeedDownWatcher {
  let silentSince: number | null = null;
  let reported: number | null = null;
  return {
    async check(feed, inSession, now) {
      if (feed.status === 'live' || !inSession) {
        silentSince = null;
        return false;
      }
      const since = feed.lastTickAt ?? (silentSince ??= now);
      if (now - since <= FEED_DOWN_AFTER_MS || reported === since) return false;
      reported = since;
      const recorded = await recordAdminNotice(
        props.db,
        {
          event: 'feed_down',
          factKey: String(since),
          payload: { feed: props.feedKind(), status: feed.status, since, at: now },
        },
        now,
      );
      return recorded > 0;
    },
  };
}

/** Broker errors at or above this count within the window make one admin notice per broker and window. */
export const BROKER_ERROR_THRESHOLD = 5;
export const BROKER_ERROR_WINDOW_MS = 5 * 60_000;

export interface BrokerErrorCounter {
  /** Counts one error of `broker` at `now`; resolves true when it recorded a `broker_errors` notice. */
  count(broker: string, message: string, now: number): Promise<boolean>;
}

/**
 * Counts broker errors per broker over a sliding five-minute window. When the count reaches the threshold, one
 * notice is recorded (fact key: broker and the window's first error); errors in the next five minutes are counted
 * into a new window rather than repeating the alarm.
 */
export function createBrokerErrorCounter(props: { db: Db }): BrokerErrorCounter {
  const recent = new Map<string, number[]>();
  const quietUntil = new Map<string, number>();
  return {
    async count(broker, message, now) {
      const times = (recent.get(broker) ?? []).filter((t) => now - t < BROKER_ERROR_WINDOW_MS);
      times.push(now);
      recent.set(broker, times);
      if (times.length < BROKER_ERROR_THRESHOLD || now < (quietUntil.get(broker) ?? 0)) return false;
      const windowStart = times[0] ?? now;
      quietUntil.set(broker, now + BROKER_ERROR_WINDOW_MS);
      recent.set(broker, []);
      const recorded = await recordAdminNotice(
        props.db,
        {
          event: 'broker_errors',
          factKey: `${broker}:${windowStart}`,
          payload: {
            broker,
            count: times.length,
            windowStart,
            windowMinutes: BROKER_ERROR_WINDOW_MS / 60_000,
            lastError: message.slice(0, 200),
            at: now,
          },
        },
        now,
      );
      return recorded > 0;
    },
  };
}

/** Records `restart_with_open_positions` for the admins when the engine started with positions restored. */
export async function recordRestartWithOpenPositions(
  db: Db,
  props: { openTrades: number; liveTrades: number; startedAt: number },
): Promise<boolean> {
  if (props.openTrades === 0) return false;
  const recorded = await recordAdminNotice(
    db,
    {
      event: 'restart_with_open_positions',
      factKey: String(props.startedAt),
      payload: { openTrades: props.openTrades, liveTrades: props.liveTrades, at: props.startedAt },
    },
    props.startedAt,
  );
  return recorded > 0;
}
