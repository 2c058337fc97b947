import { StaticMigrationSource, type NamedMigration } from '../../../migrations';
import type { Database } from './knex';

const MIGRATIONS_TABLE = 'knex_migrations';

function config() {
  return { migrationSource: new StaticMigrationSource(), tableName: MIGRATIONS_TABLE };
}

/** Applies every pending migration; returns the names applied by this call. */
export async function migrateLatest(db: Database): Promise<string[]> {
  const [, applied] = (await db.knex.migrate.latest(config())) as [number, string[]];
  return applied;
}

/** Reverts every applied migration (tests and `down` checks; never run against production data). */
export async function rollbackAll(db: Database): Promise<string[]> {
  const [, reverted] = (await db.knex.migrate.rollback(config(), true)) as [number, string[]];
  return reverted;
}

/** Names of the migrations not yet applied. */
export async function pendingMigrations(db: Database): Promise<string[]> {
  // Knex returns the pending entries as our source gives them, i.e. `NamedMigration` objects.
  const [, pending] = (await db.knex.migrate.list(config())) as [unknown[], NamedMigration[]];
  return pending.map((m) => m.name);
}
