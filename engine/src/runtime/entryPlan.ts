import type { ExpiryCalendar } from '../calendar/expiry';
import { istDate } from '../calendar/ist';
import type { OptionType, SignalType } from '../core/types';
import { splitByFreezeQty } from '../execution/freezeSplit';
import { formatOptionSymbol } from '../instruments/optionSymbol';
import { selectStrike } from '../instruments/strikes';

/** Units per order above which the exchange rejects an order, so it is split (DOMAIN.md §1, [verify]). */
export const DEFAULT_FREEZE_QUANTITY = 1_800;

/** The weekly contract a position opened at `time` buys: today's expiry once it has stopped trading is replaced by the next. */
export function currentWeeklyExpiry(expiries: ExpiryCalendar, time: number): string {
  const [first, second] = expiries.weeklyExpiries(istDate(time), 2) as [string, string];
  return time < expiries.expiryInstant(first) ? first : second;
}

/** What an entry buys: the one strike in the money of the current weekly expiry, in whole lots. */
export interface EntryPlan {
  readonly optionType: OptionType;
  readonly strike: number;
  readonly expiry: string;
  readonly expiryAt: number;
  readonly symbol: string;
  readonly lotSize: number;
  readonly lots: number;
  readonly quantity: number;
  /** orders per side after freeze-quantity splitting */
  readonly legs: number;
}

/** Inputs of {@link planEntry}. */
export interface EntryPlanInput {
  readonly type: SignalType;
  /** the index level the signal executed at */
  readonly index: number;
  readonly time: number;
  readonly lots: number;
  /** units overriding lots × lot size (backtests) */
  readonly quantity?: number;
  readonly expiries: ExpiryCalendar;
  readonly freezeQuantity?: number;
  /** the broker's lot size for the contract when its instrument master is loaded (it wins over the engine's) */
  readonly lotSizeOverride?: number;
}

/**
 * The one strike → symbol → lot chain of an entry (CALL → CE at ATM − 1 strike, PUT → PE at ATM + 1), used by
 * live trading and backtests alike.
 */
export function planEntry(input: EntryPlanInput): EntryPlan {
  const { expiries, time } = input;
  const expiry = currentWeeklyExpiry(expiries, time);
  const { strike, optionType } = selectStrike(input.type, input.index, [], expiries.strikeStep);
  const lotSize = input.lotSizeOverride ?? expiries.lotSize(expiry);
  const quantity = input.quantity ?? input.lots * lotSize;
  const wholeLots = quantity % lotSize === 0;
  const legs = splitByFreezeQty(
    quantity,
    input.freezeQuantity ?? DEFAULT_FREEZE_QUANTITY,
    wholeLots ? lotSize : 1,
  ).length;
  return {
    optionType,
    strike,
    expiry,
    expiryAt: expiries.expiryInstant(expiry),
    symbol: formatOptionSymbol({ underlying: 'NIFTY', expiry, strike, optionType }),
    lotSize,
    lots: wholeLots ? quantity / lotSize : input.lots,
    quantity,
    legs,
  };
}
