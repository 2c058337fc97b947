// A trader's Telegram link on the wire: whether one exists, the @username and when; never the chat id.
import type { TelegramLinkDto } from '../contract';
import type { TelegramLinkRow } from '../notifications/channels/telegramLinks';
import { iso } from './time';

export function presentTelegramLink(link: TelegramLinkRow | undefined, available: boolean): TelegramLinkDto {
  return {
    available,
    linked: link !== undefined,
    username: link?.username ?? null,
    linkedAt: link === undefined ? null : iso(link.linked_at),
  };
}
