// Who the engine trades for (ARCHITECTURE.md "Strategy": active subscription, broker session valid or paper mode,
// own bot switch on, global trading on, no open position, not locked by the daily loss limit), as one pure
// function so the bot-status endpoint and the entry fan-out can never disagree.
import type { TradingSettingsRow, UserRow, UserSettingsRow } from '../db';

export type TradeSide = 'CALL' | 'PUT';

export interface EligibilityInput {
  /**
   * wall-clock time, epoch ms: subscriptions end on real dates, even while a simulation runs its engine clock
   * faster than real time
   */
  wallNow: number;
  user: Pick<UserRow, 'subscription_status' | 'subscription_end_at' | 'disabled_at'>;
  settings: Pick<UserSettingsRow, 'auto_trading' | 'trading_start' | 'trading_end'>;
  trading: Pick<TradingSettingsRow, 'bot_enabled' | 'mode'>;
  global: { tradingEnabled: boolean; callEnabled: boolean; putEnabled: boolean };
  /** the user has a valid broker session today */
  brokerSessionValid: boolean;
  /**
   * the market feed carries the exchange's live prices (FEED=kite | upstox). On simulated or replayed prices no
   * real order is ever sent: a trader who chose Live trades paper until the feed is live.
   */
  liveMarket: boolean;
  /** the market is in session (always true in `SIM_SESSION=always`) */
  marketOpen: boolean;
  /**
   * the user's trading hours apply (`SIM_SESSION=market` only: in `always` mode every instant counts as in
   * session, so a clock-time window would make the night demo useless)
   */
  enforceTradingHours: boolean;
  /** the IST time of the engine clock, `HH:MM` */
  istTime: string;
  dailyLossLocked: boolean;
  positionOpen: boolean;
  /** the side of the signal being executed; omitted for the bot status */
  side?: TradeSide;
}

export interface Eligibility {
  /** true when a signal of `side` (or any signal, without a side) would be traded for this user now */
  eligible: boolean;
  /** paper unless the user chose live, their broker session is valid and the feed is live */
  mode: 'paper' | 'live';
  /** why not, in words a user understands */
  reason?: string;
}

/** Decides whether a user is traded now; the first failing rule gives the reason. */
export function evaluateEligibility(input: EligibilityInput): Eligibility {
  const mode =
    input.trading.mode === 'live' && input.brokerSessionValid && input.liveMarket ? 'live' : 'paper';
  const no = (reason: string): Eligibility => ({ eligible: false, mode, reason });
  const { user, settings, trading, global } = input;
  if (user.disabled_at !== null) return no('Account disabled');
  if (user.subscription_status === 'expired') return no('Subscription expired');
  if (user.subscription_status !== 'active') return no('Subscription inactive');
  if (user.subscription_end_at === null || user.subscription_end_at <= input.wallNow)
    return no('Subscription expired');
  if (!trading.bot_enabled) return no('Bot switched off');
  if (!settings.auto_trading) return no('Auto trading is off in Settings');
  if (!global.tradingEnabled) return no('Trading paused by admin');
  if (input.side === 'CALL' && !global.callEnabled) return no('CALL trades are disabled');
  if (input.side === 'PUT' && !global.putEnabled) return no('PUT trades are disabled');
  if (!global.callEnabled && !global.putEnabled) return no('CALL and PUT trades are disabled');
  if (input.dailyLossLocked) return no('Daily loss limit reached: trading resumes next session');
  if (!input.marketOpen) return no('Market closed');
  if (
    input.enforceTradingHours &&
    (input.istTime < settings.trading_start || input.istTime >= settings.trading_end)
  ) {
    return no(`Outside your trading hours (${settings.trading_start}–${settings.trading_end} IST)`);
  }
  // An open position does not stop the bot (it is managing it); it only blocks a second entry.
  if (input.side !== undefined && input.positionOpen) return no('A position is already open');
  return { eligible: true, mode };
}
