// The admin Brokers page: counts per broker and session state, one page of broker accounts, the force-disconnect
// (the session is forgotten and the user's bot stops at once) and the connection test. Live broker modules are
// written elsewhere (server/src/brokers/<type>/); they are looked up through `BrokerLookup`, and a broker without
// a module is reported as "not available" rather than pretending a check ran.
import type { z } from 'zod';
import { BrokerError } from '@optionpilot/engine';
import type {
  AdminBrokerAccountDto,
  BrokerStatusDto,
  PageDto,
  TestBrokerResponse,
  brokersQuerySchema,
} from '../../contract';
import { BROKER_ERROR_MESSAGES, type BrokerModule } from '../../brokers/types';
import type { SecretBox } from '../../crypto';
import { AppError } from '../../errors';
import {
  brokerBreakdown,
  countOf,
  disconnectBrokerAccount,
  findBrokerAccountByUser,
  type BrokerAccountRow,
  type BrokerTypeValue,
} from '../../db';
import { HttpNoAnswer, sendHttp } from '../../brokers/brokerHttp';
import { brokerSessionState, presentBrokerConnection } from '../../presenters/broker';
import { presentUserRef } from '../../presenters/adminUser';
import { iso, isoOrNull } from '../../presenters/time';
import { announceAudit, recordAudit } from '../audit';
import { afterUserChange, type AdminDeps } from './userCommands';
import { pageOf, whereUserMatches } from './listing';
import { customersOnly } from './testAccounts';
import { userOr404 } from './userDirectory';

/** The live integration of a broker type, or undefined when none is installed. */
export type BrokerLookup = (type: BrokerTypeValue) => BrokerModule | undefined;

/** `GET /api/admin/broker-status` */
export async function brokerStatus(props: {
  deps: Pick<AdminDeps, 'db'>;
  now: number;
}): Promise<BrokerStatusDto> {
  const db = props.deps.db.knex;
  const breakdown = await brokerBreakdown(db);
  const rows = (await db('broker_accounts').select('status', 'token_expires_at')) as Array<
    Pick<BrokerAccountRow, 'status' | 'token_expires_at'>
  >;
  const sessions = { valid: 0, expired: 0, error: 0, credentialsSaved: 0, disconnected: 0 };
  for (const r of rows) {
    const lapsed = r.token_expires_at !== null && Number(r.token_expires_at) <= props.now;
    if (r.status === 'connected') sessions[lapsed ? 'expired' : 'valid'] += 1;
    else if (r.status === 'expired') sessions.expired += 1;
    else if (r.status === 'error') sessions.error += 1;
    else if (r.status === 'credentials_saved') sessions.credentialsSaved += 1;
    else sessions.disconnected += 1;
  }
  // Customers only: admins, test accounts and the demo account are not users of the product here either.
  const customers = db('users');
  customersOnly(customers);
  return {
    totalUsers: countOf(await customers.count({ n: '*' })),
    connectedUsers: sessions.valid,
    brokerBreakdown: Object.fromEntries(breakdown.map((b) => [b.broker_type, b.accounts])),
    sessions,
  };
}

/** `GET /api/admin/brokers` */
export async function listBrokerAccountsPage(props: {
  deps: Pick<AdminDeps, 'db'>;
  query: z.output<typeof brokersQuerySchema>;
}): Promise<PageDto<AdminBrokerAccountDto>> {
  const { query } = props;
  const builder = props.deps.db
    .knex('broker_accounts')
    .join('users', 'users.id', 'broker_accounts.user_id')
    .select('broker_accounts.*', 'users.first_name', 'users.last_name', 'users.email');
  if (query.broker) void builder.where('broker_accounts.broker_type', query.broker);
  if (query.status) void builder.where('broker_accounts.status', query.status);
  whereUserMatches(builder, query.search);
  return pageOf({
    builder,
    page: query.page,
    pageSize: query.pageSize,
    orderBy: [
      { column: 'broker_accounts.updated_at', order: 'desc' },
      { column: 'broker_accounts.id', order: 'desc' },
    ],
    map: (raw) => {
      const row = raw as unknown as BrokerAccountRow & {
        first_name: string;
        last_name: string;
        email: string;
      };
      return {
        ...presentBrokerConnection(row),
        user: presentUserRef({ ...row, id: row.user_id }),
        connectedAt: isoOrNull(row.connected_at),
        updatedAt: iso(row.updated_at),
      };
    },
  });
}

