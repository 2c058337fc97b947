// Which Telegram chat belongs to which trader, and the one-time codes that make the link. A trader asks Settings for
// a code, then sends `/start <code>` to the bot (the t.me deep link does it in one tap); the bot redeems the code
// for the chat it came from. Codes are random, short-lived and stored only as their SHA-256, and one UPDATE spends
// a code, so two chats racing with one code cannot both link.
import { randomBytes } from 'node:crypto';
import { sha256Hex } from '../../crypto';
import type { Db } from '../../db';
import type { Deps } from '../../deps';
import { announceAudit, recordAudit } from '../../services/audit';

/** How long a link code can be redeemed. */
export const LINK_CODE_TTL_MS = 10 * 60_000;

// 32 letters and digits without the look-alikes (0/O, 1/I): a code can be typed from a phone screen. 32 divides
// 256, so `byte & 31` picks every character with the same chance.
const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
/** 10 characters of 5 bits: 50 bits, far beyond guessing within the code's 10 minutes. */
const CODE_LENGTH = 10;

export interface TelegramLinkRow {
  user_id: number;
  chat_id: string;
  username: string | null;
  linked_at: number;
}

interface LinkCodeRow {
  id: number;
  user_id: number;
  expires_at: number;
  used_at: number | null;
}

/** A fresh random code (A–Z and 2–9 without look-alikes). */
export function newLinkCode(): string {
  return Array.from(randomBytes(CODE_LENGTH), (byte) => CODE_ALPHABET[byte & 31]).join('');
}

/** What a trader may have typed after /start, in the form codes are made: spaces dropped, upper case. */
export function normaliseLinkCode(text: string): string {
  return text.replace(/[\s-]+/g, '').toUpperCase();
}

/**
 * Makes a new code for `userId`, voiding the user's codes not yet used (only the newest code shown in Settings
 * links). Returns the code in clear: it is stored hashed and shown once.
 */
export async function issueLinkCode(
  db: Db,
  userId: number,
  now: number,
): Promise<{ code: string; expiresAt: number }> {
  const code = newLinkCode();
  const expiresAt = now + LINK_CODE_TTL_MS;
  await db.transaction(async (trx) => {
    await trx('telegram_link_codes').where({ user_id: userId }).whereNull('used_at').delete();
    await trx('telegram_link_codes').insert({
      code_hash: sha256Hex(code),
      user_id: userId,
      expires_at: expiresAt,
      used_at: null,
      created_at: now,
    });
  });
  return { code, expiresAt };
}

export type RedeemResult =
  | { readonly status: 'linked'; readonly userId: number }
  | { readonly status: 'unknown' | 'expired' | 'used' };

/**
 * Spends `code` and links `chatId` to the code's user, replacing the user's previous chat and the chat's previous
 * user. An unknown, expired or already used code links nothing and says which it was. Run it in a transaction
 * (`linkChatWithCode` does): the spend and the link stand or fall together.
 */
export async function redeemLinkCode(
  trx: Db,
  props: { code: string; chatId: string; username: string | null; now: number },
): Promise<RedeemResult> {
  const { chatId, username, now } = props;
  const codeHash = sha256Hex(normaliseLinkCode(props.code));
  const raw = (await trx('telegram_link_codes').where({ code_hash: codeHash }).first()) as
    LinkCodeRow | undefined;
  if (raw === undefined) return { status: 'unknown' };
  if (raw.used_at !== null) return { status: 'used' };
  if (Number(raw.expires_at) <= now) return { status: 'expired' };
  // The one statement that decides: of two chats racing with this code, one updates a row, the other none.
  const spent = await trx('telegram_link_codes')
    .where({ id: raw.id })
    .whereNull('used_at')
    .where('expires_at', '>', now)
    .update({ used_at: now });
  if (spent !== 1) return { status: 'used' };
  await trx('telegram_links').where({ user_id: raw.user_id }).orWhere({ chat_id: chatId }).delete();
  await trx('telegram_links').insert({
    user_id: raw.user_id,
    chat_id: chatId,
    username: username === null ? null : username.slice(0, 64),
    linked_at: now,
  });
  return { status: 'linked', userId: raw.user_id };
}

