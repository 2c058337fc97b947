// The market as a follower's REST answers it. `GET /api/market/nifty50`, `/api/market/candles` and the visitors' demo
// read the engine's in-memory view, which only the leader has; a follower keeps a copy it asks the leader for every
// few seconds (through the adapter's server-side messages), so a dashboard loading from any node draws its chart.
// The socket's live `market:tick` / `market:candle` events come from the leader directly and stay exact. The copy
// also carries the engine's open positions and each one's P&L at the last quote, so a follower's trade lists and
// health page show them (as of the copy: at most `everyMs` old; the live `user:trade` pushes stay exact).
import type { RiskPosition } from '@optionpilot/engine';
import type { CandleDto, FeedHealthDto, MarketTickDto } from '../contract';
import type { Logger } from '../logger';
import type { RealtimeServer } from '../realtime/publisher';
import type { TradingService } from '../trading/api';
import { CANDLE_INTERVALS, type CandleInterval } from '../trading/marketView';

/** The most candles `/api/market/candles` returns (the contract's `limit` bound). */
const MAX_CANDLES = 1000;

export interface MarketCopy {
  tick: MarketTickDto | null;
  feedHealth: FeedHealthDto;
  /** by interval (minutes), oldest first */
  candles: Partial<Record<CandleInterval, CandleDto[]>>;
  /** the positions under risk management */
  positions: RiskPosition[];
  /** each open trade's P&L at the last quote (rupees; null before its first quote), by trade id */
  marks: Array<[tradeId: number, markPnl: number | null]>;
}

/** The leader's side: answers `engine:market` with its view (followers answer nothing). */
export function serveMarketCopies(props: {
  io: RealtimeServer;
  trading: TradingService;
  isLeader: () => boolean;
}): void {
  const { io, trading, isLeader } = props;
  io.on('engine:market', (ack) => {
    if (!isLeader()) {
      ack(null);
      return;
    }
    const positions = [...trading.openPositions()];
    ack({
      positions,
      marks: positions.map(({ positionId }) => [Number(positionId), trading.markPnl(Number(positionId))]),
      tick: trading.marketTick(),
      feedHealth: trading.feedHealth(),
      candles: Object.fromEntries(CANDLE_INTERVALS.map((i) => [i, trading.candles(i, MAX_CANDLES)])),
    });
  });
}

/** A follower's side: the last copy the leader sent, refreshed every `everyMs` while this node does not lead. */
export function followMarket(props: {
  io: RealtimeServer;
  isLeader: () => boolean;
  logger: Logger;
  everyMs?: number;
}): { copy(): MarketCopy | undefined; stop(): void } {
  const { io, isLeader } = props;
  let copy: MarketCopy | undefined;
  let asking = false;
  const refresh = () => {
    if (isLeader()) {
      copy = undefined; // a leader answers from its own view; a stale copy must not outlive a lost lead
      return;
    }
    if (asking) return;
    asking = true;
    io.serverSideEmit('engine:market', (err: Error | null, answers: (MarketCopy | null)[]) => {
      asking = false;
      const fresh = answers.find((answer) => answer !== null);
      if (fresh) copy = fresh;
      else if (err) props.logger.debug({ err }, 'no market copy from the leader this time');
    });
  };
  const timer = setInterval(refresh, props.everyMs ?? 3_000);
  timer.unref();
  refresh();
  return {
    copy: () => copy,
    stop: () => clearInterval(timer),
  };
}
