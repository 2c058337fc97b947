// The channels this server delivers through, from its configuration, one line each: e-mail when SMTP_URL is set,
// Telegram when TELEGRAM_BOT_TOKEN is set, web push always (its VAPID keys are generated into DATA_DIR).
import type { Agent as HttpsAgent } from 'node:https';
import type { Config } from '../config';
import type { Deps } from '../deps';
import { emailChannelFromConfig } from './channels/email';
import { pushChannelFromConfig } from './channels/push';
import { telegramChannelFromConfig } from './channels/telegram';
import type { NotificationChannel } from './types';

/** What a channel may need to build itself (Telegram's commands reach the trader's bot and positions). */
export type ChannelDeps = Pick<Deps, 'config' | 'db' | 'logger' | 'clock' | 'realtime' | 'trading'>;

/** The configured channels, in the order the settings table shows them. */
export function buildChannels(
  config: Config,
  deps: ChannelDeps,
  /** the HTTPS agent for push services (end-to-end tests pass one that trusts the fake's certificate) */
  pushAgent?: HttpsAgent,
): NotificationChannel[] {
  const channels = [
    emailChannelFromConfig(config, deps.logger),
    // its bot long-polls while the sender runs (on the leader): two pollers on one token get 409s
    telegramChannelFromConfig(config, deps),
    pushChannelFromConfig(config, deps, pushAgent ? { agent: pushAgent } : {}),
  ];
  return channels.filter((channel): channel is NotificationChannel => channel !== null);
}
