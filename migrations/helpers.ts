// Shared pieces of the migrations. Not a migration itself: `index.ts` lists the migrations explicitly.
import type { Knex } from 'knex';

/** true when the migration runs on PostgreSQL (some DDL, e.g. triggers, has to be written per dialect) */
export function isPostgres(knex: Knex): boolean {
  return knex.client.dialect === 'postgresql';
}

/** A `bigInteger` epoch-milliseconds column (all `*_at` columns). */
export function epochMs(table: Knex.CreateTableBuilder, name: string): Knex.ColumnBuilder {
  return table.bigInteger(name);
}

/**
 * Makes a table append-only: UPDATE, DELETE (and TRUNCATE on PostgreSQL) raise. `nullableFks` lists foreign-key
 * columns declared ON DELETE SET NULL: the database itself nulls them when the referenced row goes, and that one
 * update (FK column to NULL, nothing else changed) must stay possible.
 */
export async function createAppendOnlyTriggers(
  knex: Knex,
  tableName: string,
  columns: readonly string[],
  nullableFks: readonly string[] = [],
): Promise<void> {
  const others = columns.filter((c) => !nullableFks.includes(c));
  if (isPostgres(knex)) {
    await knex.raw(`
      CREATE OR REPLACE FUNCTION ${tableName}_append_only() RETURNS trigger AS $$
      BEGIN
        RAISE EXCEPTION '${tableName} is append-only (% refused)', TG_OP USING ERRCODE = 'restrict_violation';
      END
      $$ LANGUAGE plpgsql`);
    const allowed =
      nullableFks.length === 0
        ? 'true'
        : [
            ...nullableFks.map((c) => `NEW.${c} IS NOT NULL`),
            `(${others.map((c) => `NEW.${c}`).join(', ')}) IS DISTINCT FROM (${others.map((c) => `OLD.${c}`).join(', ')})`,
          ].join(' OR ');
    await knex.raw(
      `CREATE TRIGGER ${tableName}_no_update BEFORE UPDATE ON ${tableName} FOR EACH ROW WHEN (${allowed}) EXECUTE FUNCTION ${tableName}_append_only()`,
    );
    await knex.raw(
      `CREATE TRIGGER ${tableName}_no_delete BEFORE DELETE ON ${tableName} FOR EACH ROW EXECUTE FUNCTION ${tableName}_append_only()`,
    );
    await knex.raw(
      `CREATE TRIGGER ${tableName}_no_truncate BEFORE TRUNCATE ON ${tableName} FOR EACH STATEMENT EXECUTE FUNCTION ${tableName}_append_only()`,
    );
    return;
  }
  // SQLite: `UPDATE OF <cols>` fires when any listed column is in the SET list.
  await knex.raw(`
    CREATE TRIGGER ${tableName}_no_update BEFORE UPDATE OF ${others.join(', ')} ON ${tableName}
    BEGIN SELECT RAISE(ABORT, '${tableName} is append-only (UPDATE refused)'); END`);
  for (const fk of nullableFks) {
    await knex.raw(`
      CREATE TRIGGER ${tableName}_no_update_${fk} BEFORE UPDATE OF ${fk} ON ${tableName} WHEN NEW.${fk} IS NOT NULL
      BEGIN SELECT RAISE(ABORT, '${tableName} is append-only (UPDATE refused)'); END`);
  }
  await knex.raw(`
    CREATE TRIGGER ${tableName}_no_delete BEFORE DELETE ON ${tableName}
    BEGIN SELECT RAISE(ABORT, '${tableName} is append-only (DELETE refused)'); END`);
}

/** Drops what `createAppendOnlyTriggers` made (the triggers themselves go with the table). */
export async function dropAppendOnlyTriggers(knex: Knex, tableName: string): Promise<void> {
  if (isPostgres(knex)) await knex.raw(`DROP FUNCTION IF EXISTS ${tableName}_append_only() CASCADE`);
}
