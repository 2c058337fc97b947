import { addDays, istDate, istDateTime, istMidnight } from './ist';
import type { MarketCalendar } from './marketCalendar';

const REGULAR_OPEN = '09:15';

/**
 * The demo calendar (`SIM_SESSION=always`): every moment is in session and inside the entry window, so the
 * product works at night and on holidays. Buckets still align to 09:15 IST of the IST date; for instants before
 * 09:15 the open lies later the same day, and `floor((t − open) / interval)` still lands on the same grid
 * (09:15 is a whole number of 1-, 3-, 5- and 15-minute steps after midnight). No square-off is imposed,
 * otherwise every position opened after 15:15 would be closed immediately.
 */
export const alwaysOpenCalendar: MarketCalendar = {
  isInSession: () => true,
  sessionOpen: (time) => istDateTime(istDate(time), REGULAR_OPEN),
  tradingDate: istDate,
  isInEntryWindow: () => true,
  isTradingDay: () => true,
  hasRegularSession: () => true,
  sessionsOn: (date) => {
    return [{ open: istMidnight(date), close: istMidnight(addDays(date, 1)), kind: 'regular' }];
  },
  squareOffTime: () => null,
};
