import type { Db } from '../knex';
import { rowMapper, toNumber } from '../normalise';
import type { BrokerAccountRow, BrokerOauthStateRow, BrokerTypeValue } from '../rows';

const toAccount = rowMapper<BrokerAccountRow>();
const toOauthState = rowMapper<BrokerOauthStateRow>();

export interface BrokerCredentials {
  broker_type: BrokerTypeValue;
  /** already sealed by the secret box */
  api_key_enc: string;
  api_secret_enc: string;
  api_key_last4: string;
}

/**
 * Stores a user's (new) credentials. Replacing credentials drops any session obtained with the old ones, so the
 * user must log in to the broker again.
 */
export async function saveBrokerCredentials(
  db: Db,
  userId: number,
  credentials: BrokerCredentials,
  now = Date.now(),
): Promise<BrokerAccountRow> {
  const values = {
    ...credentials,
    broker_user_id: null,
    broker_account_name: null,
    access_token_enc: null,
    refresh_token_enc: null,
    token_expires_at: null,
    status: 'credentials_saved',
    last_error: null,
    connected_at: null,
    position_check: null,
    ip_blocked_at: null,
    updated_at: now,
  };
  const [row] = await db('broker_accounts')
    .insert({ user_id: userId, ...values, created_at: now })
    .onConflict('user_id')
    .merge(values)
    .returning('*');
  return toAccount(row);
}

export async function findBrokerAccountByUser(db: Db, userId: number): Promise<BrokerAccountRow | undefined> {
  const row: unknown = await db('broker_accounts').where({ user_id: userId }).first();
  return row ? toAccount(row) : undefined;
}

export type BrokerAccountPatch = Partial<
  Omit<BrokerAccountRow, 'id' | 'user_id' | 'created_at' | 'updated_at'>
>;

export async function updateBrokerAccount(
  db: Db,
  userId: number,
  patch: BrokerAccountPatch,
  now = Date.now(),
): Promise<BrokerAccountRow | undefined> {
  const [row] = await db('broker_accounts')
    .where({ user_id: userId })
    .update({ ...patch, updated_at: now })
    .returning('*');
  return row ? toAccount(row) : undefined;
}

/**
 * Marks the session that connected at `connectedAt` expired (the broker refused its token), unless a newer login
 * replaced it meanwhile. Returns whether it changed a row.
 */
export async function expireBrokerSession(
  db: Db,
  userId: number,
  connectedAt: number | null,
  message: string,
  now = Date.now(),
): Promise<boolean> {
  const changed = await db('broker_accounts')
    .where({ user_id: userId, status: 'connected', connected_at: connectedAt })
    .update({ status: 'expired', last_error: message, updated_at: now });
  return changed > 0;
}

/**
 * The broker refused this server's IP on an order of the session that connected at `connectedAt`: its orders stop
 * until the trader has whitelisted the address (`clearBrokerIpBlock`) or logs in again. Returns whether it changed
 * a row (false when already blocked, or a newer login replaced the session).
 */
export async function blockBrokerIp(
  db: Db,
  userId: number,
  connectedAt: number | null,
  message: string,
  now = Date.now(),
): Promise<boolean> {
  const changed = await db('broker_accounts')
    .where({ user_id: userId, status: 'connected', connected_at: connectedAt })
    .whereNull('ip_blocked_at')
    .update({ ip_blocked_at: now, last_error: message, updated_at: now });
  return changed > 0;
}

/** The trader says the IP is whitelisted now: orders may go again. Returns whether the account was blocked. */
export async function clearBrokerIpBlock(db: Db, userId: number, now = Date.now()): Promise<boolean> {
  const changed = await db('broker_accounts')
    .where({ user_id: userId })
    .whereNotNull('ip_blocked_at')
    .update({ ip_blocked_at: null, last_error: null, updated_at: now });
  return changed > 0;
}

/** Forgets the broker session (admin force-disconnect, or the user disconnecting); credentials stay. */
export async function disconnectBrokerAccount(
  db: Db,
  userId: number,
  reason: string | null,
  now = Date.now(),
): Promise<boolean> {
  const changed = await db('broker_accounts').where({ user_id: userId }).update({
    access_token_enc: null,
    refresh_token_enc: null,
    token_expires_at: null,
    status: 'disconnected',
    last_error: reason,
    ip_blocked_at: null,
    updated_at: now,
  });
  return changed > 0;
}