/** `POST /api/admin/force-broker-disconnect`: forgets the broker session; the user's bot stops live trading now. */
export async function forceDisconnect(props: {
  deps: AdminDeps;
  adminId: number;
  userId: number;
}): Promise<string> {
  const { deps, adminId, userId } = props;
  const db = deps.db.knex;
  const user = await userOr404(db, userId);
  const now = deps.clock.now();
  const log = await db.transaction(async (trx) => {
    const before = await findBrokerAccountByUser(trx, userId);
    if (!before) throw new AppError('not_found', { message: `${user.email} has no broker connection.` });
    await disconnectBrokerAccount(trx, userId, 'Disconnected by an admin', now);
    return recordAudit({
      db: trx,
      deps,
      entry: {
        type: 'admin',
        description: `Broker ${before.broker_type} of ${user.email} force-disconnected`,
        userId,
        actorId: adminId,
        data: { brokerType: before.broker_type, before: before.status, after: 'disconnected' },
      },
    });
  });
  announceAudit({ deps, rows: [log] });
  await afterUserChange(deps, user);
  return `${user.email} was disconnected from the broker; their bot no longer trades live.`;
}

/** `POST /api/admin/test-broker`: which check ran and what it found. Never returns a key, secret or token. */
export async function testBroker(props: {
  deps: AdminDeps;
  box: SecretBox;
  lookup: BrokerLookup;
  userId: number;
}): Promise<TestBrokerResponse> {
  const { deps, box, lookup, userId } = props;
  const db = deps.db.knex;
  const user = await userOr404(db, userId);
  const account = await findBrokerAccountByUser(db, userId);
  const name = `${user.first_name} ${user.last_name}`.trim();
  if (!account) {
    return {
      success: true,
      check: 'paper',
      brokerType: 'paper',
      message: `${user.email} trades on paper: the simulated broker needs no connection and is always available.`,
      profile: { name },
    };
  }
  const brokerType = account.broker_type;
  const module = lookup(brokerType);
  if (!module)
    return {
      success: false,
      check: 'not_available',
      brokerType,
      message: `No ${brokerType} integration is installed on this server yet, so no connection test could run.`,
    };
  let credentials: { apiKey: string; apiSecret: string };
  try {
    credentials = { apiKey: box.open(account.api_key_enc), apiSecret: box.open(account.api_secret_enc) };
  } catch {
    return {
      success: false,
      check: 'credentials',
      brokerType,
      message:
        'The stored credentials cannot be decrypted (was the encryption key changed?). Ask the user to save them again.',
    };
  }
  const now = deps.clock.now();
  const expired = account.token_expires_at !== null && account.token_expires_at <= now;
  if (account.status !== 'connected' || account.access_token_enc === null || expired)
    return {
      success: false,
      check: 'session',
      brokerType,
      message: `Credentials are stored, but there is no live ${module.label} session${expired ? ' (it expired)' : ''}: the user must log in to ${module.label} today.`,
    };
  try {
    const broker = module.createBroker({
      credentials,
      session: {
        accessToken: box.open(account.access_token_enc),
        expiresAt: account.token_expires_at ?? now,
        accountId: account.broker_user_id ?? '',
        accountName: name,
      },
    });
    const positions = await broker.getPositions();
    return {
      success: true,
      check: 'profile',
      brokerType,
      message: `${module.label} answered for account ${account.broker_user_id ?? '?'}: ${positions.length} open position${positions.length === 1 ? '' : 's'}.`,
      profile: { name: account.broker_user_id ?? name },
    };
  } catch (err) {
    const message =
      err instanceof BrokerError ? BROKER_ERROR_MESSAGES[err.kind] : 'The broker could not be reached.';
    deps.logger.warn(
      { userId, brokerType, err: err instanceof Error ? err.message : String(err) },
      'broker test failed',
    );
    return { success: false, check: 'profile', brokerType, message };
  }
}

/** How long the admin's connection test waits for the broker's API root. */
const REACH_TIMEOUT_MS = 5_000;

