// Signals on the wire (admin Signals tab and the `admin:signal` event). Index levels are stored as hundredths of a
// point and shown as points.
import type { SignalDto } from '../contract';
import type { SignalRow } from '../db';
import { iso } from './time';

/** SignalRow → SignalDto. */
export function presentSignal(signal: SignalRow): SignalDto {
  return {
    id: signal.id,
    timestamp: iso(signal.signal_at),
    type: signal.type,
    conditionMet: signal.condition_met,
    entryTrigger: signal.entry_trigger_x100 / 100,
    niftyPrice: signal.nifty_price_x100 / 100,
    executed: signal.executed,
  };
}