export async function deleteBrokerAccount(db: Db, userId: number): Promise<boolean> {
  return (await db('broker_accounts').where({ user_id: userId }).delete()) > 0;
}

/** Accounts holding a broker session (connected with a token; it may have expired since). */
export async function listConnectedBrokerAccounts(db: Db): Promise<BrokerAccountRow[]> {
  return (await db('broker_accounts').where({ status: 'connected' }).whereNotNull('access_token_enc')).map(
    toAccount,
  );
}

export async function listBrokerAccounts(db: Db): Promise<BrokerAccountRow[]> {
  return (await db('broker_accounts').orderBy('user_id')).map(toAccount);
}

/** Per broker type: how many users saved credentials and how many are connected (admin broker status). */
export async function brokerBreakdown(
  db: Db,
): Promise<Array<{ broker_type: BrokerTypeValue; accounts: number; connected: number }>> {
  const rows = (await db('broker_accounts')
    .select('broker_type')
    .count({ accounts: '*' })
    .sum({ connected: db.raw("CASE WHEN status = 'connected' THEN 1 ELSE 0 END") })
    .groupBy('broker_type')
    .orderBy('broker_type')) as Array<Record<string, unknown>>;
  return rows.map((r) => ({
    broker_type: r.broker_type as BrokerTypeValue,
    accounts: toNumber(r.accounts),
    connected: toNumber(r.connected),
  }));
}

export interface NewOauthState {
  state: string;
  user_id: number;
  session_id?: string | null;
  broker_type: string;
  redirect_uri?: string | null;
  expires_at: number;
}

export async function createOauthState(
  db: Db,
  state: NewOauthState,
  now = Date.now(),
): Promise<BrokerOauthStateRow> {
  const [row] = await db('broker_oauth_states')
    .insert({ ...state, created_at: now })
    .returning('*');
  return toOauthState(row);
}

/** Marks the state used and returns it, only if it is unused and unexpired (single use, atomic). */
export async function consumeOauthState(
  db: Db,
  state: string,
  now = Date.now(),
): Promise<BrokerOauthStateRow | undefined> {
  const [row] = await db('broker_oauth_states')
    .where({ state })
    .whereNull('used_at')
    .where('expires_at', '>', now)
    .update({ used_at: now })
    .returning('*');
  return row ? toOauthState(row) : undefined;
}

/**
 * Claims the newest pending state of a session and broker, for brokers that echo no state on their redirect
 * (Dhan, Alice Blue): the callback is still bound to the same browser session's Connect, once, within its lifetime.
 */
export async function consumePendingOauthStateOf(
  db: Db,
  claim: { userId: number; sessionId: string; brokerType: string },
  now = Date.now(),
): Promise<BrokerOauthStateRow | undefined> {
  const pending = await db('broker_oauth_states')
    .where({ user_id: claim.userId, session_id: claim.sessionId, broker_type: claim.brokerType })
    .whereNull('used_at')
    .where('expires_at', '>', now)
    .orderBy('expires_at', 'desc')
    .first('state');
  if (!pending) return undefined;
  return consumeOauthStateOf(db, { ...claim, state: String(pending.state) }, now);
}

/**
 * Marks a state used and returns it, only if it is unused, unexpired and was issued to this user's session for this
 * broker (single use, atomic). A state presented by any other session stays usable by its owner.
 */
export async function consumeOauthStateOf(
  db: Db,
  claim: { state: string; userId: number; sessionId: string; brokerType: string },
  now = Date.now(),
): Promise<BrokerOauthStateRow | undefined> {
  const [row] = await db('broker_oauth_states')
    .where({
      state: claim.state,
      user_id: claim.userId,
      session_id: claim.sessionId,
      broker_type: claim.brokerType,
    })
    .whereNull('used_at')
    .where('expires_at', '>', now)
    .update({ used_at: now })
    .returning('*');
  return row ? toOauthState(row) : undefined;
}
