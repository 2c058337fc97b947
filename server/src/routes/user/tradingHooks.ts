// What the user and payment routes need from the trading engine. The engine service (server/src/trading, passed
// as `deps.trading` by app.ts, or `ApiOptions.trading`) provides it; the routes depend only on this interface.
import { istDate, lotSizeFor, parseContractSpecs, underlyingSpec } from '@optionpilot/engine';
import contractsJson from '../../../../engine/data/nse-contracts.json' with { type: 'json' };
import type { BotStatusDetailDto, UserStatsDto } from '../../contract';

export interface TradingHooks {
  /** `GET /api/user/bot-status`: would the engine trade for this user now, and if not, why */
  botStatus(userId: number): Promise<BotStatusDetailDto>;
  /** the user's bot switch, trading settings, settings, broker or subscription changed: re-evaluate, push `bot:status` */
  onUserChanged(userId: number): Promise<void> | void;
  /** the dashboard's statistics (today on the engine's clock, open positions marked to market): one computation
   * for `GET /api/user/stats` and the `user:stats` push */
  statsFor(userId: number): Promise<UserStatsDto>;
  /** an open trade's P&L at the last quote (rupees), null when not quoted */
  markPnl?(tradeId: number): number | null;
  /** units per lot of the contract a new position would buy now; default `niftyLotSize` */
  lotSize?(now: number): number;
}

const niftySpec = underlyingSpec(parseContractSpecs(contractsJson), 'NIFTY');

/** NIFTY lot size from the engine's dated contract table, by today's IST date (the weekly expiry is days away). */
export function niftyLotSize(now: number): number {
  return lotSizeFor(niftySpec, istDate(now));
}
