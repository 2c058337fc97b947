import type { Db } from '../knex';

/** A value the engine keeps across restarts (JSON), or undefined. */
export async function readEngineState<T>(db: Db, key: string): Promise<T | undefined> {
  const row = (await db('engine_state').where({ key }).first()) as { value: string } | undefined;
  return row === undefined ? undefined : (JSON.parse(row.value) as T);
}

/** Stores a value the engine keeps across restarts. */
export async function writeEngineState(db: Db, key: string, value: unknown, now = Date.now()): Promise<void> {
  const values = { value: JSON.stringify(value), updated_at: now };
  await db('engine_state')
    .insert({ key, ...values })
    .onConflict('key')
    .merge(values);
}
