// The Telegram channel: one grammY bot per server, long-polling for the traders' commands (on the engine leader
// only, from `listen` to `stopListening`: Telegram refuses a second poller on one token) and sending their
// notifications. Telegram's limits (about 30 messages a second per bot, one a second per chat, 20 a minute per
// group) are kept by the throttler plugin, which queues every call that names a chat; a 429 that still happens is
// waited out as Telegram asks (auto-retry, a few times) before the sender's own retry takes over.
//
// A chat acts only on the trader it is linked to (telegram_links, one chat ↔ one trader), and only in a private
// chat: in a group anyone could otherwise pause someone's bot. /pause and /resume run the dashboard's own command
// (setBotSwitch), so the audit entry and the `bot:status` push are the same as from the web.
import { autoRetry } from '@grammyjs/auto-retry';
import { apiThrottler } from '@grammyjs/transformer-throttler';
import { Bot, GrammyError, type Context } from 'grammy';
import type { Config } from '../../config';
import { findBrokerAccountByUser, listTrades } from '../../db';
import type { Deps, RequestMeta } from '../../deps';
import { presentBrokerConnection } from '../../presenters/broker';
import { setBotSwitch } from '../../routes/user/commands';
import {
  PermanentDeliveryError,
  type DeliveryOutcome,
  type NotificationChannel,
  type NotificationRecipient,
  type RenderedNotification,
} from '../types';
import { describeTelegramError } from './telegramErrors';
import { findLinkByChat, findLinkByUser, linkChatWithCode, unlinkTelegram } from './telegramLinks';
import {
  BOT_COMMANDS,
  COMMAND_FAILED_REPLY,
  HELP_REPLY,
  LINKED_REPLY,
  LINK_REFUSED_REPLIES,
  NOT_LINKED_REPLY,
  PRIVATE_ONLY_REPLY,
  UNLINKED_REPLY,
  notificationMessage,
  pauseReply,
  pnlReply,
  positionsReply,
  resumeReply,
  statusReply,
} from './telegramReplies';

export type TelegramDeps = Pick<Deps, 'config' | 'db' | 'clock' | 'logger' | 'realtime' | 'trading'>;

export interface TelegramSettings {
  botToken: string;
  /** the Bot API root, no trailing slash */
  apiRoot: string;
}

export interface TelegramChannel extends NotificationChannel {
  readonly name: 'telegram';
  /** starts long polling; resolves once the bot polls (getMe and deleteWebhook done), rejects when it could not */
  listen(): Promise<void>;
  stopListening(): Promise<void>;
}

/**
 * The bot-wide limit, 30 messages a second: the throttler's default reservoir (30 per 1 s refill) plus a 37 ms
 * spacing. The reservoir alone lets 30 go at the end of one second and 30 more at the start of the next, 60 within
 * a few milliseconds, which a sliding count refuses (the fake's does; Telegram's may). Spaced at 37 ms, at most 27
 * leave in any second, a margin for jitter on the way (at 35 ms a few still arrived 30 to a window at the fake and
 * were refused). 1,000 messages to 1,000 chats take about 38 s (`npm run bench -- telegram`).
 */
const GLOBAL_RATE = {
  reservoir: 30,
  reservoirRefreshAmount: 30,
  reservoirRefreshInterval: 1000,
  minTime: 37,
};

/** Open positions listed by /positions (a trader has one or two; the message must stay under Telegram's size). */
const POSITIONS_SHOWN = 20;

/**
 * A grammY bot on `settings` with Telegram's limits held: the throttler queues calls per chat (1/s), per group
 * (20/min, its defaults) and per bot (GLOBAL_RATE); auto-retry waits out a 429's retry_after (at most 3 times, at most 60 s each) inside
 * the throttled queue. Network errors and 5xx are not retried here: the outbox sender retries with backoff.
 */
export function createTelegramBot(settings: TelegramSettings): Bot {
  const bot = new Bot(settings.botToken, { client: { apiRoot: settings.apiRoot } });
  // The last transformer installed runs first: auto-retry wraps the throttler, so a retry queues like any call.
  bot.api.config.use(apiThrottler({ global: GLOBAL_RATE }));
  bot.api.config.use(
    autoRetry({
      maxRetryAttempts: 3,
      maxDelaySeconds: 60,
      rethrowHttpErrors: true,
      rethrowInternalServerErrors: true,
    }),
  );
  return bot;
}

