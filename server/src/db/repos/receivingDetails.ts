import type { Db } from '../knex';
import { rowMapper } from '../normalise';
import type { BankDetailsRow, UpiSettingsRow } from '../rows';

// Singleton rows: always id 1, created by the first save.
const SINGLETON_ID = 1;
const toUpi = rowMapper<UpiSettingsRow>();
const toBank = rowMapper<BankDetailsRow>();

export async function getUpiSettings(db: Db): Promise<UpiSettingsRow | undefined> {
  const row: unknown = await db('upi_settings').where({ id: SINGLETON_ID }).first();
  return row ? toUpi(row) : undefined;
}

export async function saveUpiSettings(
  db: Db,
  settings: Pick<UpiSettingsRow, 'upi_id' | 'account_holder_name' | 'qr_code_image'>,
  updatedBy: number | null,
  now = Date.now(),
): Promise<UpiSettingsRow> {
  const values = { ...settings, updated_at: now, updated_by: updatedBy };
  const [row] = await db('upi_settings')
    .insert({ id: SINGLETON_ID, ...values })
    .onConflict('id')
    .merge(values)
    .returning('*');
  return toUpi(row);
}

export async function getBankDetails(db: Db): Promise<BankDetailsRow | undefined> {
  const row: unknown = await db('bank_details').where({ id: SINGLETON_ID }).first();
  return row ? toBank(row) : undefined;
}

export async function saveBankDetails(
  db: Db,
  details: Pick<BankDetailsRow, 'account_holder_name' | 'account_number' | 'ifsc' | 'bank_name' | 'branch'>,
  updatedBy: number | null,
  now = Date.now(),
): Promise<BankDetailsRow> {
  const values = { ...details, updated_at: now, updated_by: updatedBy };
  const [row] = await db('bank_details')
    .insert({ id: SINGLETON_ID, ...values })
    .onConflict('id')
    .merge(values)
    .returning('*');
  return toBank(row);
}
