// What visitors read without signing in, besides the landing page's config and plans: the demo dashboard and the
// legal documents.
import { z } from 'zod';
import type { BotStatusDto, CandleDto, FeedHealthDto, MarketTickDto, TradeDto, UserStatsDto } from './dto';

/** `GET /api/demo` while the demo runs: the demo account's dashboard on the simulated (or replayed) market. */
export interface DemoDashboardDto {
  available: true;
  /** where the prices come from: the simulated market (FEED=sim) or a recorded day replayed (FEED=replay) */
  market: 'simulated' | 'replay';
  tick: MarketTickDto | null;
  feedHealth: FeedHealthDto;
  bot: BotStatusDto;
  stats: UserStatsDto;
  /** the demo account's newest trades (paper), newest first, at most DEMO_TRADES */
  trades: TradeDto[];
  /** the newest one-minute candles (the forming one last), merged into the chart loaded from `/api/demo/candles` */
  candles: CandleDto[];
  /** when this snapshot was taken, ISO-8601 UTC (snapshots are shared for about a second) */
  generatedAt: string;
}

/** `GET /api/demo` when this server does not run the demo, and why. */
export interface DemoUnavailableDto {
  available: false;
  /** `off`: the operator switched it off; `live_feed`: the server trades on the live market */
  reason: 'off' | 'live_feed';
  message: string;
}

export type DemoResponse = DemoDashboardDto | DemoUnavailableDto;

/** How many of the demo account's trades `GET /api/demo` lists. */
export const DEMO_TRADES = 20;

/** Query of `GET /api/demo/candles`: the one-minute chart's history. */
export const demoCandlesQuerySchema = z.object({
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be between 1 and 600')
    .max(600, 'limit must be between 1 and 600')
    .default(300),
});

export const LEGAL_DOCUMENTS = ['terms', 'privacy'] as const;
export type LegalDocumentKind = (typeof LEGAL_DOCUMENTS)[number];

/** `GET /api/legal/terms` and `/api/legal/privacy`: the text the operator publishes, as Markdown. */
export interface LegalDocumentDto {
  document: LegalDocumentKind;
  title: string;
  /** Markdown (CommonMark); the page renders it without raw HTML */
  markdown: string;
  /** `operator`: the operator's own file under DATA_DIR/legal; `default`: the text built into OptionPilot */
  source: 'operator' | 'default';
  /** when the operator's file last changed, ISO-8601 UTC; null for the built-in text */
  updatedAt: string | null;
}
