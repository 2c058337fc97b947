// The broker connection lifecycle, the same for every broker. A redirect login: Connect issues a random,
// single-use `state` bound to the trader's session (10 minutes) and sends the browser to the broker's login; the
// callback consumes the state and lets the broker module exchange the code for a session. A form login: the
// trader's typed values (Angel One's client code, MPIN, TOTP) are checked against the broker's fields and handed
// to the module, never stored or logged. Either way the token is stored sealed with its expiry and the account
// name. Broker failures become the fixed BROKER_ERROR_MESSAGES, never the broker's raw text.
import { randomBytes } from 'node:crypto';
import { BrokerError, type BrokerErrorKind } from '@optionpilot/engine';
import type { Deps } from '../deps';
import type { SecretBox } from '../crypto';
import {
  clearBrokerIpBlock,
  consumeOauthStateOf,
  consumePendingOauthStateOf,
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
import { brokerErrorMessage, type BrokerCredentials, type BrokerModule, type BrokerSession } from './types';

export { brokerErrorMessage } from './types';

/** How long a Connect click stays valid: long enough for a broker login with 2FA, short enough to be useless stolen. */
export const OAUTH_STATE_TTL_MS = 10 * 60_000;

export interface ConnectionDeps {
  deps: Pick<Deps, 'db' | 'clock' | 'logger' | 'realtime' | 'config'>;
  registry: BrokerRegistry;
  box: SecretBox;
  hooks: Pick<TradingHooks, 'onUserChanged'>;
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

/** The broker's redirect login; 400 for a broker that logs in only with a form. */
function redirectLoginOf(module: BrokerModule) {
  if (module.redirectLogin === undefined) {
    throw new AppError('validation_failed', {
      message: `brokerType: ${module.label} logs in with a form: send your login details instead`,
      field: 'brokerType',
    });
  }
  return module.redirectLogin;
}

/** Connect: a fresh single-use state for this session and the broker's login URL carrying it. */
export async function startBrokerLogin(
  c: ConnectionDeps,
  props: { userId: number; sessionId: string },
): Promise<{ loginUrl: string; expiresAt: number }> {
  const { account, module } = await connectable(c, props.userId);
  const login = redirectLoginOf(module);
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
  let loginUrl: string;
  try {
    const input = { credentials: credentialsOf(c.box, account), state, redirectUri };
    loginUrl = login.start === undefined ? login.url(input) : await login.start(input);
  } catch (err) {
    return failLogin(c, props.userId, err instanceof BrokerError ? err.kind : 'network');
  }
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
  const login = redirectLoginOf(module);
  const state = login.stateOf(props.query);
  const claim = { userId: props.userId, sessionId: props.sessionId, brokerType: account.broker_type };
  const claimed =
    account.broker_type !== props.broker
      ? undefined
      : state !== undefined
        ? await consumeOauthStateOf(c.deps.db.knex, { ...claim, state }, c.deps.clock.now())
        : login.stateInSession === true
          ? await consumePendingOauthStateOf(c.deps.db.knex, claim, c.deps.clock.now())
          : undefined;
  // One answer for unknown, expired, reused and foreign states: which one it was is no business of the caller.
  if (!claimed) throw new AppError('broker_login_invalid');

  return signIn(c, props.userId, account, () =>
    login.complete({
      credentials: credentialsOf(c.box, account),
      query: props.query,
      redirectUri: claimed.redirect_uri ?? brokerRedirectUrl(c.deps.config.publicUrl, account.broker_type),
    }),
  );
}

/**
 * A form login: the typed values are checked against the broker's fields (each required, each matching its
 * pattern; 400 naming the field otherwise) and go to the broker once. They are never stored or logged.
 */
export async function completeFormLogin(
  c: ConnectionDeps,
  props: { userId: number; fields: Readonly<Record<string, string>> },
): Promise<BrokerAccountRow> {
  const { account, module } = await connectable(c, props.userId);
  const form = module.formLogin;
  if (form === undefined) {
    throw new AppError('validation_failed', {
      message: `brokerType: ${module.label} logs in at its own page: use Connect`,
      field: 'brokerType',
    });
  }
  const values: Record<string, string> = {};
  for (const field of form.fields) {
    const value = (props.fields[field.name] ?? '').trim();
    if (!new RegExp(`^(?:${field.pattern})$`).test(value)) {
      throw new AppError('validation_failed', {
        message: `fields.${field.name}: ${field.label} must be ${field.hint}`,
        field: `fields.${field.name}`,
      });
    }
    values[field.name] = value;
  }
  const unknown = Object.keys(props.fields).find((name) => !form.fields.some((f) => f.name === name));
  if (unknown !== undefined) {
    throw new AppError('validation_failed', {
      message: `fields.${unknown}: ${module.label} does not ask for ${unknown}`,
      field: `fields.${unknown}`,
    });
  }
  return signIn(c, props.userId, account, () =>
    form.complete({ credentials: credentialsOf(c.box, account), values }),
  );
}

/** Runs a broker login and stores its session sealed (or the failure, as fixed text); the engine is told. */
async function signIn(
  c: ConnectionDeps,
  userId: number,
  account: BrokerAccountRow,
  exchange: () => Promise<BrokerSession>,
): Promise<BrokerAccountRow> {
  let session: BrokerSession;
  try {
    session = await exchange();
  } catch (err) {
    const kind: BrokerErrorKind = err instanceof BrokerError ? err.kind : 'network';
    // The broker's code only: its message may echo request data.
    c.deps.logger.warn(
      {
        userId,
        broker: account.broker_type,
        kind,
        code: err instanceof BrokerError ? err.code : undefined,
      },
      'broker login failed',
    );
    return failLogin(c, userId, kind);
  }

  const now = c.deps.clock.now();
  const { row, log } = await c.deps.db.knex.transaction(async (trx) => {
    const row = await updateBrokerAccount(
      trx,
      userId,
      {
        status: 'connected',
        access_token_enc: c.box.seal(session.accessToken),
        token_expires_at: session.expiresAt,
        broker_user_id: session.accountId.slice(0, 64),
        broker_account_name: session.accountName.slice(0, 200),
        last_error: null,
        connected_at: now,
        // A new login is the trader acting: orders may go again (the next refusal blocks them again).
        ip_blocked_at: null,
      },
      now,
    );
    const log = await recordAudit({
      db: trx,
      deps: c.deps,
      entry: {
        type: 'system',
        description: `Broker connected (${account.broker_type})`,
        userId,
        actorId: userId,
        data: { brokerType: account.broker_type, expiresAt: session.expiresAt },
      },
    });
    return { row, log };
  });
  announceAudit({ deps: c.deps, rows: [log] });
  await notifyEngine(c.deps, c.hooks, userId);
  if (!row) throw new AppError('not_found');
  return row;
}

/**
 * The trader has whitelisted the server's IP in their broker app: orders may go again. The next order tells
 * whether the broker agrees (a refusal blocks the account again). 409 when the account was not blocked.
 */
export async function resumeAfterIpBlock(
  c: ConnectionDeps,
  props: { userId: number },
): Promise<BrokerAccountRow> {
  const now = c.deps.clock.now();
  const log = await c.deps.db.knex.transaction(async (trx) => {
    const account = await findBrokerAccountByUser(trx, props.userId);
    if (!account) throw new AppError('not_found', { message: 'No broker account is saved.' });
    if (!(await clearBrokerIpBlock(trx, props.userId, now))) {
      throw new AppError('broker_not_blocked');
    }
    return recordAudit({
      db: trx,
      deps: c.deps,
      entry: {
        type: 'system',
        description: `Broker orders resumed by the user after whitelisting the IP (${account.broker_type})`,
        userId: props.userId,
        actorId: props.userId,
        data: { brokerType: account.broker_type, egressIp: c.deps.config.egressIp ?? null },
      },
    });
  });
  announceAudit({ deps: c.deps, rows: [log] });
  await notifyEngine(c.deps, c.hooks, props.userId);
  const after = await findBrokerAccountByUser(c.deps.db.knex, props.userId);
  if (!after) throw new AppError('not_found');
  return after;
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
