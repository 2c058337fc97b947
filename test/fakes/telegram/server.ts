// A small fake of the Telegram Bot API on a real HTTP port, speaking its wire format: `POST /bot<token>/<method>`
// with a JSON (or form) body, answers `{ ok: true, result }` or `{ ok: false, error_code, description,
// parameters? }`. It serves what grammY calls: getMe, deleteWebhook, setMyCommands, getUpdates (long polling with
// offset and timeout; a second poll ends the first with 409 as Telegram does), sendMessage and getChat. Tests play a
// user (`sendText`), read what the bot sent (`sent`, `waitForMessages`), and make Telegram refuse: a chat that
// blocked the bot (403), a chat that no longer exists (400), rate limits (429 with retry_after).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeChat {
  /** negative for a group, as Telegram numbers them */
  id: number;
  username?: string;
  firstName?: string;
  /** default private; in a group the sender is `from` (the user id is then the group id's absolute value) */
  type?: 'private' | 'group';
}

export interface SentMessage {
  chatId: number;
  text: string;
  parseMode: string | null;
  /** epoch ms on the fake's (real) clock */
  at: number;
  messageId: number;
}

export interface FakeTelegramOptions {
  token?: string;
  botUsername?: string;
  /**
   * Refuse (429, retry_after 1) a sendMessage that comes sooner than this after the last one to the same chat; the
   * real API tolerates short bursts, so this is stricter than Telegram (off by default)
   */
  minChatIntervalMs?: number;
  /** Refuse (429, retry_after 1) a sendMessage beyond this many in any 1 s window (off by default) */
  maxPerSecond?: number;
  /** `port`: a fixed one for a server configured before the fake starts; default ephemeral */
  port?: number;
}

