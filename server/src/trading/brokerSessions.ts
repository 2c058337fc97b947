// The live broker sessions the runtime trades through, held in memory: read once at start and again for one user
// whenever their connection changes (connect, disconnect, mode switch), never per signal or per tick. A session is
// valid while its broker module exists here, its status is connected and its token has not expired (Kite 06:00
// IST, Upstox ≈ 03:30 IST). Credentials and the token are decrypted only into this cache and only for connected
// accounts; they never leave the process.
import type { SecretBox } from '../crypto';
import {
  blockBrokerIp,
  findBrokerAccountByUser,
  expireBrokerSession,
  listConnectedBrokerAccounts,
  type BrokerAccountRow,
  type Database,
} from '../db';
import { istDate } from '@optionpilot/engine';
import type { BrokerRegistry } from '../brokers/registry';
import { recordNotice } from '../notifications/outbox';
import {
  BROKER_ERROR_MESSAGES,
  type BrokerCredentials,
  type BrokerModule,
  type BrokerSession,
} from '../brokers/types';
import { brokerSessionState } from '../presenters/broker';

/** A user's live session with the module that trades it. */
export interface LiveSession {
  readonly module: BrokerModule;
  readonly credentials: BrokerCredentials;
  readonly session: BrokerSession;
  /** identifies the session: a new login (or a new day's token) is a new key */
  readonly key: string;
}

export interface BrokerSessions {
  /** reads every connected account (at start) */
  loadAll(): Promise<void>;
  /** reads one user's account again (after their connection changed) */
  refresh(userId: number): Promise<void>;
  /** the user's session if it is valid at `now` */
  get(userId: number, now: number): LiveSession | undefined;
  /**
   * The broker refused the session `key` of a user (its token ended early, or the daily logout came): the account is
   * marked expired with a clear message, so the card and the Reconnect banner say so. Resolves true when it was the
   * user's current session (an older session's refusal changes nothing).
   */
  end(userId: number, key: string, now: number): Promise<boolean>;
  /**
   * The broker refused this server's IP on an order of session `key`: the account sends no order until the trader
   * has whitelisted the IP and resumes (or logs in again); `message` (naming the IP) is stored for the card.
   * Resolves true when it blocked the user's current session (once, however many orders were refused at once).
   */
  block(userId: number, key: string, message: string, now: number): Promise<boolean>;
}

export interface BrokerSessionsOptions {
  db: Database;
  box: SecretBox;
  /** the broker modules of this server; none: no live session (every account trades paper) */
  registry?: BrokerRegistry;
  /** a sealed column that cannot be opened (key changed) is reported, and the account treated as not connected */
  warn: (userId: number, message: string) => void;
}

export function createBrokerSessions(options: BrokerSessionsOptions): BrokerSessions {
  const byUser = new Map<number, { row: BrokerAccountRow; live: LiveSession }>();

  function admit(row: BrokerAccountRow): void {
    byUser.delete(row.user_id);
    const module = options.registry?.get(row.broker_type);
    if (module === undefined || row.status !== 'connected' || row.access_token_enc === null) return;
    try {
      const live: LiveSession = {
        module,
        credentials: {
          apiKey: options.box.open(row.api_key_enc),
          apiSecret: options.box.open(row.api_secret_enc),
        },
        session: {
          accessToken: options.box.open(row.access_token_enc),
          expiresAt: row.token_expires_at ?? 0,
          accountId: row.broker_user_id ?? '',
          accountName: row.broker_account_name ?? '',
        },
        key: `${row.broker_type}:${row.broker_user_id ?? ''}:${row.connected_at ?? 0}:${row.token_expires_at ?? 0}`,
      };
      byUser.set(row.user_id, { row, live });
    } catch {
      options.warn(row.user_id, 'stored broker credentials cannot be decrypted: the account trades on paper');
    }
  }

  return {
    async loadAll() {
      const rows = await listConnectedBrokerAccounts(options.db.knex);
      byUser.clear();
      for (const row of rows) admit(row);
    },
    async refresh(userId) {
      const row = await findBrokerAccountByUser(options.db.knex, userId);
      if (row === undefined) byUser.delete(userId);
      else admit(row);
    },
    get(userId, now) {
      const entry = byUser.get(userId);
      if (entry === undefined || brokerSessionState(entry.row, now) !== 'connected') return undefined;
      return entry.live;
    },
    async block(userId, key, message, now) {
      const entry = byUser.get(userId);
      if (entry?.live.key !== key) return false;
      byUser.delete(userId);
      // The block and its notice commit together; a block already in place records nothing more.
      return options.db.knex.transaction(async (trx) => {
        const blocked = await blockBrokerIp(trx, userId, entry.row.connected_at, message, now);
        if (blocked) {
          await recordNotice(
            trx,
            {
              event: 'order_rejected',
              userId,
              factKey: `ip:${now}`,
              payload: { kind: 'ip_not_allowed', broker: entry.row.broker_type, message, at: now },
            },
            now,
          );
        }
        return blocked;
      });
    },
    async end(userId, key, now) {
      const entry = byUser.get(userId);
      if (entry?.live.key !== key) return false;
      byUser.delete(userId);
      const message = BROKER_ERROR_MESSAGES.auth_expired;
      // One reconnect notice per trading date, shared with the 08:45 check (notifications/schedule.ts).
      return options.db.knex.transaction(async (trx) => {
        const expired = await expireBrokerSession(trx, userId, entry.row.connected_at, message, now);
        if (expired) {
          await recordNotice(
            trx,
            {
              event: 'broker_session_expired',
              userId,
              factKey: istDate(now),
              payload: {
                broker: entry.row.broker_type,
                accountName: entry.row.broker_account_name ?? null,
                expiresAt: entry.row.token_expires_at ?? null,
                date: istDate(now),
              },
            },
            now,
          );
        }
        return expired;
      });
    },
  };
}
