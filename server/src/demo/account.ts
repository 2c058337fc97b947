// The visitors' demo account: one user the server keeps (users.is_demo), subscribed and with its bot on, so the
// engine trades it on paper like any subscriber. It never has a broker account, so it can only ever trade paper,
// and it can never be signed in (no password verifies against its hash; sign-in, sessions and password resets
// refuse `is_demo` users), so visitors read it through GET /api/demo only.
import { randomBytes } from 'node:crypto';
import type { Deps } from '../deps';
import {
  findUserByEmail,
  findUserById,
  insertSubscription,
  insertUser,
  isUniqueViolation,
  saveTradingSettings,
  saveUserSettings,
  updateUser,
  type Db,
} from '../db';
import { recordAudit } from '../services/audit';
import { createUserDefaults } from '../services/users';

/** `.invalid` is reserved (RFC 2606): mail to the demo account can never reach anyone. */
export const DEMO_EMAIL = 'demo@optionpilot.invalid';

/** Not an Argon2 hash: verification fails for every password, so the demo account has no way to sign in. */
const NO_PASSWORD_HASH = '!demo-account: no sign-in';

const YEAR_MS = 365 * 86_400_000;

/** The demo account's id, or null when there is none. */
export async function findDemoAccountId(db: Db): Promise<number | null> {
  const row = (await db('users').where({ is_demo: true }).orderBy('id').first('id')) as
    { id: number } | undefined;
  return row ? Number(row.id) : null;
}

/**
 * Makes the demo account match the configuration at start-up: with the demo on, it exists (created the first
 * time), its subscription runs at least another year (extended to ten), it trades paper with its bot and auto
 * trading on. With the demo off (DEMO_ACCOUNT=false, or a live broker feed) an existing demo account's bot is
 * switched off, so it stops trading. Returns the demo account's id when the demo is on.
 */
export async function keepDemoAccount(props: {
  deps: Pick<Deps, 'db' | 'clock' | 'config' | 'logger'>;
}): Promise<number | null> {
  try {
    return await keepOnce(props.deps);
  } catch (err) {
    // Another process sharing the database created it at the same moment: keep theirs.
    if (!isUniqueViolation(err)) throw err;
    return keepOnce(props.deps);
  }
}

async function keepOnce(deps: Pick<Deps, 'db' | 'clock' | 'config' | 'logger'>): Promise<number | null> {
  const db = deps.db.knex;
  const now = deps.clock.now();
  if (deps.config.demo !== 'on') {
    const existing = await findDemoAccountId(db);
    if (existing !== null) await saveTradingSettings(db, existing, { bot_enabled: false }, now);
    return null;
  }
  return db.transaction(async (trx) => {
    // Looked up inside the transaction, so two starts at once cannot both decide to create one.
    let id = await findDemoAccountId(trx);
    if (id === null) {
      // Someone may have signed up with the address before this server kept a demo account: never take theirs.
      const email = (await findUserByEmail(trx, DEMO_EMAIL))
        ? `demo-${randomBytes(4).toString('hex')}@optionpilot.invalid`
        : DEMO_EMAIL;
      const user = await insertUser(
        trx,
        {
          email,
          first_name: 'Demo',
          last_name: 'Account',
          password_hash: NO_PASSWORD_HASH,
          is_demo: true,
        },
        now,
      );
      await createUserDefaults({ db: trx, userId: user.id, now });
      await recordAudit({
        db: trx,
        deps,
        entry: {
          type: 'system',
          description: 'Demo account created for the visitors’ demo dashboard (paper trading only)',
          userId: user.id,
        },
      });
      id = user.id;
    }
    const user = await findUserById(trx, id);
    if (!user) throw new Error('demo account vanished');
    if (
      user.subscription_status !== 'active' ||
      user.subscription_end_at === null ||
      user.subscription_end_at < now + YEAR_MS
    ) {
      const endsAt = now + 10 * YEAR_MS;
      await insertSubscription(
        trx,
        { user_id: id, plan_id: null, starts_at: now, ends_at: endsAt, source: 'trial', created_by: null },
        now,
      );
      await updateUser(
        trx,
        id,
        {
          subscription_status: 'active',
          subscription_start_at: user.subscription_start_at ?? now,
          subscription_end_at: endsAt,
          disabled_at: null,
        },
        now,
      );
    }
    await saveTradingSettings(trx, id, { bot_enabled: true, mode: 'paper' }, now);
    await saveUserSettings(trx, id, { auto_trading: true }, now);
    return id;
  });
}
