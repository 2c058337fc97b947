// The DATA_DIR that `npm run backup` / `npm run restore` work on: the configured one, only when the database is
// SQLite (with DATABASE_URL pointing at PostgreSQL those commands do not apply and say what does).
import { ConfigError, loadConfig } from '../server/src/config';
import { isPostgresUrl } from '../server/src/db';

/** DATA_DIR from the configuration; `fail` is called with the reason when there is none or it is PostgreSQL. */
export function sqliteDataDir(fail: (message: string) => never, postgresAdvice: string): string {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) fail(err.message);
    throw err;
  }
  if (isPostgresUrl(config.databaseUrl)) fail(`DATABASE_URL points at PostgreSQL: ${postgresAdvice}`);
  return config.dataDir;
}
