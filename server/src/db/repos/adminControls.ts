import type { Db } from '../knex';
import { rowMapper } from '../normalise';
import type { AdminControlRow } from '../rows';

const toControl = rowMapper<AdminControlRow>();

export async function listAdminControls(db: Db): Promise<AdminControlRow[]> {
  return (await db('admin_controls').orderBy('setting_name')).map(toControl);
}

/** All controls as `{ settingName: value }` (what the engine's parameter parser reads). */
export async function adminControlValues(db: Db): Promise<Record<string, string>> {
  const rows = await listAdminControls(db);
  return Object.fromEntries(rows.map((r) => [r.setting_name, r.value]));
}

export async function getAdminControl(db: Db, settingName: string): Promise<AdminControlRow | undefined> {
  const row: unknown = await db('admin_controls').where({ setting_name: settingName }).first();
  return row ? toControl(row) : undefined;
}

/** Sets a control (validate the name and value before calling); creates it if it did not exist. */
export async function setAdminControl(
  db: Db,
  settingName: string,
  value: string,
  updatedBy: number | null,
  now = Date.now(),
): Promise<AdminControlRow> {
  const values = { value, updated_at: now, updated_by: updatedBy };
  const [row] = await db('admin_controls')
    .insert({ setting_name: settingName, ...values })
    .onConflict('setting_name')
    .merge(values)
    .returning('*');
  return toControl(row);
}
