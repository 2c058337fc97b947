// A DATA_DIR worth backing up, for the backup tests: migrated, with one trader whose broker credentials and
// session token are sealed with the generated encryption key, and a generated JWT key.
import { createSecretBox, loadOrCreateJwtKey, loadOrCreateKey } from '../crypto';
import {
  closeDatabase,
  findBrokerAccountByUser,
  findUserByEmail,
  insertUser,
  migrateLatest,
  openDatabase,
  saveBrokerCredentials,
  updateBrokerAccount,
} from '../db';

export const TRADER_EMAIL = 'trader@example.com';
export const ACCESS_TOKEN = 'kite-access-token-5678';

/** A migrated DATA_DIR (and database) with one trader whose broker credentials and session token are sealed. */
export async function seedTrader(dataDir: string, databaseUrl?: string): Promise<void> {
  const db = openDatabase({ dataDir, databaseUrl });
  try {
    await migrateLatest(db);
    const box = createSecretBox(loadOrCreateKey(dataDir));
    loadOrCreateJwtKey(dataDir);
    const user = await insertUser(db.knex, {
      email: TRADER_EMAIL,
      first_name: 'Asha',
      last_name: 'Rao',
      password_hash: 'not-a-real-hash',
    });
    await saveBrokerCredentials(db.knex, user.id, {
      broker_type: 'zerodha',
      api_key_enc: box.seal('kite-api-key-1234'),
      api_secret_enc: box.seal('kite-api-secret'),
      api_key_last4: '1234',
    });
    await updateBrokerAccount(db.knex, user.id, {
      access_token_enc: box.seal(ACCESS_TOKEN),
      status: 'connected',
    });
  } finally {
    await closeDatabase(db);
  }
}

/** The trader's access token, read from a restored DATA_DIR (and database) with the restored key. */
export async function restoredToken(dataDir: string, databaseUrl?: string): Promise<string | null> {
  const db = openDatabase({ dataDir, databaseUrl });
  try {
    const user = await findUserByEmail(db.knex, TRADER_EMAIL);
    const account = user && (await findBrokerAccountByUser(db.knex, user.id));
    if (!account?.access_token_enc) return null;
    return createSecretBox(loadOrCreateKey(dataDir)).open(account.access_token_enc);
  } finally {
    await closeDatabase(db);
  }
}