export interface FakeTelegram {
  /** the API root to pass as grammY's `client.apiRoot` (TELEGRAM_API_ROOT), no trailing slash */
  url: string;
  token: string;
  botUsername: string;
  /** every message the bot sent (accepted ones only), in order */
  sent: SentMessage[];
  /** every call seen, in order: method and the time it arrived */
  calls: Array<{ method: string; at: number }>;
  /** sendMessage calls refused with 429 */
  rateLimited: number;
  /** a user types `text` in their private chat with the bot; returns the update id */
  sendText(chat: FakeChat, text: string): number;
  /** the chat blocked the bot: sendMessage to it answers 403 */
  block(chatId: number): void;
  /** the chat is gone (account deleted): sendMessage and getChat answer 400 "chat not found" */
  forget(chatId: number): void;
  /** the next `count` sendMessage calls answer 429 with `retryAfter` seconds */
  rateLimitNext(count: number, retryAfter?: number): void;
  /** the next `count` sendMessage calls answer this status (e.g. 500, 502) */
  failNext(status: number, count?: number): void;
  /** messages sent to `chatId` */
  messagesTo(chatId: number): SentMessage[];
  /** resolves once `chatId` has received `count` messages (rejects after `timeoutMs`) */
  waitForMessages(chatId: number, count: number, timeoutMs?: number): Promise<SentMessage[]>;
  /** resolves once every update pushed so far has been confirmed by a getUpdates offset */
  waitForConfirmed(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

interface Update {
  update_id: number;
  message: Record<string, unknown>;
}

interface Poll {
  res: ServerResponse;
  limit: number;
  timer: NodeJS.Timeout;
}

const BOT_ID = 7_000_000_001;
const MAX_POLL_SECONDS = 50;

function reply(res: ServerResponse, status: number, body: unknown): void {
  if (res.writableEnded || res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

const ok = (res: ServerResponse, result: unknown) => reply(res, 200, { ok: true, result });

function refuse(
  res: ServerResponse,
  status: number,
  description: string,
  parameters?: Record<string, number>,
): void {
  reply(res, status, {
    ok: false,
    error_code: status,
    description,
    ...(parameters === undefined ? {} : { parameters }),
  });
}

async function readParams(req: IncomingMessage, query: URLSearchParams): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  const params: Record<string, unknown> = Object.fromEntries(query);
  if (text === '') return params;
  const type = req.headers['content-type'] ?? '';
  if (type.includes('application/json')) return { ...params, ...(JSON.parse(text) as object) };
  if (type.includes('application/x-www-form-urlencoded')) {
    return { ...params, ...Object.fromEntries(new URLSearchParams(text)) };
  }
  throw new Error(`unsupported content type ${type}`);
}

/** Bot API commands are marked by a `bot_command` entity at their start, which grammY's `command` filter reads. */
function commandEntities(text: string): Array<{ type: string; offset: number; length: number }> {
  const match = /^\/[A-Za-z0-9_]+(@[A-Za-z0-9_]+)?/.exec(text);
  return match ? [{ type: 'bot_command', offset: 0, length: match[0].length }] : [];
}

/** Starts the fake on 127.0.0.1. */
export async function startFakeTelegram(options: FakeTelegramOptions = {}): Promise<FakeTelegram> {
  const token = options.token ?? '123456789:FAKE-token_for-tests-only_0123456789';
  const botUsername = options.botUsername ?? 'OptionPilotTestBot';
  const sent: SentMessage[] = [];
  const calls: FakeTelegram['calls'] = [];
  const chats = new Map<number, FakeChat>();
  const blocked = new Set<number>();
  const forgotten = new Set<number>();
  const lastSentAt = new Map<number, number>();
  const recentSends: number[] = [];
  let pending: Update[] = [];
  let nextUpdateId = 100_000;
  let nextMessageId = 1;
  let confirmedBelow = 0;
  let poll: Poll | undefined;
  let rateLimits: { count: number; retryAfter: number } | null = null;
  let failures: { status: number; count: number } | null = null;
  let rateLimited = 0;
  const waiters = new Set<() => void>();
  const wake = () => {
    for (const waiter of [...waiters]) waiter();
  };

  const chatObject = (chat: FakeChat) =>
    chat.type === 'group'
      ? { id: chat.id, type: 'group', title: chat.firstName ?? 'Traders' }
      : {
          id: chat.id,
          type: 'private',
          first_name: chat.firstName ?? 'Trader',
          ...(chat.username === undefined ? {} : { username: chat.username }),
        };

  const answerPoll = () => {
    if (poll === undefined || pending.length === 0) return;
    const { res, limit, timer } = poll;
    poll = undefined;
    clearTimeout(timer);
    ok(res, pending.slice(0, limit));
  };

  function getUpdates(params: Record<string, unknown>, res: ServerResponse): void {
    const offset = Number(params.offset ?? 0);
    const limit = Math.min(100, Math.max(1, Number(params.limit ?? 100)));
    const timeout = Math.min(MAX_POLL_SECONDS, Math.max(0, Number(params.timeout ?? 0)));
    // An offset confirms every update below it: they are never sent again.
    if (offset > 0) {
      pending = pending.filter((u) => u.update_id >= offset);
      confirmedBelow = Math.max(confirmedBelow, offset);
      wake();
    }
    // Telegram allows one poll at a time: a new one ends the one in progress with 409.
    if (poll !== undefined) {
      const previous = poll;
      poll = undefined;
      clearTimeout(previous.timer);
      refuse(previous.res, 409, 'Conflict: terminated by other getUpdates request');
    }
    if (pending.length > 0 || timeout === 0) {
      ok(res, pending.slice(0, limit));
      return;
    }
    const timer = setTimeout(() => {
      if (poll?.res === res) poll = undefined;
      ok(res, []);
    }, timeout * 1000);
    poll = { res, limit, timer };
    // The client gave up (grammY aborts the poll on stop): forget it.
    res.once('close', () => {
      if (poll?.res === res) {
        clearTimeout(timer);
        poll = undefined;
      }
    });
  }

  function sendMessage(params: Record<string, unknown>, res: ServerResponse): void {
    const chatId = Number(params.chat_id);
    const text = typeof params.text === 'string' ? params.text : '';
    if (!Number.isSafeInteger(chatId) || chatId === 0)
      return refuse(res, 400, 'Bad Request: chat_id is empty');
    if (text.trim() === '') return refuse(res, 400, 'Bad Request: message text is empty');
    if (text.length > 4096) return refuse(res, 400, 'Bad Request: message is too long');
    if (failures !== null && failures.count > 0) {
      failures.count -= 1;
      return refuse(res, failures.status, failures.status >= 500 ? 'Internal Server Error' : 'Bad Request');
    }
    const now = Date.now();
    const tooSoonForChat =
      options.minChatIntervalMs !== undefined &&
      now - (lastSentAt.get(chatId) ?? Number.NEGATIVE_INFINITY) < options.minChatIntervalMs;
    while (recentSends.length > 0 && (recentSends[0] ?? 0) <= now - 1000) recentSends.shift();
    const tooManyOverall = options.maxPerSecond !== undefined && recentSends.length >= options.maxPerSecond;
    if ((rateLimits !== null && rateLimits.count > 0) || tooSoonForChat || tooManyOverall) {
      const retryAfter = rateLimits !== null && rateLimits.count > 0 ? rateLimits.retryAfter : 1;
      if (rateLimits !== null && rateLimits.count > 0) rateLimits.count -= 1;
      rateLimited += 1;
      return refuse(res, 429, `Too Many Requests: retry after ${retryAfter}`, { retry_after: retryAfter });
    }
    if (blocked.has(chatId)) return refuse(res, 403, 'Forbidden: bot was blocked by the user');
    const chat = chats.get(chatId);
    if (chat === undefined || forgotten.has(chatId)) return refuse(res, 400, 'Bad Request: chat not found');
    lastSentAt.set(chatId, now);
    recentSends.push(now);
    const message: SentMessage = {
      chatId,
      text,
      parseMode: typeof params.parse_mode === 'string' ? params.parse_mode : null,
      at: now,
      messageId: nextMessageId++,
    };
    sent.push(message);
    wake();
    ok(res, {
      message_id: message.messageId,
      date: Math.floor(now / 1000),
      chat: chatObject(chat),
      from: { id: BOT_ID, is_bot: true, first_name: 'OptionPilot', username: botUsername },
      text,
    });
  }

  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const match = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(url.pathname);
      if (match === null) return refuse(res, 404, 'Not Found');
      const method = match[2] ?? '';
      calls.push({ method, at: Date.now() });
      if (match[1] !== token) return refuse(res, 401, 'Unauthorized');
      let params: Record<string, unknown>;
      try {
        params = await readParams(req, url.searchParams);
      } catch {
        return refuse(res, 400, 'Bad Request: unsupported body');
      }
      switch (method) {
        case 'getMe':
          return ok(res, {
            id: BOT_ID,
            is_bot: true,
            first_name: 'OptionPilot',
            username: botUsername,
            can_join_groups: false,
            can_read_all_group_messages: false,
            supports_inline_queries: false,
          });
        case 'deleteWebhook':
        case 'setMyCommands':
          return ok(res, true);
        case 'getUpdates':
          return getUpdates(params, res);
        case 'sendMessage':
          return sendMessage(params, res);
        case 'getChat': {
          const chat = chats.get(Number(params.chat_id));
          if (chat === undefined || forgotten.has(chat.id))
            return refuse(res, 400, 'Bad Request: chat not found');
          return ok(res, chatObject(chat));
        }
        default:
          return refuse(res, 404, 'Not Found');
      }
    })().catch(() => refuse(res, 500, 'Internal Server Error'));
  });

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const waitFor = (done: () => boolean, timeoutMs: number, what: string) =>
    new Promise<void>((resolve, reject) => {
      if (done()) return resolve();
      const check = () => {
        if (!done()) return;
        clearTimeout(timer);
        waiters.delete(check);
        resolve();
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`fake Telegram: timed out waiting for ${what}`));
      }, timeoutMs);
      waiters.add(check);
    });

  const messagesTo = (chatId: number) => sent.filter((m) => m.chatId === chatId);

  return {
    url: `http://127.0.0.1:${port}`,
    token,
    botUsername,
    sent,
    calls,
    get rateLimited() {
      return rateLimited;
    },
    sendText(chat, text) {
      chats.set(chat.id, chat);
      const update: Update = {
        update_id: nextUpdateId++,
        message: {
          message_id: nextMessageId++,
          date: Math.floor(Date.now() / 1000),
          chat: chatObject(chat),
          from: {
            id: Math.abs(chat.id),
            is_bot: false,
            first_name: chat.firstName ?? 'Trader',
            ...(chat.username === undefined ? {} : { username: chat.username }),
          },
          text,
          entities: commandEntities(text),
        },
      };
      pending.push(update);
      answerPoll();
      return update.update_id;
    },
    block(chatId) {
      blocked.add(chatId);
    },
    forget(chatId) {
      forgotten.add(chatId);
    },
    rateLimitNext(count, retryAfter = 1) {
      rateLimits = { count, retryAfter };
    },
    failNext(status, count = 1) {
      failures = { status, count };
    },
    messagesTo,
    async waitForMessages(chatId, count, timeoutMs = 5000) {
      await waitFor(() => messagesTo(chatId).length >= count, timeoutMs, `${count} messages to ${chatId}`);
      return messagesTo(chatId);
    },
    waitForConfirmed(timeoutMs = 5000) {
      return waitFor(() => confirmedBelow >= nextUpdateId, timeoutMs, 'updates to be confirmed');
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (poll !== undefined) {
          clearTimeout(poll.timer);
          poll = undefined;
        }
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
