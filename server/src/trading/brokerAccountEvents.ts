// What the trading service does when a broker turns an account's session against it, and how the trader hears of
// their connection: the broker refused the session's token (it ended early, or the nightly logout came), or refused
// this server's IP on an order (SEBI's static-IP rule). Either way the account stops sending to the broker — new
// entries are paper, a live position's exits wait with its stop resting at the broker — the card, the banners and
// the bot status are pushed at once, and an IP refusal is audited for the admins.
import type { Clock } from '../clock';
import type { Config } from '../config';
import { findBrokerAccountByUser, type Database } from '../db';
import type { Logger } from '../logger';
import { presentBrokerConnection } from '../presenters/broker';
import type { Realtime } from '../realtime/publisher';
import { announceAudit, recordAudit } from '../services/audit';
import { brokerErrorMessage } from '../brokers/types';
import type { BrokerSessions } from './brokerSessions';

export interface BrokerAccountEventsOptions {
  db: Database;
  config: Pick<Config, 'egressIp' | 'publicUrl'>;
  clock: Clock;
  publisher: Realtime;
  log: Logger;
  sessions: Pick<BrokerSessions, 'end' | 'block'>;
  /** the account's live positions follow its broker session now (the runtime's `sessionChanged`) */
  sessionChanged: (userId: number) => Promise<void>;
  /** the broker feed looks at the market-data account's session again */
  refreshFeed: () => Promise<void>;
  pushBotStatus: (userId: number) => Promise<void>;
}

export interface BrokerAccountEvents {
  /** the broker refused the token of session `key` */
  sessionEnded(userId: number, key: string): Promise<void>;
  /** the broker refused this server's IP on an order of session `key` */
  ipRefused(userId: number, key: string): Promise<void>;
  /** sends the trader their broker connection as it now stands (the card, the banners) */
  pushBrokerConnection(userId: number): Promise<void>;
}

export function createBrokerAccountEvents(options: BrokerAccountEventsOptions): BrokerAccountEvents {
  const { db, config, clock, publisher, log, sessions } = options;

  async function pushBrokerConnection(userId: number): Promise<void> {
    const row = await findBrokerAccountByUser(db.knex, userId);
    if (row === undefined) return;
    const context = { now: clock.now(), publicUrl: config.publicUrl };
    publisher.toUser(userId, 'user:broker', presentBrokerConnection(row, context));
  }

  return {
    pushBrokerConnection,

    async sessionEnded(userId, key) {
      if (!(await sessions.end(userId, key, clock.now()))) return;
      log.warn(
        { userId },
        'the broker ended this account’s session: new entries are paper, and exits of live positions wait for a reconnect',
      );
      // Open live positions stop sending to a broker that refuses the token: their exits wait for the reconnect.
      await options.sessionChanged(userId);
      await options.refreshFeed();
      await options.pushBotStatus(userId);
      await pushBrokerConnection(userId);
    },

    // The trader hears it at once — the card, a toast and `user:broker` — with the IP to whitelist; admins see
    // it in the live log. Nothing more goes to the broker until the trader whitelists the IP and resumes.
    async ipRefused(userId, key) {
      const message = brokerErrorMessage('ip_not_allowed', config.egressIp);
      if (!(await sessions.block(userId, key, message, clock.now()))) return;
      log.warn(
        { userId, egressIp: config.egressIp ?? null },
        'the broker refused this server’s IP on an order: the account sends no orders until the trader whitelists it',
      );
      const entry = await recordAudit({
        db: db.knex,
        deps: { clock },
        entry: {
          type: 'system',
          description: `Broker refused the server's IP (${config.egressIp ?? 'EGRESS_IP not set'}): orders stopped until the user whitelists it`,
          userId,
          data: { egressIp: config.egressIp ?? null },
        },
      });
      announceAudit({ deps: { realtime: publisher }, rows: [entry] });
      await options.sessionChanged(userId);
      await options.pushBotStatus(userId);
      await pushBrokerConnection(userId);
    },
  };
}
