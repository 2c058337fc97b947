// Creating users. Every path that creates an account (sign-up, init-admin, the create-admin script) goes through
// here so per-user rows are always made together with the user.
import type { UserDto } from '../contract';
import type { Db, UserRow } from '../db';
import { findBrokerAccountByUser, getTradingSettings, getUserSettings, insertUser } from '../db';
import { brokerSummaryOf, presentUser } from '../presenters/user';

/**
 * Inserts the default per-user rows (Settings tab, trading settings with the bot off) in the same transaction as
 * the user, so the engine and the dashboard never meet a user without them. The repos create-if-missing.
 */
export async function createUserDefaults(props: { db: Db; userId: number; now: number }): Promise<void> {
  await getUserSettings(props.db, props.userId, props.now);
  await getTradingSettings(props.db, props.userId, props.now);
}

/** The UserDto of a user, with its broker connection looked up (connected only while its session is valid at `now`). */
export async function userDto(props: { db: Db; user: UserRow; now: number }): Promise<UserDto> {
  const account = await findBrokerAccountByUser(props.db, props.user.id);
  return presentUser(props.user, account ? brokerSummaryOf(account, props.now) : null);
}

/** Inserts a user with a password hash and its default rows; a duplicate e-mail raises a unique violation. */
export async function createUser(props: {
  db: Db;
  now: number;
  user: {
    email: string;
    firstName: string;
    lastName: string;
    phone?: string;
    passwordHash: string;
    isAdmin?: boolean;
  };
}): Promise<UserRow> {
  const { db, now, user } = props;
  const row = await insertUser(
    db,
    {
      email: user.email,
      first_name: user.firstName,
      last_name: user.lastName,
      phone: user.phone ?? '',
      password_hash: user.passwordHash,
      is_admin: user.isAdmin ?? false,
    },
    now,
  );
  await createUserDefaults({ db, userId: row.id, now });
  return row;
}
