// What the user and payment routes need from the trading engine. The engine service (server/src/trading) provides
// `botStatus` and `onUserChanged`; until the app wiring passes it, `createStoredTradingHooks` answers from the
// database alone (the same eligibility facts, without positions) and pushes `bot:status` itself.
import { istDate, lotSizeFor, parseContractSpecs, underlyingSpec } from '@optionpilot/engine';
import contractsJson from '../../../../engine/data/nse-contracts.json' with { type: 'json' };
import type { BotStatusDetailDto, BotStatusDto } from '../../contract';
import type { Deps } from '../../deps';
import { findUserById, getAdminControl, getTradingSettings, getUserSettings } from '../../db';
import { effectiveSubscriptionStatus } from '../../payments/subscription';

export interface TradingHooks {
  /** `GET /api/user/bot-status`: would the engine trade for this user now, and if not, why */
  botStatus(userId: number): Promise<BotStatusDetailDto>;
  /** the user's bot switch, trading settings, settings, broker or subscription changed: re-evaluate, push `bot:status` */
  onUserChanged(userId: number): Promise<void> | void;
  /** unrealised P&L of the user's open positions in paise; without it today's P&L counts closed trades only */
  unrealisedPnlPaise?(userId: number): number | Promise<number>;
  /** units per lot of the contract a new position would buy now */
  lotSize?(now: number): number;
}

const niftySpec = underlyingSpec(parseContractSpecs(contractsJson), 'NIFTY');

/** NIFTY lot size from the engine's dated contract table (by today's IST date: the current weekly expiry is days away). */
export function niftyLotSize(now: number): number {
  return lotSizeFor(niftySpec, istDate(now));
}

/** The socket payload of a detailed bot status. */
export function presentBotStatus(detail: BotStatusDetailDto): BotStatusDto {
  return detail.reason === undefined
    ? { isRunning: detail.isRunning }
    : { isRunning: detail.isRunning, reason: detail.reason };
}

/** Bot status from stored facts only: subscription, own switch, auto trading, the admins' master switch. */
export function createStoredTradingHooks(deps: Pick<Deps, 'db' | 'clock' | 'realtime'>): TradingHooks {
  const botStatus = async (userId: number): Promise<BotStatusDetailDto> => {
    const db = deps.db.knex;
    const now = deps.clock.now();
    const [user, trading, settings, master] = await Promise.all([
      findUserById(db, userId),
      getTradingSettings(db, userId, now),
      getUserSettings(db, userId, now),
      getAdminControl(db, 'tradingEnabled'),
    ]);
    const globalTradingEnabled = (master?.value ?? 'true') === 'true';
    const status = user ? effectiveSubscriptionStatus(user, now) : 'inactive';
    const reason =
      status !== 'active'
        ? status === 'expired'
          ? 'Subscription expired'
          : 'Subscription inactive'
        : !trading.bot_enabled
          ? 'Bot switched off'
          : !settings.auto_trading
            ? 'Auto trading is off in Settings'
            : !globalTradingEnabled
              ? 'Trading paused by admin'
              : undefined;
    return {
      isRunning: reason === undefined,
      enabled: trading.bot_enabled,
      globalTradingEnabled,
      mode: trading.mode,
      ...(reason === undefined ? {} : { reason }),
    };
  };
  return {
    botStatus,
    async onUserChanged(userId) {
      deps.realtime.toUser(userId, 'bot:status', presentBotStatus(await botStatus(userId)));
    },
    lotSize: niftyLotSize,
  };
}