const toLink = (raw: unknown): TelegramLinkRow => {
  const row = raw as TelegramLinkRow;
  // PostgreSQL returns bigint columns as text
  return { ...row, chat_id: String(row.chat_id), linked_at: Number(row.linked_at) };
};

export async function findLinkByUser(db: Db, userId: number): Promise<TelegramLinkRow | undefined> {
  const row: unknown = await db('telegram_links').where({ user_id: userId }).first();
  return row === undefined ? undefined : toLink(row);
}

export async function findLinkByChat(db: Db, chatId: string): Promise<TelegramLinkRow | undefined> {
  const row: unknown = await db('telegram_links').where({ chat_id: chatId }).first();
  return row === undefined ? undefined : toLink(row);
}

/** Removes the user's link; true when there was one. */
export async function unlinkUser(db: Db, userId: number): Promise<boolean> {
  return (await db('telegram_links').where({ user_id: userId }).delete()) > 0;
}

/** Removes the chat's link; returns the user it was linked to, if any. Run it in a transaction. */
export async function unlinkChat(trx: Db, chatId: string): Promise<number | undefined> {
  const link = await findLinkByChat(trx, chatId);
  if (link === undefined) return undefined;
  await trx('telegram_links').where({ chat_id: chatId }).delete();
  return link.user_id;
}

type CommandDeps = Pick<Deps, 'db' | 'clock' | 'realtime'>;

/** Links the chat that sent `/start <code>` (audited: a linked chat can pause the trader's bot). */
export async function linkChatWithCode(props: {
  deps: CommandDeps;
  code: string;
  chatId: string;
  username: string | null;
}): Promise<RedeemResult> {
  const { deps, code, chatId, username } = props;
  const now = deps.clock.now();
  const { result, log } = await deps.db.knex.transaction(async (trx) => {
    const result = await redeemLinkCode(trx, { code, chatId, username, now });
    if (result.status !== 'linked') return { result, log: undefined };
    const log = await recordAudit({
      db: trx,
      deps,
      entry: {
        type: 'system',
        description: 'Telegram chat linked',
        userId: result.userId,
        actorId: result.userId,
        data: { telegramUsername: username },
      },
    });
    return { result, log };
  });
  if (log !== undefined) announceAudit({ deps, rows: [log] });
  return result;
}

const UNLINK_REASONS = {
  settings: 'Telegram chat unlinked from Settings',
  chat: 'Telegram chat unlinked from the chat',
  blocked: 'Telegram chat unlinked: the user blocked the bot',
  chat_gone: 'Telegram chat unlinked: the chat no longer exists',
} as const;

/**
 * Unlinks a trader's chat, named by the trader (`userId`, from Settings) or by the chat (`chatId`, from the chat or
 * a refused delivery); audited. Returns the user that was unlinked, or undefined when nothing was linked.
 */
export async function unlinkTelegram(
  props: { deps: CommandDeps; reason: keyof typeof UNLINK_REASONS } & (
    { userId: number; chatId?: undefined } | { chatId: string; userId?: undefined }
  ),
): Promise<number | undefined> {
  const { deps, reason } = props;
  const done = await deps.db.knex.transaction(async (trx) => {
    const userId =
      props.userId !== undefined
        ? (await unlinkUser(trx, props.userId))
          ? props.userId
          : undefined
        : await unlinkChat(trx, props.chatId);
    if (userId === undefined) return undefined;
    const log = await recordAudit({
      db: trx,
      deps,
      entry: {
        type: 'system',
        description: UNLINK_REASONS[reason],
        userId,
        actorId: reason === 'settings' || reason === 'chat' ? userId : null,
      },
    });
    return { userId, log };
  });
  if (done === undefined) return undefined;
  announceAudit({ deps, rows: [done.log] });
  return done.userId;
}
