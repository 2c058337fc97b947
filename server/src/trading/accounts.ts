// Who the runtime trades for: the runtime's accounts port and the bot status, decided by one rule
// (`evaluateEligibility`) over rows read in bulk, so a signal's fan-out reads every candidate in a handful of
// queries instead of several per user, and the bot-status endpoint can never disagree with the fan-out.
import { paiseToRupees } from '@optionpilot/engine/money';
import {
  formatHhMm,
  istMidnightOf,
  toIstParts,
  type AccountsPort,
  type RuntimeAccount,
  type TradingRuntime,
} from '@optionpilot/engine';
import type { Clock } from '../clock';
import type { Config } from '../config';
import { listTradingCandidates, realisedPnlByUser, type Database, type TradingCandidate } from '../db';
import type { StrategySet } from './controls';
import { evaluateEligibility, type Eligibility, type TradeSide } from './eligibility';
import type { MarketContext } from './market';

/** Options of {@link createAccountDirectory}. */
export interface AccountDirectoryOptions {
  readonly db: Database;
  readonly config: Pick<Config, 'simSession'>;
  /** wall clock: subscriptions end on real dates */
  readonly clock: Clock;
  readonly market: () => MarketContext | undefined;
  readonly strategySet: () => StrategySet;
  readonly runtime: () => TradingRuntime | undefined;
  /** the user's valid live broker session now, by its key (brokerSessions.ts); none: every account trades paper */
  readonly liveSession?: (userId: number) => { readonly key: string } | undefined;
  /** whether the running feed carries live exchange prices; false (sim, replay, stopped): every account is paper */
  readonly liveMarket?: () => boolean;
}

/** The accounts port and the per-user verdict behind it. */
export interface AccountDirectory extends AccountsPort {
  /** whether `candidate` would be traded at engine time `time` (for a `side` signal, or any) */
  verdict(
    candidate: TradingCandidate,
    time: number,
    side?: TradeSide,
    realisedTodayPaise?: number,
  ): Eligibility;
  /** the strategy a user follows (the default one unless they chose another) */
  strategyOf(candidate: TradingCandidate): string;
}

/** Creates the directory. */
export function createAccountDirectory(options: AccountDirectoryOptions): AccountDirectory {
  const { db } = options;
  const liveSession = options.liveSession ?? (() => undefined);
  const liveMarket = options.liveMarket ?? (() => false);

  function strategyOf(candidate: TradingCandidate): string {
    const chosen = candidate.trading.strategy_id;
    return chosen === null ? options.strategySet().defaultId : String(chosen);
  }

  function verdict(
    candidate: TradingCandidate,
    time: number,
    side?: TradeSide,
    realisedTodayPaise = 0,
  ): Eligibility {
    const set = options.strategySet();
    const strategy = set.strategies.find((s) => s.id === strategyOf(candidate));
    const accountId = String(candidate.user.id);
    const runtime = options.runtime();
    const maxLoss = candidate.settings.max_daily_loss_paise;
    const locked =
      (runtime?.risk.account(accountId, time)?.locked ?? false) ||
      (maxLoss > 0 && realisedTodayPaise <= -maxLoss);
    const result = evaluateEligibility({
      wallNow: options.clock.now(),
      user: candidate.user,
      settings: candidate.settings,
      trading: candidate.trading,
      global: {
        tradingEnabled: set.controls.params.tradingEnabled,
        callEnabled: strategy?.params.callEnabled ?? false,
        putEnabled: strategy?.params.putEnabled ?? false,
      },
      brokerSessionValid: liveSession(candidate.user.id) !== undefined,
      liveMarket: liveMarket(),
      marketOpen: options.market()?.calendar.isInSession(time) ?? false,
      enforceTradingHours: options.config.simSession === 'market',
      istTime: formatHhMm(toIstParts(time).minuteOfDay),
      dailyLossLocked: locked,
      positionOpen: (runtime?.positions(accountId).length ?? 0) > 0,
      ...(side === undefined ? {} : { side }),
    });
    if (strategy === undefined && result.eligible) {
      return {
        eligible: false,
        mode: result.mode,
        reason: 'Your strategy is no longer offered: choose another',
      };
    }
    return result;
  }

  return {
    verdict,
    strategyOf,
    async eligible({ strategyId, signal, time }) {
      const [candidates, realised] = await Promise.all([
        listTradingCandidates(db.knex),
        realisedPnlByUser(db.knex, istMidnightOf(time)),
      ]);
      const accounts: RuntimeAccount[] = [];
      for (const candidate of candidates) {
        if (strategyOf(candidate) !== strategyId) continue;
        const result = verdict(candidate, time, signal.type, realised.get(candidate.user.id) ?? 0);
        if (!result.eligible) continue;
        accounts.push({
          accountId: String(candidate.user.id),
          lots: candidate.trading.trade_quantity,
          targetPoints: candidate.trading.target_points,
          maxDailyLoss: paiseToRupees(candidate.settings.max_daily_loss_paise),
          paper: result.mode === 'paper',
          brokerKey: result.mode === 'paper' ? 'paper' : (liveSession(candidate.user.id)?.key ?? 'paper'),
        });
      }
      return accounts;
    },
  };
}
