// Broker sessions from the database: every broker ends its sessions each night, so expired sessions in the morning
// are normal but worth a line (traders reconnect from the dashboard's banner); sessions in error or blocked for
// the IP need the operator. Connected sessions show when the first one ends, in IST.
import { formatIst } from '@optionpilot/engine';
import type { Config } from '../config';
import { toNumber, type Database } from '../db';
import { ok, warn, type DoctorCheck } from './types';

interface Row {
  status: string;
  token_expires_at: unknown;
  ip_blocked_at: unknown;
}

/**
 * With a broker FEED, the market itself streams through FEED_ACCOUNT's session: without it no candle forms and no
 * entry is taken, for anyone. Undefined when that session is valid (or the feed is not a broker's).
 */
async function feedProblem(db: Database, config: Config, now: number): Promise<string | undefined> {
  if (config.feedAccount === undefined || config.feed === 'sim' || config.feed.startsWith('replay:'))
    return undefined;
  const row = (await db
    .knex('users')
    .leftJoin('broker_accounts', 'broker_accounts.user_id', 'users.id')
    .where('users.email', config.feedAccount)
    .first('broker_accounts.status', 'broker_accounts.token_expires_at')) as
    { status: string | null; token_expires_at: unknown } | undefined;
  const expiry = row?.token_expires_at == null ? null : toNumber(row.token_expires_at);
  if (row?.status === 'connected' && (expiry === null || expiry > now)) return undefined;
  const why =
    row === undefined
      ? 'has no account'
      : row.status === null
        ? 'has no broker connection'
        : 'is not connected';
  return `FEED=${config.feed}: FEED_ACCOUNT ${config.feedAccount} ${why}, so the market feed is down`;
}

export const brokerSessionsCheck: DoctorCheck = {
  name: 'broker-sessions',
  async run({ db, config, now }) {
    if (db === undefined) return warn('not checked: no database yet', 'start the server once');
    const feed = await feedProblem(db, config, now);
    if (feed !== undefined) {
      return warn(
        feed,
        `sign in as ${config.feedAccount} and connect the broker on the dashboard (Broker Connection)`,
      );
    }
    const rows = (await db
      .knex('broker_accounts')
      .select('status', 'token_expires_at', 'ip_blocked_at')) as Row[];
    let valid = 0;
    let expired = 0;
    let errored = 0;
    let ipBlocked = 0;
    let firstEnd: number | undefined;
    for (const row of rows) {
      const expiry = row.token_expires_at === null ? null : toNumber(row.token_expires_at);
      if (row.ip_blocked_at !== null) ipBlocked += 1;
      if (row.status === 'connected' && (expiry === null || expiry > now)) {
        valid += 1;
        if (expiry !== null) firstEnd = Math.min(firstEnd ?? expiry, expiry);
      } else if (row.status === 'expired' || row.status === 'connected') expired += 1;
      else if (row.status === 'error') errored += 1;
    }
    if (rows.length === 0) return ok('no broker connections yet');
    const ends = firstEnd === undefined ? '' : `, the first ends ${formatIst(firstEnd)}`;
    const message = `${valid} connected${ends}; ${expired} expired, ${errored} in error, ${ipBlocked} blocked for the IP`;
    if (errored > 0 || ipBlocked > 0) {
      return warn(message, 'see Admin, Brokers; IP-blocked traders whitelist EGRESS_IP in their broker app');
    }
    if (expired > 0)
      return warn(message, 'traders reconnect from the dashboard (Reconnect banner from 08:30 IST)');
    return ok(message);
  },
};
