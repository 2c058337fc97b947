import type { Db } from '../knex';
import { rowMapper } from '../normalise';
import type { TradingSettingsRow, UserSettingsRow } from '../rows';

const toUserSettings = rowMapper<UserSettingsRow>([
  'auto_trading',
  'notify_push',
  'notify_trade_execution',
  'notify_pnl_updates',
  'notify_system_alerts',
]);
const toTradingSettings = rowMapper<TradingSettingsRow>(['bot_enabled']);

export type UserSettingsPatch = Partial<Omit<UserSettingsRow, 'user_id' | 'updated_at'>>;
export type TradingSettingsPatch = Partial<Omit<TradingSettingsRow, 'user_id' | 'updated_at'>>;

/** The user's settings, creating the defaults row on first read. */
export async function getUserSettings(db: Db, userId: number, now = Date.now()): Promise<UserSettingsRow> {
  await db('user_settings').insert({ user_id: userId, updated_at: now }).onConflict('user_id').ignore();
  return toUserSettings(await db('user_settings').where({ user_id: userId }).first());
}

/** Saves the given settings (creating the row if needed) and returns the whole row. */
export async function saveUserSettings(
  db: Db,
  userId: number,
  patch: UserSettingsPatch,
  now = Date.now(),
): Promise<UserSettingsRow> {
  const values = { ...patch, updated_at: now };
  const [row] = await db('user_settings')
    .insert({ user_id: userId, ...values })
    .onConflict('user_id')
    .merge(values)
    .returning('*');
  return toUserSettings(row);
}

/** The user's trading settings, creating the defaults row (bot off, paper, 1 lot, target 40) on first read. */
export async function getTradingSettings(
  db: Db,
  userId: number,
  now = Date.now(),
): Promise<TradingSettingsRow> {
  await db('trading_settings').insert({ user_id: userId, updated_at: now }).onConflict('user_id').ignore();
  return toTradingSettings(await db('trading_settings').where({ user_id: userId }).first());
}

/** Saves the given trading settings (creating the row if needed) and returns the whole row. */
export async function saveTradingSettings(
  db: Db,
  userId: number,
  patch: TradingSettingsPatch,
  now = Date.now(),
): Promise<TradingSettingsRow> {
  const values = { ...patch, updated_at: now };
  const [row] = await db('trading_settings')
    .insert({ user_id: userId, ...values })
    .onConflict('user_id')
    .merge(values)
    .returning('*');
  return toTradingSettings(row);
}

/** Users whose own bot switch is on (the engine's first eligibility filter). */
export async function listBotEnabledSettings(db: Db): Promise<TradingSettingsRow[]> {
  return (await db('trading_settings').where({ bot_enabled: true }).orderBy('user_id')).map(
    toTradingSettings,
  );
}