/** The Telegram channel when TELEGRAM_BOT_TOKEN is set (its bot polls once `listen` is called), else null. */
export function telegramChannelFromConfig(config: Config, deps: TelegramDeps): TelegramChannel | null {
  return config.telegram === undefined ? null : createTelegramChannel({ settings: config.telegram, deps });
}

export function createTelegramChannel(props: {
  settings: TelegramSettings;
  deps: TelegramDeps;
  /** long-poll length in seconds (Telegram holds getUpdates open this long when idle); default 30 */
  pollTimeoutSeconds?: number;
}): TelegramChannel {
  const { settings, deps } = props;
  const token = settings.botToken;
  const log = deps.logger.child({ channel: 'telegram' });
  const bot = createTelegramBot(settings);
  registerCommands(bot, deps);
  bot.catch(async (err) => {
    log.error({ error: describeTelegramError(err.error, token) }, 'Telegram command failed');
    await err.ctx.reply(COMMAND_FAILED_REPLY).catch(() => undefined);
  });

  // The poller of the moment: started by listen(), ended by stopListening() (leadership moved) or close().
  let listening: { started: Promise<void>; polling: Promise<void> } | undefined;
  let closing: Promise<void> | undefined;

  function listen(): Promise<void> {
    if (closing !== undefined) return Promise.reject(new Error('Telegram channel is closed'));
    if (listening !== undefined) return listening.started;
    let markStarted: () => void = () => undefined;
    const started = new Promise<void>((resolve) => {
      markStarted = resolve;
    });
    const polling = bot
      .start({
        allowed_updates: ['message'],
        timeout: props.pollTimeoutSeconds ?? 30,
        onStart: (me) => {
          log.info({ bot: me.username }, 'Telegram bot polling');
          markStarted();
          // The command menu is a convenience: failing to set it must not stop the bot.
          bot.api.setMyCommands([...BOT_COMMANDS]).catch((err: unknown) => {
            log.warn({ error: describeTelegramError(err, token) }, 'Telegram setMyCommands failed');
          });
        },
      })
      .catch((err: unknown) => {
        log.error(
          { error: describeTelegramError(err, token) },
          'Telegram bot stopped: it could not poll for updates (is TELEGRAM_BOT_TOKEN right, and is no other server polling with it?)',
        );
        throw err;
      });
    const current = { started: Promise.race([started, polling.then(() => undefined)]), polling };
    listening = current;
    // Nobody may be waiting on these; their outcome is logged above. A poller that failed may be started again.
    current.started.catch(() => undefined);
    polling.catch(() => {
      if (listening === current) listening = undefined;
    });
    return current.started;
  }

  async function stopListening(): Promise<void> {
    const current = listening;
    if (current === undefined) return;
    listening = undefined;
    try {
      await bot.stop();
    } catch (err) {
      log.warn({ error: describeTelegramError(err, token) }, 'Telegram bot did not stop cleanly');
    }
    // Let a command in flight finish its writes before the database closes, but never hang the shutdown.
    await Promise.race([current.polling.catch(() => undefined), delay(5000)]);
  }

  async function deliver(
    recipient: NotificationRecipient,
    message: RenderedNotification,
  ): Promise<DeliveryOutcome> {
    if (closing !== undefined) throw new Error('Telegram channel is closed');
    const link = await findLinkByUser(deps.db.knex, recipient.userId);
    if (link === undefined) return { status: 'no_address' };
    try {
      const sent = await bot.api.sendMessage(
        link.chat_id,
        notificationMessage(message, deps.config.publicUrl),
        { parse_mode: 'HTML', link_preview_options: { is_disabled: true } },
      );
      return { status: 'sent', detail: `message ${sent.message_id}` };
    } catch (err) {
      throw await deliveryError(err, link.chat_id);
    }
  }

  /** What the sender should do with a failed send: give up (and unlink a dead chat), or retry later. */
  async function deliveryError(err: unknown, chatId: string): Promise<Error> {
    const description = describeTelegramError(err, token);
    if (err instanceof GrammyError && err.error_code === 403) {
      // Blocked by the user (or the account is deactivated): nothing will reach this chat until they link again.
      await unlinkTelegram({ deps, chatId, reason: 'blocked' });
      return new PermanentDeliveryError(`${description}; the chat was unlinked`);
    }
    if (err instanceof GrammyError && err.error_code === 400) {
      // A 400 is this message refused, or the chat gone. Telegram tells them apart only in the description's
      // words, so ask whether the chat itself still exists instead of reading them.
      if (await chatIsGone(chatId)) {
        await unlinkTelegram({ deps, chatId, reason: 'chat_gone' });
        return new PermanentDeliveryError(`${description}; the chat no longer exists and was unlinked`);
      }
      return new PermanentDeliveryError(description);
    }
    // 429 after auto-retry gave up, 5xx, network: worth trying again later. A fresh error, so the logged cause
    // never carries grammY's inner fetch error (its message has the URL, with the token).
    return new Error(description);
  }

  async function chatIsGone(chatId: string): Promise<boolean> {
    try {
      await bot.api.getChat(chatId);
      return false;
    } catch (err) {
      return err instanceof GrammyError && (err.error_code === 400 || err.error_code === 403);
    }
  }

  return {
    name: 'telegram',
    listen,
    stopListening,
    deliver,
    close() {
      closing ??= stopListening();
      return closing;
    },
  };
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/** Chat commands. Every one but /start and /help needs a linked chat and acts on that chat's trader only. */
function registerCommands(bot: Bot, deps: TelegramDeps): void {
  const db = deps.db.knex;

  // Commands are answered only in a private chat with the bot.
  bot.on('message:entities:bot_command', async (ctx, next) => {
    if (ctx.chat.type === 'private') return next();
    await ctx.reply(PRIVATE_ONLY_REPLY);
  });

  const privateChat = bot.chatType('private');

  /** The trader this chat is linked to; an unlinked chat is told to link first and gets undefined. */
  const linkedUser = async (ctx: Context): Promise<number | undefined> => {
    const link = ctx.chat === undefined ? undefined : await findLinkByChat(db, String(ctx.chat.id));
    if (link === undefined) await ctx.reply(NOT_LINKED_REPLY);
    return link?.user_id;
  };

  const meta = (ctx: Context): RequestMeta => ({
    ip: 'telegram',
    userAgent: 'Telegram bot',
    requestId: `telegram-${ctx.update.update_id}`,
  });

  privateChat.command('start', async (ctx) => {
    const code = ctx.match.trim();
    if (code === '') {
      const link = await findLinkByChat(db, String(ctx.chat.id));
      await ctx.reply(link === undefined ? NOT_LINKED_REPLY : HELP_REPLY);
      return;
    }
    const result = await linkChatWithCode({
      deps,
      code,
      chatId: String(ctx.chat.id),
      username: ctx.from?.username ?? null,
    });
    await ctx.reply(result.status === 'linked' ? LINKED_REPLY : LINK_REFUSED_REPLIES[result.status]);
  });

  privateChat.command('help', async (ctx) => {
    await ctx.reply(HELP_REPLY);
  });

  privateChat.command('status', async (ctx) => {
    const userId = await linkedUser(ctx);
    if (userId === undefined) return;
    const status = await deps.trading.botStatus(userId);
    const account = await findBrokerAccountByUser(db, userId);
    const broker =
      account === undefined
        ? null
        : presentBrokerConnection(account, { now: deps.clock.now(), publicUrl: deps.config.publicUrl });
    await ctx.reply(statusReply(status, broker));
  });

  privateChat.command('positions', async (ctx) => {
    const userId = await linkedUser(ctx);
    if (userId === undefined) return;
    const trades = await listTrades(db, { userId, status: 'open', limit: POSITIONS_SHOWN });
    await ctx.reply(positionsReply(trades, (id) => deps.trading.markPnl(id)));
  });

  privateChat.command('pnl', async (ctx) => {
    const userId = await linkedUser(ctx);
    if (userId === undefined) return;
    await ctx.reply(pnlReply(await deps.trading.statsFor(userId)));
  });

  for (const [command, enabled] of [
    ['pause', false],
    ['resume', true],
  ] as const) {
    privateChat.command(command, async (ctx) => {
      const userId = await linkedUser(ctx);
      if (userId === undefined) return;
      await setBotSwitch({ deps, hooks: deps.trading, userId, input: { enabled }, meta: meta(ctx) });
      const status = await deps.trading.botStatus(userId);
      await ctx.reply(enabled ? resumeReply(status) : pauseReply(status));
    });
  }

  privateChat.command(['unlink', 'stop'], async (ctx) => {
    const unlinked = await unlinkTelegram({ deps, chatId: String(ctx.chat.id), reason: 'chat' });
    await ctx.reply(unlinked === undefined ? NOT_LINKED_REPLY : UNLINKED_REPLY);
  });

  // Anything else typed in a private chat: say what the bot understands.
  privateChat.on('message', async (ctx) => {
    const link = await findLinkByChat(db, String(ctx.chat.id));
    await ctx.reply(link === undefined ? NOT_LINKED_REPLY : HELP_REPLY);
  });
}
