// The NIFTY weekly expiry the server trades at `now`, from the same exchange calendar it uses: a fake that lists
// these contracts answers the orders and quotes the server asks for, whatever the date.
import { currentWeeklyExpiry } from '../../../engine/src/runtime/entryPlan';
import { createMarketContext } from '../../../server/src/trading/market';

export function currentExpiry(now = Date.now()): string {
  return currentWeeklyExpiry(createMarketContext({ mode: 'market', now }).expiries, now);
}
