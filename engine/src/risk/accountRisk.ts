/**
 * Per-account day P&L and the daily loss lock, as pure functions over plain data. When the day's P&L (realised
 * plus unrealised) reaches −maxDailyLoss the account is flattened and locked until the next session.
 */
import { roundToPaisa } from '../money';

/** One account's risk for the current trading date. Money in rupees. */
export interface AccountRiskState {
  readonly accountId: string;
  /** a positive amount in rupees; 0 or less disables the limit */
  readonly maxDailyLoss: number;
  /** IST trading date (`YYYY-MM-DD`) the figures belong to; null before the first event */
  readonly tradingDate: string | null;
  readonly realisedPnl: number;
  /** unrealised P&L of each open position, by position id */
  readonly unrealised: Readonly<Record<string, number>>;
  /** true once the daily loss limit was hit; cleared by the next session */
  readonly locked: boolean;
}

/** A fresh account state. */
export function createAccountRisk(accountId: string, maxDailyLoss: number): AccountRiskState {
  return { accountId, maxDailyLoss, tradingDate: null, realisedPnl: 0, unrealised: {}, locked: false };
}

/** Realised plus unrealised P&L of the day. */
export function dayPnl(state: AccountRiskState): number {
  return roundToPaisa(Object.values(state.unrealised).reduce((sum, value) => sum + value, state.realisedPnl));
}

/**
 * Moves the account to `tradingDate`: a new date starts a new session — realised P&L back to 0 and the lock
 * released. Open positions keep their unrealised figures (intraday positions are squared off before this).
 */
export function rollSession(state: AccountRiskState, tradingDate: string): AccountRiskState {
  if (state.tradingDate === tradingDate) return state;
  return { ...state, tradingDate, realisedPnl: 0, locked: false };
}

/** Records a position's unrealised P&L. */
export function markUnrealised(state: AccountRiskState, positionId: string, pnl: number): AccountRiskState {
  return { ...state, unrealised: { ...state.unrealised, [positionId]: roundToPaisa(pnl) } };
}

/** Moves a closed position's P&L (net of charges) from unrealised to realised. */
export function realise(state: AccountRiskState, positionId: string, pnl: number): AccountRiskState {
  const { [positionId]: _closed, ...unrealised } = state.unrealised;
  return { ...state, unrealised, realisedPnl: roundToPaisa(state.realisedPnl + pnl) };
}

/** True when the day's P&L is at or beyond the loss limit. */
export function breachesDailyLoss(state: AccountRiskState): boolean {
  return state.maxDailyLoss > 0 && dayPnl(state) <= -state.maxDailyLoss;
}
