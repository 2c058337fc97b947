// The sender: drains the outbox (outbox.ts) to the channels, off the trading path; the delivery rows it keeps are
// written by deliveries.ts. See README.md in this folder for the design; in short:
//  - one lane per channel, each with its own timer-free pump and its own concurrency, so a slow or dead channel
//    never holds up another;
//  - a delivery row (outbox_id, channel) is created before the channel is ever called (unique pair: at most one
//    per event, user and channel, across processes), and each attempt is claimed by moving the row's
//    `attempts` forward with a compare-and-set, so two senders never run the same attempt;
//  - a claimed attempt holds a lease (next_attempt_at = now + lease). After a crash, a lease that ran out is
//    claimed again: a notice recorded before the crash goes out after the restart, once. Only a crash in the
//    instant between the channel accepting a message and the row being marked 'sent' can send it twice; that is
//    the price of never losing one.
//  - failures are retried with backoff (30 s, 2 min, 10 min, 1 h by default), then 'failed' with the last error;
//    a PermanentDeliveryError fails at once; a user's switch that is off is recorded as 'off' without a call.
import type { Clock } from '../clock';
import type { Db } from '../db';
import type { Logger } from '../logger';
import { createDeliveryStore, type DeliveryStatus, type DueRow } from './deliveries';
import { onNoticeRecorded, type NotificationPayload } from './outbox';
import { DEFAULT_PREFERENCES, isEnabled } from './preferences';
import {
  PermanentDeliveryError,
  TEST_EVENT,
  type ChannelName,
  type DeliveryOutcome,
  type NotificationChannel,
  type NotificationEvent,
  type NotificationRecipient,
  type RenderedNotification,
} from './types';

/** An outbox row as the renderer sees it. */
export interface OutboxNotice {
  id: number;
  event: NotificationEvent;
  userId: number;
  payload: NotificationPayload;
  /** epoch ms */
  createdAt: number;
}

export type { DeliveryStatus } from './deliveries';

/** 30 s, 2 min, 10 min, 1 h: the waits after the 1st, 2nd, 3rd and 4th failed attempt; the 5th failure gives up. */
export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [30_000, 120_000, 600_000, 3_600_000];

export interface NotificationSenderOptions {
  db: Db;
  logger: Logger;
  clock: Clock;
  channels: readonly NotificationChannel[];
  render: (notice: OutboxNotice) => Promise<RenderedNotification>;
  /** the signed unsubscribe link of (user, event) (unsubscribe.ts) */
  unsubscribeUrlFor: (userId: number, event: NotificationEvent) => Promise<string>;
  /** who `userId` is; default: the users row (undefined when gone) */
  recipientOf?: (
    userId: number,
    event: NotificationEvent | undefined,
  ) => Promise<NotificationRecipient | undefined>;
  /** waits after each failed attempt; its length + 1 is the number of attempts */
  retryDelaysMs?: readonly number[];
  /** attempts in flight per channel (default 4) */
  concurrency?: number;
  /** how often each lane looks for due retries without a wake (default 10 s) */
  pollMs?: number;
  /** an attempt still unanswered after this is counted as failed and retried (default 60 s) */
  attemptTimeoutMs?: number;
  /** how long a claimed attempt is owned before another sender may take it over (default timeout + 60 s) */
  leaseMs?: number;
  /** notices older than this are not started any more (default 2 days): a long outage does not flood anyone */
  maxAgeMs?: number;
  /** how long stop() waits for attempts in flight (default 5 s) */
  stopGraceMs?: number;
}

/** The result of an admin's test send. */
export interface TestSendResult {
  channel: ChannelName;
  status: Exclude<DeliveryStatus, 'pending' | 'off'>;
  detail: string | null;
  error: string | null;
}

export interface NotificationSender {
  /** the channels this server has, in order */
  readonly channelNames: readonly ChannelName[];
  /**
   * starts the lanes' polling and drains what is due (a crash's leftovers included); channels that receive
   * (Telegram's commands) start listening
   */
  start(): void;
  /**
   * the node stopped leading: stops polling and listening and waits a little for attempts in flight; the channels
   * stay open and `start` resumes
   */
  pause(): Promise<void>;
  /** stops polling, waits a little for attempts in flight, closes the channels */
  stop(): Promise<void>;
  /** "a notice was recorded": drain soon. Never throws, never blocks; call it after the fact's commit. */
  wake(): void;
  /** one full drain of what is due now, awaited (tests and scripts) */
  drainOnce(): Promise<void>;
  /** sends a test notice to `userId` through `channel` now, recorded in the deliveries list */
  sendTest(userId: number, channel: ChannelName): Promise<TestSendResult>;
}

class AttemptTimeout extends Error {
  constructor(ms: number) {
    super(`no answer within ${Math.round(ms / 1000)} s`);
    this.name = 'AttemptTimeout';
  }
}

