// Creating users. Every path that creates an account (sign-up, init-admin, the create-admin script) goes through
// here so per-user rows are always made together with the user.
import type { Db, UserRow } from '../db';
import { insertUser } from '../db';

/**
 * Inserts the default per-user rows. Today there are none: the settings tables (trading settings, bot switch,
 * notification preferences) are owned by another module; when they land, their defaults are created here, in the
 * same transaction as the user.
 */
export async function createUserDefaults(_props: { db: Db; userId: number; now: number }): Promise<void> {}

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
