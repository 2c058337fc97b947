// GET /api/market/nifty50 and /api/market/candles: the trading service's in-memory view of the index (no database
// work). Public on purpose: simulated index figures carry nothing personal, and the visitors' demo dashboard
// reads them too; the socket pushes the same shapes on `market:tick` / `market:candle`.
// GET /api/market/session: the trading day's times (from the engine's calendar and the strategy's controls), the
// market clock and the session now; public because the landing page states the hours too.
import { Router } from '@koa/router';
import type { Deps } from '../../deps';
import { AppError, validationError } from '../../errors';
import type { AppState } from '../../middleware/context';
import type { CandleInterval } from '../../trading/marketView';
import { candlesQuerySchema } from './schema';

/** Routes of the market resource, mounted under /api. */
export function marketRouter(deps: Pick<Deps, 'trading'>): Router<AppState> {
  const router = new Router<AppState>();

  router.get('/market/nifty50', (ctx) => {
    const tick = deps.trading.marketTick();
    if (tick === null) {
      throw new AppError('service_unavailable', {
        message: 'No NIFTY 50 price yet: the market is closed or the feed is starting.',
        retryAfterSeconds: 5,
      });
    }
    ctx.set('Cache-Control', 'no-store');
    ctx.body = tick;
  });

  router.get('/market/candles', (ctx) => {
    const parsed = candlesQuerySchema.safeParse(ctx.query);
    if (!parsed.success) throw validationError(parsed.error, 'query');
    ctx.set('Cache-Control', 'no-store');
    ctx.body = deps.trading.candles(parsed.data.interval as CandleInterval, parsed.data.limit);
  });

  router.get('/market/session', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await deps.trading.marketSession();
  });

  return router;
}
