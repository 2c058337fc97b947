// The channels this server delivers through, from its configuration. Each channel module adds one line here
// (e-mail when SMTP is configured, Telegram when a bot token is set, web push when VAPID keys are set); with none,
// notices stay in the outbox and nothing is sent.
import type { Config } from '../config';
import type { Db } from '../db';
import type { Logger } from '../logger';
import type { Clock } from '../clock';
import { emailChannelFromConfig } from './channels/email';
import type { NotificationChannel } from './types';

/** What a channel may need to build itself. */
export interface ChannelDeps {
  db: Db;
  logger: Logger;
  clock: Clock;
}

/** The configured channels, in the order the settings table shows them. */
export function buildChannels(config: Config, deps: ChannelDeps): NotificationChannel[] {
  const channels = [emailChannelFromConfig(config, deps.logger)];
  return channels.filter((channel): channel is NotificationChannel => channel !== null);
}
