// What GET /api/demo shows: the demo account's dashboard, read from the same sources as a subscriber's (the
// engine's stats and bot status, the trades table through the trade presenter, the in-memory market view). One
// snapshot is shared by every visitor for SNAPSHOT_TTL_MS, so the database work does not grow with the audience.
import type { CandleDto, DemoResponse } from '../contract';
import { DEMO_TRADES } from '../contract';
import type { Deps } from '../deps';
import { listTrades } from '../db';
import { presentTrade } from '../presenters/trade';
import { iso } from '../presenters/time';
import { findDemoAccountId } from './account';

/** How long one snapshot answers every visitor. */
export const SNAPSHOT_TTL_MS = 1_000;
/** One-minute candles in each snapshot: enough for a page polling every 2 s to miss none at SIM_SPEED 600. */
export const SNAPSHOT_CANDLES = 20;

const UNAVAILABLE_MESSAGES = {
  off: 'The demo dashboard is switched off on this server.',
  live_feed:
    'This server trades on the live market, so it shows no demo: paper results on real prices would read as a track record. The demo runs only on a simulated market.',
} as const;

export interface DemoDashboard {
  /** the demo's current snapshot, or why there is none */
  snapshot(): Promise<DemoResponse>;
  /** the one-minute chart's history; null when the demo does not run */
  candles(limit: number): CandleDto[] | null;
}

/** Creates the demo's read side over the server's dependencies. */
export function createDemoDashboard(deps: Pick<Deps, 'db' | 'clock' | 'config' | 'trading'>): DemoDashboard {
  let demoId: number | null = null;
  let cached: { at: number; value: Promise<DemoResponse> } | undefined;

  async function accountId(): Promise<number | null> {
    demoId ??= await findDemoAccountId(deps.db.knex);
    return demoId;
  }

  async function build(): Promise<DemoResponse> {
    const { config, trading } = deps;
    if (config.demo !== 'on') {
      return { available: false, reason: config.demo, message: UNAVAILABLE_MESSAGES[config.demo] };
    }
    const id = await accountId();
    // Kept at start-up (keepDemoAccount); missing only if someone removed it since.
    if (id === null) return { available: false, reason: 'off', message: UNAVAILABLE_MESSAGES.off };
    const [bot, stats, rows] = await Promise.all([
      trading.botStatus(id),
      trading.statsFor(id),
      listTrades(deps.db.knex, { userId: id, limit: DEMO_TRADES }),
    ]);
    return {
      available: true,
      market: config.feed === 'sim' ? 'simulated' : 'replay',
      tick: trading.marketTick(),
      feedHealth: trading.feedHealth(),
      bot: { isRunning: bot.isRunning, ...(bot.reason === undefined ? {} : { reason: bot.reason }) },
      stats,
      trades: rows.map((row) => presentTrade(row, row.status === 'open' ? trading.markPnl(row.id) : null)),
      candles: trading.candles(1, SNAPSHOT_CANDLES),
      generatedAt: iso(deps.clock.now()),
    };
  }

  return {
    snapshot() {
      const now = deps.clock.now();
      if (cached === undefined || now - cached.at >= SNAPSHOT_TTL_MS) {
        const value = build();
        cached = { at: now, value };
        // A failed build must not be served to everyone for the next second.
        value.catch(() => {
          if (cached?.value === value) cached = undefined;
        });
      }
      return cached.value;
    },
    candles(limit) {
      return deps.config.demo === 'on' ? deps.trading.candles(1, limit) : null;
    },
  };
}
