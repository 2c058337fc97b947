// Linking a trader's Telegram chat (Settings → Telegram): `GET /api/user/telegram`,
// `POST /api/user/telegram/link-code`, `DELETE /api/user/telegram/link`.
import { z } from 'zod';

/** Whether the caller's account has a Telegram chat linked. */
export interface TelegramLinkDto {
  /** the server has a Telegram bot (TELEGRAM_BOT_TOKEN set); false: the channel is not offered */
  available: boolean;
  linked: boolean;
  /** the linked chat's @username (without @) when its account has one */
  username: string | null;
  linkedAt: string | null;
}

/** A one-time code for `/start <code>`, shown once. */
export interface TelegramLinkCodeDto {
  code: string;
  /** ISO time after which the code links nothing (10 minutes) */
  expiresAt: string;
  botUsername: string;
  /** https://t.me/<bot>?start=<code>: opens the chat with the bot and sends /start <code> in one tap */
  deepLink: string;
}

/** `POST /api/user/telegram/link-code` takes no fields. */
export const telegramLinkCodeSchema = z.strictObject({}, { error: 'the request takes no fields' });
