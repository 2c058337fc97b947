// Admin accounts: the one-time bootstrap (`POST /api/init-admin`), promotion by an admin (`POST /api/make-admin`)
// and the operator's `npm run create-admin`. There is no default password anywhere: a generated one is returned
// exactly once.
import type { Database, UserRow } from '../db';
import { countAdmins, findUserByEmail, isUniqueViolation, updateUser } from '../db';
import type { Deps, RequestMeta } from '../deps';
import { AppError } from '../errors';
import { authorize, type Actor } from '../policies';
import { generatePassword, type PasswordHasher } from '../auth/passwords';
import type { Clock } from '../clock';
import type { Config } from '../config';
import { announceAudit, recordAudit } from './audit';
import { createUser } from './users';

const FALLBACK_ADMIN_DOMAIN = 'optionpilot.local';

/** ADMIN_EMAIL, else admin@<PUBLIC_URL's domain> when it is a real domain name, else admin@optionpilot.local. */
export function defaultAdminEmail(config: Pick<Config, 'adminEmail' | 'publicUrl'>): string {
  if (config.adminEmail) return config.adminEmail;
  const host = new URL(config.publicUrl).hostname.toLowerCase();
  const isDomain = host.includes('.') && !/^[\d.]+$/.test(host) && !host.startsWith('[');
  return `admin@${isDomain ? host : FALLBACK_ADMIN_DOMAIN}`;
}

/** Creates the first admin while none exists; returns its generated password (shown once). */
export async function initAdmin(props: {
  deps: Deps;
  meta: RequestMeta;
}): Promise<{ email: string; password: string }> {
  const { deps, meta } = props;
  if ((await countAdmins(deps.db.knex)) > 0) throw new AppError('admin_exists');
  const email = defaultAdminEmail(deps.config);
  const password = generatePassword();
  const passwordHash = await deps.passwords.hash(password);
  const now = deps.clock.now();
  try {
    const log = await deps.db.knex.transaction(async (trx) => {
      // Checked again inside the transaction: two concurrent calls must not both create an admin.
      if ((await countAdmins(trx)) > 0) throw new AppError('admin_exists');
      if (await findUserByEmail(trx, email)) {
        throw new AppError('email_taken', {
          message: `A non-admin account already uses ${email}. Run \`npm run create-admin -- --email ${email}\` on the server to promote it.`,
        });
      }
      const user = await createUser({
        db: trx,
        now,
        user: { email, firstName: 'Admin', lastName: 'OptionPilot', passwordHash, isAdmin: true },
      });
      return recordAudit({
        db: trx,
        deps,
        entry: { type: 'admin', description: 'First admin created', userId: user.id, data: { ip: meta.ip } },
      });
    });
    announceAudit({ deps, rows: [log] });
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError('admin_exists');
    throw err;
  }
  return { email, password };
}

/** Grants admin rights to an existing account; idempotent for an account that is already admin. */
export async function makeAdmin(props: {
  deps: Deps;
  actor: Actor;
  email: string;
  meta: RequestMeta;
}): Promise<{ user: UserRow; changed: boolean }> {
  const { deps, actor, email, meta } = props;
  authorize(actor, 'user:promote');
  const now = deps.clock.now();
  const result = await deps.db.knex.transaction(async (trx) => {
    const user = await findUserByEmail(trx, email);
    if (!user) throw new AppError('user_not_found', { field: 'email' });
    if (user.is_admin) return { user, changed: false, log: undefined };
    const promoted = (await updateUser(trx, user.id, { is_admin: true }, now)) ?? user;
    const log = await recordAudit({
      db: trx,
      deps,
      entry: {
        type: 'admin',
        description: `Admin rights granted to ${promoted.email}`,
        userId: promoted.id,
        actorId: actor.id,
        data: { ip: meta.ip },
      },
    });
    return { user: promoted, changed: true, log };
  });
  if (result.log) announceAudit({ deps, rows: [result.log] });
  return { user: result.user, changed: result.changed };
}

/**
 * The operator's command: promotes the account with this e-mail (setting `password` when given) or creates an
 * admin account with `password` or a generated one. Runs without a server, hence the narrow props.
 */
export async function createOrPromoteAdmin(props: {
  db: Database;
  passwords: PasswordHasher;
  clock: Clock;
  email: string;
  password?: string;
}): Promise<{ created: boolean; email: string; generatedPassword?: string }> {
  const { db, passwords, clock, email } = props;
  const existing = await findUserByEmail(db.knex, email);
  // A generated password only for a new account; promoting keeps the account's password unless one is given.
  const generatedPassword = !existing && props.password === undefined ? generatePassword() : undefined;
  const newPassword = props.password ?? generatedPassword;
  const passwordHash = newPassword === undefined ? undefined : await passwords.hash(newPassword);
  const now = clock.now();
  return db.knex.transaction(async (trx) => {
    if (existing) {
      await updateUser(
        trx,
        existing.id,
        {
          is_admin: true,
          ...(passwordHash ? { password_hash: passwordHash, password_changed_at: now } : {}),
        },
        now,
      );
      await recordAudit({
        db: trx,
        deps: { clock },
        entry: {
          type: 'admin',
          description: 'Admin rights granted from the command line',
          userId: existing.id,
        },
      });
      return { created: false, email: existing.email };
    }
    if (!passwordHash) throw new Error('unreachable: a new admin always has a password');
    const user = await createUser({
      db: trx,
      now,
      user: { email, firstName: 'Admin', lastName: 'OptionPilot', passwordHash, isAdmin: true },
    });
    await recordAudit({
      db: trx,
      deps: { clock },
      entry: { type: 'admin', description: 'Admin created from the command line', userId: user.id },
    });
    return generatedPassword === undefined
      ? { created: true, email: user.email }
      : { created: true, email: user.email, generatedPassword };
  });
}
