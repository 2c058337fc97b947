// The migrations as a static, ordered list. The server bundle (esbuild) contains them through these imports, so
// nothing scans a directory at run time. Add a migration: create `YYYYMMDDHHMMSS_<concern>.ts` exporting
// `up`/`down`, then append it here. Never rename or reorder a shipped entry: the name is what `knex_migrations`
// records.
import type { Knex } from 'knex';
import * as users from './20260701000100_users';
import * as sessions from './20260701000200_sessions';
import * as passwordResets from './20260701000300_password_resets';
import * as logs from './20260701000400_logs';
import * as contactMessages from './20260701000500_contact_messages';

export interface NamedMigration {
  readonly name: string;
  readonly up: (knex: Knex) => Promise<void>;
  readonly down: (knex: Knex) => Promise<void>;
}

export const migrations: readonly NamedMigration[] = [
  { name: '20260701000100_users', ...users },
  { name: '20260701000200_sessions', ...sessions },
  { name: '20260701000300_password_resets', ...passwordResets },
  { name: '20260701000400_logs', ...logs },
  { name: '20260701000500_contact_messages', ...contactMessages },
];

/** A Knex `MigrationSource` over the static list above. */
export class StaticMigrationSource implements Knex.MigrationSource<NamedMigration> {
  constructor(private readonly list: readonly NamedMigration[] = migrations) {}

  async getMigrations(): Promise<NamedMigration[]> {
    return [...this.list];
  }

  getMigrationName(migration: NamedMigration): string {
    return migration.name;
  }

  async getMigration(migration: NamedMigration): Promise<Knex.Migration> {
    return { up: migration.up, down: migration.down };
  }
}
