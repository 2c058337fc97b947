// Each trader's bot status and stats, as the dashboard and its socket see them: the status comes from the same
// eligibility rule the fan-out uses (accounts.ts), so "Running" on the dashboard means the next signal trades the
// account; stats add the open positions' marked P&L to the realised P&L, and follow the mark live.
import { istMidnightOf } from '@optionpilot/engine';
import type { BotStatusDetailDto, BotStatusDto, UserStatsDto } from '../contract';
import { listTradingCandidates, userTradeTotals, type Db } from '../db';
import { presentStats, type UserStatsInput } from '../presenters/stats';
import type { Realtime } from '../realtime/publisher';
import type { AccountDirectory } from './accounts';
import type { TradingControls } from './controls';

export interface BotBoardOptions {
  knex: Db;
  directory: AccountDirectory;
  publisher: Realtime;
  /** the admin controls in force (loaded on first use) */
  controls: () => Promise<TradingControls>;
  /** whether the trading runtime runs */
  running: () => boolean;
  /** engine time: today's P&L is the engine's IST day */
  engineNow: () => number;
  /** the user's open positions' marked P&L, paise */
  unrealisedPaise: (userId: number) => number;
  /** how many positions the user has open */
  openTradeCount: (userId: number) => number;
}

export interface BotBoard {
  botStatus(userId: number): Promise<BotStatusDetailDto>;
  pushBotStatus(userId: number): Promise<void>;
  statsFor(userId: number): Promise<UserStatsDto>;
  /** a user's trade changed: push their stats and bot status */
  userChanged(userId: number): Promise<void>;
  /** an open position's mark moved: push the user's stats (realised figures from the last full read) */
  openPnlMoved(userId: number): Promise<void>;
  /** the master switch changed: every bot's status */
  pushAllBotStatuses(): Promise<void>;
}

/** The `bot:status` event of a status: the payload names no user (ARCHITECTURE.md's realtime contract). */
export function botStatusEvent(status: BotStatusDetailDto): BotStatusDto {
  return { isRunning: status.isRunning, ...(status.reason === undefined ? {} : { reason: status.reason }) };
}

export function createBotBoard(options: BotBoardOptions): BotBoard {
  const { knex, directory, publisher } = options;

  async function botStatus(userId: number): Promise<BotStatusDetailDto> {
    const controls = await options.controls();
    const [candidate] = await listTradingCandidates(knex, [userId]);
    const globalTradingEnabled = controls.params.tradingEnabled;
    if (candidate === undefined) {
      return {
        isRunning: false,
        enabled: false,
        globalTradingEnabled,
        mode: 'paper',
        reason: 'Bot switched off',
      };
    }
    const now = options.engineNow();
    const { today } = await userTradeTotals(knex, userId, istMidnightOf(now));
    const verdict = directory.verdict(candidate, now, undefined, today.pnlPaise);
    const running = options.running();
    const reason = running ? verdict.reason : 'Trading engine is not running';
    return {
      isRunning: running && verdict.eligible,
      enabled: candidate.trading.bot_enabled,
      globalTradingEnabled,
      mode: verdict.mode,
      ...(reason === undefined ? {} : { reason }),
    };
  }

  async function pushBotStatus(userId: number): Promise<void> {
    // The user's room only.
    publisher.toUser(userId, 'bot:status', botStatusEvent(await botStatus(userId)));
  }

  // The realised part of each trader's stats as last read, with the open trade count: a moving mark (about once a
  // second per open position) then costs no query. A trade opening or closing re-reads it (userChanged), as does a
  // new IST day.
  const realised = new Map<number, { dayStart: number; input: Omit<UserStatsInput, 'openPaise'> }>();

  async function statsFor(userId: number): Promise<UserStatsDto> {
    const dayStart = istMidnightOf(options.engineNow());
    const { all, today } = await userTradeTotals(knex, userId, dayStart);
    const input = {
      todayRealisedPaise: today.pnlPaise,
      totalRealisedPaise: all.pnlPaise,
      openTrades: options.openTradeCount(userId),
      closedTrades: all.closedTrades,
      wins: all.wins,
    };
    if (input.openTrades > 0) realised.set(userId, { dayStart, input });
    else realised.delete(userId);
    return presentStats({ ...input, openPaise: options.unrealisedPaise(userId) });
  }

  async function openPnlMoved(userId: number): Promise<void> {
    const known = realised.get(userId);
    const stats =
      known !== undefined && known.dayStart === istMidnightOf(options.engineNow())
        ? presentStats({ ...known.input, openPaise: options.unrealisedPaise(userId) })
        : await statsFor(userId);
    publisher.toUser(userId, 'user:stats', stats);
  }

  return {
    botStatus,
    pushBotStatus,
    statsFor,
    async userChanged(userId) {
      publisher.toUser(userId, 'user:stats', await statsFor(userId));
      await pushBotStatus(userId);
    },
    openPnlMoved,
    async pushAllBotStatuses() {
      for (const candidate of await listTradingCandidates(knex)) await pushBotStatus(candidate.user.id);
    },
  };
}
