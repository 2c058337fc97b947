import type { Db } from '../knex';
import { rowMapper } from '../normalise';
import type { TradingSettingsRow, UserRow, UserSettingsRow } from '../rows';
import { toUser } from './users';

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

/** A user the engine may trade for: the user, their settings and their trading settings. */
export interface TradingCandidate {
  user: UserRow;
  settings: UserSettingsRow;
  trading: TradingSettingsRow;
}

/**
 * Every user whose bot switch is on, with both settings rows, in three queries whatever their number: a signal's
 * fan-out reads them all at once instead of three queries per user.
 */
export async function listTradingCandidates(
  db: Db,
  userIds?: readonly number[],
): Promise<TradingCandidate[]> {
  const tradingQuery = db('trading_settings').orderBy('user_id');
  if (userIds === undefined) tradingQuery.where({ bot_enabled: true });
  else tradingQuery.whereIn('user_id', [...userIds]);
  const trading = ((await tradingQuery) as unknown[]).map(toTradingSettings);
  if (trading.length === 0) return [];
  const ids = trading.map((t) => t.user_id);
  const [users, settings] = await Promise.all([
    db('users').whereIn('id', ids),
    db('user_settings').whereIn('user_id', ids),
  ]);
  const userById = new Map((users as unknown[]).map(toUser).map((u) => [u.id, u]));
  const settingsById = new Map((settings as unknown[]).map(toUserSettings).map((s) => [s.user_id, s]));
  const candidates: TradingCandidate[] = [];
  for (const row of trading) {
    const user = userById.get(row.user_id);
    if (user === undefined) continue;
    candidates.push({
      user,
      trading: row,
      settings: settingsById.get(row.user_id) ?? defaultUserSettings(row.user_id),
    });
  }
  return candidates;
}

/** The settings a user has before saving any (the column defaults of user_settings). */
function defaultUserSettings(userId: number): UserSettingsRow {
  return {
    user_id: userId,
    auto_trading: true,
    risk_level: 'medium',
    max_daily_loss_paise: 500_000,
    trading_start: '09:15',
    trading_end: '15:30',
    notify_push: true,
    notify_trade_execution: true,
    notify_pnl_updates: true,
    notify_system_alerts: true,
    updated_at: 0,
  };
}
