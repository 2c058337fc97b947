import type { TradingSettingsDto, UserSettingsDto } from '../contract';
import type { StrategyRow, TradingSettingsRow, UserSettingsRow } from '../db';

/** UserSettingsRow → the Settings tab's DTO (max daily loss in whole rupees). */
export function presentUserSettings(row: UserSettingsRow): UserSettingsDto {
  return {
    autoTrading: row.auto_trading,
    maxDailyLoss: Math.round(row.max_daily_loss_paise / 100),
    tradingHoursStart: row.trading_start,
    tradingHoursEnd: row.trading_end,
  };
}

/** TradingSettingsRow → the Trading Settings dialog's DTO. The dialog offers SLM only. */
export function presentTradingSettings(
  row: TradingSettingsRow,
  lotSize: number,
  strategies: readonly StrategyRow[],
): TradingSettingsDto {
  return {
    orderType: 'SLM',
    targetSetting: row.target_points,
    tradeQuantity: row.trade_quantity,
    lotSize,
    strategyId: row.strategy_id,
    strategies: strategies.map((s) => ({
      id: s.id,
      name: s.name,
      description: s.description,
      isDefault: s.built_in,
    })),
  };
}
