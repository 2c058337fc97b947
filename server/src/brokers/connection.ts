// The broker connection lifecycle, the same for every broker: Connect issues a random, single-use `state` bound
// to the trader's session (10 minutes) and sends the browser to the broker's login; the callback consumes the
// state, lets the broker module exchange the code for a session, and stores the token sealed with its expiry and
// the account name. Broker failures become the fixed BROKER_ERROR_MESSAGES, never the broker's raw text.
import { randomBytes } from 'node:crypto';
import { BrokerError, type BrokerErrorKind } from '@optionpilot/engine';
import type { Deps } from '../deps';
import type { SecretBox } from '../crypto';
import {
  consumeOauthStateOf,
  createOauthState,
  disconnectBrokerAccount,
  findBrokerAccountByUser,
  updateBrokerAccount,
  type BrokerAccountRow,
} from '../db';
import { AppError } from '../errors';
import { brokerRedirectUrl, brokerSessionState } from '../presenters/broker';
import { announceAudit, recordAudit } from '../services/audit';
import { notifyEngine } from '../routes/user/commands';
import type { TradingHooks } from '../routes/user/tradingHooks';
import type { BrokerRegistry } from './registry';
import { BROKER_ERROR_MESSAGES, type BrokerCredentials } from './types';

/** How long a Connect click stays valid: long enough for a broker login with 2FA, short enough to be useless stolen. */
export const OAUTH_STATE_TTL_MS = 10 * 60_000;

export interface ConnectionDeps {
  deps: Pick<Deps, 'db' | 'clock' | 'logger' | 'realtime' | 'config'>;
  registry: BrokerRegistry;
  box: SecretBox;
  hooks: Pick<TradingHooks, 'onUserChanged'>;
}

/** The fixed text for a broker failure; "IP not allowed" names the server's egress IP to whitelist. */
export function brokerErrorMessage(kind: BrokerErrorKind, egressIp: string | undefined): string {
  const base = BROKER_ERROR_MESSAGES[kind];
  if (kind !== 'ip_not_allowed') return base;
  return egressIp
    ? `${base} This server's IP address: ${egressIp}.`
    : `${base} Ask the operator of this OptionPilot server for its static IP address (EGRESS_IP is not set).`;
}

function credentialsOf(box: SecretBox, account: BrokerAccountRow): BrokerCredentials {
  return { apiKey: box.open(account.api_key_enc), apiSecret: box.open(account.api_secret_enc) };
}

/** The account with saved credentials and its module; 400 when either is missing. */
async function connectable(
  c: ConnectionDeps,
  userId: number,
): Promise<{ account: BrokerAccountRow; module: NonNullable<ReturnType<BrokerRegistry['get']>> }> {
  const account = await findBrokerAccountByUser(c.deps.db.knex, userId);
  if (!account) {
    throw new AppError('validation_failed', {
      message: 'brokerType: save your broker API key and secret first',
      field: 'brokerType',
    });
  }
  const module = c.registry.get(account.broker_type);
  if (!module) {
    throw new AppError('validation_failed', {
      message: `brokerType: ${account.broker_type} is coming soon and cannot be connected yet`,
      field: 'brokerType',
    });
  }
  return { account, module };
}

/** Connect: a fresh single-use state for this session and the broker's login URL carrying it. */
export async function startBrokerLogin(
  c: ConnectionDeps,
  props: { userId: number; sessionId: string },
): Promise<{ loginUrl: string; expiresAt: number }> {
  const { account, module } = await connectable(c, props.userId);
  const now = c.deps.clock.now();
  const state = randomBytes(32).toString('base64url');
  const redirectUri = brokerRedirectUrl(c.deps.config.publicUrl, account.broker_type);
  const expiresAt = now + OAUTH_STATE_TTL_MS;
  await createOauthState(
    c.deps.db.knex,
    {
      state,
      user_id: props.userId,
      session_id: props.sessionId,
      broker_type: account.broker_type,
      redirect_uri: redirectUri,
      expires_at: expiresAt,
    },
    now,
  );
  const loginUrl = module.loginUrl({ credentials: credentialsOf(c.box, account), state, redirectUri });
  return { loginUrl, expiresAt };
}