/** Whether anything answers at `root` (any HTTP status counts: the host and its TLS are up), in words. */
async function reach(root: string): Promise<{ ok: boolean; detail: string }> {
  try {
    const answer = await sendHttp({ method: 'GET', url: `${root}/`, timeoutMs: REACH_TIMEOUT_MS });
    return { ok: answer.status < 500, detail: `${root} answered HTTP ${answer.status}` };
  } catch (err) {
    const code = err instanceof HttpNoAnswer ? err.code : 'ECONNRESET';
    const why =
      code === 'ETIMEDOUT' ? `no answer within ${REACH_TIMEOUT_MS / 1000} s` : `connection failed (${code})`;
    return { ok: false, detail: `${root}: ${why}` };
  }
}

/**
 * `POST /api/admin/brokers/:type/test` (and the spec's `POST /api/admin/test-fyers`): reaches the broker's API root
 * and, when a user's account of that broker is connected (the named one, else the most recently connected), reads
 * its profile over its session. Says in words what failed. Never returns a key, secret or token.
 */
export async function testBrokerConnection(props: {
  deps: AdminDeps;
  box: SecretBox;
  lookup: BrokerLookup;
  type: BrokerTypeValue;
  userId?: number;
}): Promise<TestBrokerResponse> {
  const { deps, box, lookup, type } = props;
  const module = lookup(type);
  const root = deps.config.brokerEndpoints[type]?.apiRoot;
  if (module === undefined || root === undefined) {
    throw new AppError('not_found', { message: `${type}: no such broker integration on this server.` });
  }
  const label = module.label;
  const reached = await reach(root);
  if (!reached.ok) {
    return {
      success: false,
      check: 'api',
      brokerType: type,
      message: `Could not connect to ${label} API: ${reached.detail}.`,
    };
  }
  const db = deps.db.knex;
  const now = deps.clock.now();
  let account: BrokerAccountRow | undefined;
  if (props.userId !== undefined) {
    await userOr404(db, props.userId);
    account = await findBrokerAccountByUser(db, props.userId);
    if (account?.broker_type !== type) {
      throw new AppError('not_found', {
        message: `userId: this user has no ${label} account.`,
        field: 'userId',
      });
    }
  } else {
    const row = (await db('broker_accounts')
      .where({ broker_type: type, status: 'connected' })
      .whereNotNull('access_token_enc')
      .where('token_expires_at', '>', now)
      .orderBy('connected_at', 'desc')
      .first('user_id')) as { user_id: number } | undefined;
    account = row === undefined ? undefined : await findBrokerAccountByUser(db, Number(row.user_id));
  }
  if (
    account === undefined ||
    brokerSessionState(account, now) === 'not_connected' ||
    account.access_token_enc === null
  ) {
    return {
      success: true,
      check: 'api',
      brokerType: type,
      message: `${label} API reachable (${reached.detail}). No connected ${label} account to read a profile with.`,
    };
  }
  if (brokerSessionState(account, now) === 'expired') {
    return {
      success: false,
      check: 'session',
      brokerType: type,
      message: `${label} API reachable, but the session of account ${account.broker_user_id ?? '?'} has expired: its user must log in to ${label} today.`,
    };
  }
  try {
    const profile = await module.profile({
      credentials: { apiKey: box.open(account.api_key_enc), apiSecret: box.open(account.api_secret_enc) },
      session: {
        accessToken: box.open(account.access_token_enc),
        expiresAt: account.token_expires_at ?? now,
        accountId: account.broker_user_id ?? '',
        accountName: account.broker_account_name ?? '',
      },
    });
    return {
      success: true,
      check: 'profile',
      brokerType: type,
      message: `${label} API reachable and account ${profile.accountId} answered.`,
      profile: { name: profile.name },
    };
  } catch (err) {
    deps.logger.warn(
      { userId: account.user_id, brokerType: type, kind: err instanceof BrokerError ? err.kind : 'error' },
      'broker profile test failed',
    );
    const reason =
      err instanceof BrokerError
        ? BROKER_ERROR_MESSAGES[err.kind]
        : `${label} answered in a form we could not read.`;
    return {
      success: false,
      check: 'profile',
      brokerType: type,
      message: `${label} API reachable, but the profile of account ${account.broker_user_id ?? '?'} failed: ${reason}`,
    };
  }
}