interface Lane {
  readonly channel: NotificationChannel;
  readonly inFlight: Set<Promise<void>>;
  pumping: boolean;
  again: boolean;
}

const errorText = (err: unknown) =>
  (err instanceof Error ? `${err.name === 'Error' ? '' : `${err.name}: `}${err.message}` : String(err)).slice(
    0,
    500,
  );

/** Creates the sender; nothing runs until start() (or drainOnce()). */
export function createNotificationSender(options: NotificationSenderOptions): NotificationSender {
  const { db, logger, clock } = options;
  const retryDelays = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  const maxAttempts = retryDelays.length + 1;
  const concurrency = Math.max(1, options.concurrency ?? 4);
  const pollMs = options.pollMs ?? 10_000;
  const attemptTimeoutMs = options.attemptTimeoutMs ?? 60_000;
  const leaseMs = options.leaseMs ?? attemptTimeoutMs + 60_000;
  const maxAgeMs = options.maxAgeMs ?? 2 * 86_400_000;
  const stopGraceMs = options.stopGraceMs ?? 5_000;
  const channelNames = options.channels.map((c) => c.name);
  const lanes: Lane[] = options.channels.map((channel) => ({
    channel,
    inFlight: new Set(),
    pumping: false,
    again: false,
  }));
  const recipientOf = options.recipientOf ?? defaultRecipient;
  const { enqueue, claimDue, settle, notice, recordTestSend } = createDeliveryStore({
    db,
    clock,
    channelNames,
    leaseMs,
    maxAgeMs,
  });
  let running = false;
  let timer: NodeJS.Timeout | undefined;
  let wakeQueued = false;
  let unsubscribeWake: (() => void) | undefined;
  let stopping: Promise<void> | undefined;

  /** `event` undefined: the admin's test send, essential, so no unsubscribe link (and no token) is made. */
  async function defaultRecipient(userId: number, event: NotificationEvent | undefined) {
    const user = (await db('users').where({ id: userId }).first('id', 'email', 'first_name', 'last_name')) as
      { id: number; email: string; first_name: string; last_name: string } | undefined;
    if (user === undefined) return undefined;
    return {
      userId: user.id,
      email: user.email,
      name: `${user.first_name} ${user.last_name}`.trim(),
      unsubscribeUrl: event === undefined ? '' : await options.unsubscribeUrlFor(user.id, event),
    };
  }

  function withTimeout(promise: Promise<DeliveryOutcome>): Promise<DeliveryOutcome> {
    let handle: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      handle = setTimeout(() => reject(new AttemptTimeout(attemptTimeoutMs)), attemptTimeoutMs);
      handle.unref();
    });
    // The channel's promise may settle after the timeout: its rejection must not go unhandled.
    promise.catch(() => {});
    return Promise.race([promise, timeout]).finally(() => clearTimeout(handle));
  }

  /** Runs one claimed attempt to its end; never throws (a database error leaves the lease to run out). */
  async function attempt(channel: NotificationChannel, row: DueRow): Promise<void> {
    try {
      const outbox = await notice(row.outbox_id);
      if (outbox === undefined) return;
      const event = outbox.event as NotificationEvent;
      if (!(event in DEFAULT_PREFERENCES)) {
        // A test send left behind by a crash, or an event this version does not know: nothing to render.
        await settle(row, 'failed', { lastError: `unknown event ${outbox.event.slice(0, 40)}` });
        return;
      }
      if (!(await isEnabled(db, outbox.user_id, event, channel.name))) {
        await settle(row, 'off', {});
        return;
      }
      let outcome: DeliveryOutcome;
      try {
        const recipient = await recipientOf(outbox.user_id, event);
        if (recipient === undefined) throw new PermanentDeliveryError('the user no longer exists');
        const message = await options.render({
          id: outbox.id,
          event,
          userId: outbox.user_id,
          payload: JSON.parse(outbox.payload) as NotificationPayload,
          createdAt: Number(outbox.created_at),
        });
        outcome = await withTimeout(channel.deliver(recipient, message));
      } catch (err) {
        const permanent = err instanceof PermanentDeliveryError;
        const giveUp = permanent || row.attempts >= maxAttempts;
        const wait = retryDelays[Math.min(row.attempts - 1, retryDelays.length - 1)] ?? 0;
        logger.warn(
          {
            outboxId: row.outbox_id,
            channel: channel.name,
            attempt: row.attempts,
            error: errorText(err),
            giveUp,
          },
          giveUp ? 'notification failed' : 'notification attempt failed, will retry',
        );
        await settle(row, giveUp ? 'failed' : 'pending', {
          lastError: errorText(err),
          nextAttemptAt: giveUp ? null : clock.now() + wait,
        });
        return;
      }
      if (outcome.status === 'sent') await settle(row, 'sent', { detail: outcome.detail ?? null });
      else await settle(row, 'no_address', {});
    } catch (err) {
      logger.error(
        { outboxId: row.outbox_id, channel: channel.name, err },
        'notification bookkeeping failed; the attempt is retried when its lease runs out',
      );
    }
  }

  /** Fills the lane's free slots with due attempts; each finished attempt pumps again. Single-flight per lane. */
  async function pump(lane: Lane): Promise<void> {
    if (lane.pumping) {
      lane.again = true;
      return;
    }
    lane.pumping = true;
    try {
      do {
        lane.again = false;
        await enqueue(lane.channel.name);
        const claimed = await claimDue(lane.channel.name, concurrency - lane.inFlight.size);
        for (const row of claimed) {
          const run: Promise<void> = attempt(lane.channel, row).finally(() => {
            lane.inFlight.delete(run);
            if (running) void pump(lane);
          });
          lane.inFlight.add(run);
        }
        // A full batch may mean more is due: look again while there is room.
        if (claimed.length > 0 && lane.inFlight.size < concurrency) lane.again = true;
      } while (lane.again && running);
    } catch (err) {
      logger.error({ channel: lane.channel.name, err }, 'notification lane could not read the outbox');
    } finally {
      lane.pumping = false;
    }
  }

  function wake(): void {
    if (!running || wakeQueued) return;
    wakeQueued = true;
    setImmediate(() => {
      wakeQueued = false;
      if (running) pumpAll();
    });
  }

  function pumpAll(): void {
    for (const lane of lanes) void pump(lane);
  }

  async function drainLane(lane: Lane): Promise<void> {
    for (;;) {
      await enqueue(lane.channel.name);
      const claimed = await claimDue(lane.channel.name, concurrency);
      if (claimed.length === 0) return;
      await Promise.all(claimed.map((row) => attempt(lane.channel, row)));
    }
  }

  async function sendTest(userId: number, name: ChannelName): Promise<TestSendResult> {
    const channel = options.channels.find((c) => c.name === name);
    if (channel === undefined) throw new Error(`channel ${name} is not configured`);
    const recipient = await recipientOf(userId, undefined);
    if (recipient === undefined) throw new Error('the user no longer exists');
    const row = await recordTestSend(userId, name);
    const outboxId = row.outbox_id;
    const message: RenderedNotification = {
      outboxId,
      event: TEST_EVENT,
      title: 'OptionPilot test notification',
      text: `This is a test of the ${name} channel, sent from the admin page. If you can read it, ${name} works.`,
      html: `<p>This is a test of the ${name} channel, sent from the admin page. If you can read it, ${name} works.</p>`,
      path: '/admin/notifications',
      essential: true,
    };
    try {
      const outcome = await withTimeout(channel.deliver({ ...recipient, unsubscribeUrl: '' }, message));
      if (outcome.status === 'sent') {
        await settle(row, 'sent', { detail: outcome.detail ?? null });
        return { channel: name, status: 'sent', detail: outcome.detail ?? null, error: null };
      }
      await settle(row, 'no_address', {});
      return { channel: name, status: 'no_address', detail: null, error: null };
    } catch (err) {
      await settle(row, 'failed', { lastError: errorText(err) });
      return { channel: name, status: 'failed', detail: null, error: errorText(err) };
    }
  }

  /** Stops the lanes and waits (at most the grace) for the attempts in flight. */
  async function halt(): Promise<void> {
    running = false;
    unsubscribeWake?.();
    unsubscribeWake = undefined;
    if (timer !== undefined) clearInterval(timer);
    timer = undefined;
    const inFlight = lanes.flatMap((lane) => [...lane.inFlight]);
    if (inFlight.length === 0) return;
    let handle: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled(inFlight),
      new Promise<void>((resolve) => {
        handle = setTimeout(resolve, stopGraceMs);
      }),
    ]);
    clearTimeout(handle);
  }

  return {
    channelNames,
    start() {
      if (running || stopping !== undefined) return;
      running = true;
      for (const channel of options.channels) {
        // a channel that could not start listening logs why; delivery through it goes on
        channel.listen?.().catch(() => undefined);
      }
      if (lanes.length === 0) {
        logger.info('no notification channel is configured: notices stay in the outbox');
        return;
      }
      timer = setInterval(pumpAll, pollMs);
      timer.unref();
      // every notice recorded in this process wakes the lanes after its commit (outbox.ts)
      unsubscribeWake = onNoticeRecorded(wake);
      pumpAll();
    },
    async pause() {
      if (stopping !== undefined) return stopping;
      await halt();
      await Promise.allSettled(options.channels.map((channel) => channel.stopListening?.()));
    },
    stop() {
      return (stopping ??= (async () => {
        await halt();
        await Promise.allSettled(options.channels.map((channel) => channel.close()));
      })());
    },
    wake,
    async drainOnce() {
      await Promise.all(lanes.map((lane) => drainLane(lane)));
    },
    sendTest,
  };
}