/** Records a failed login on the account (fixed text only) and throws it as a 502 with the same text. */
async function failLogin(c: ConnectionDeps, userId: number, kind: BrokerErrorKind): Promise<never> {
  const message = brokerErrorMessage(kind, c.deps.config.egressIp);
  await updateBrokerAccount(
    c.deps.db.knex,
    userId,
    { status: 'error', last_error: message, access_token_enc: null, token_expires_at: null },
    c.deps.clock.now(),
  );
  await notifyEngine(c.deps, c.hooks, userId);
  throw new AppError('broker_failed', { message });
}

/** The callback: checks the state, exchanges the broker's code for a session and stores it sealed. */
export async function completeBrokerLogin(
  c: ConnectionDeps,
  props: {
    userId: number;
    sessionId: string;
    broker: string;
    query: Readonly<Record<string, string | undefined>>;
  },
): Promise<BrokerAccountRow> {
  const { account, module } = await connectable(c, props.userId);
  const state = module.stateOf(props.query);
  const claimed =
    state !== undefined && account.broker_type === props.broker
      ? await consumeOauthStateOf(
          c.deps.db.knex,
          { state, userId: props.userId, sessionId: props.sessionId, brokerType: account.broker_type },
          c.deps.clock.now(),
        )
      : undefined;
  // One answer for unknown, expired, reused and foreign states: which one it was is no business of the caller.
  if (!claimed) throw new AppError('broker_login_invalid');

  let session;
  try {
    session = await module.completeLogin({
      credentials: credentialsOf(c.box, account),
      query: props.query,
      redirectUri: claimed.redirect_uri ?? brokerRedirectUrl(c.deps.config.publicUrl, account.broker_type),
    });
  } catch (err) {
    const kind: BrokerErrorKind = err instanceof BrokerError ? err.kind : 'network';
    // The broker's code only: its message may echo request data.
    c.deps.logger.warn(
      {
        userId: props.userId,
        broker: account.broker_type,
        kind,
        code: err instanceof BrokerError ? err.code : undefined,
      },
      'broker login failed',
    );
    return failLogin(c, props.userId, kind);
  }

  const now = c.deps.clock.now();
  const { row, log } = await c.deps.db.knex.transaction(async (trx) => {
    const row = await updateBrokerAccount(
      trx,
      props.userId,
      {
        status: 'connected',
        access_token_enc: c.box.seal(session.accessToken),
        token_expires_at: session.expiresAt,
        broker_user_id: session.accountId.slice(0, 64),
        broker_account_name: session.accountName.slice(0, 200),
        last_error: null,
        connected_at: now,
      },
      now,
    );
    const log = await recordAudit({
      db: trx,
      deps: c.deps,
      entry: {
        type: 'system',
        description: `Broker connected (${account.broker_type})`,
        userId: props.userId,
        actorId: props.userId,
        data: { brokerType: account.broker_type, expiresAt: session.expiresAt },
      },
    });
    return { row, log };
  });
  announceAudit({ deps: c.deps, rows: [log] });
  await notifyEngine(c.deps, c.hooks, props.userId);
  if (!row) throw new AppError('not_found');
  return row;
}

/** Disconnect: forgets the session (credentials stay for the next Connect). */
export async function disconnectBroker(
  c: ConnectionDeps,
  props: { userId: number },
): Promise<BrokerAccountRow> {
  const now = c.deps.clock.now();
  const log = await c.deps.db.knex.transaction(async (trx) => {
    const account = await findBrokerAccountByUser(trx, props.userId);
    if (!account) throw new AppError('not_found', { message: 'No broker account is saved.' });
    await disconnectBrokerAccount(trx, props.userId, null, now);
    return recordAudit({
      db: trx,
      deps: c.deps,
      entry: {
        type: 'system',
        description: `Broker disconnected by the user (${account.broker_type})`,
        userId: props.userId,
        actorId: props.userId,
        data: { brokerType: account.broker_type },
      },
    });
  });
  announceAudit({ deps: c.deps, rows: [log] });
  await notifyEngine(c.deps, c.hooks, props.userId);
  const after = await findBrokerAccountByUser(c.deps.db.knex, props.userId);
  if (!after) throw new AppError('not_found');
  return after;
}

/**
 * Does user X have a valid live broker session now: the answer `evaluateEligibility`'s `brokerSessionValid` needs
 * (with the account, so the runtime can open the session's adapter).
 */
export async function validBrokerSession(
  db: Deps['db']['knex'],
  userId: number,
  now: number,
): Promise<BrokerAccountRow | undefined> {
  const account = await findBrokerAccountByUser(db, userId);
  return account && brokerSessionState(account, now) === 'connected' ? account : undefined;
}
