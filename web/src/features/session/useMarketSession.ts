// GET /api/market/session for a page: the trading day's facts and whether the market is open now. Refreshed every
// minute (the open/closed state changes with the clock; the facts change only when an admin moves the square-off).
import { useEffect, useState } from 'react';
import type { MarketSessionDto } from '@optionpilot/server/contract';
import { api } from '../../api/client';

export const MARKET_SESSION_PATH = '/api/market/session';
export const MARKET_SESSION_REFRESH_MS = 60_000;

/** The market session once loaded (null before, and kept as it was when a refresh fails). */
export function useMarketSession(refreshMs = MARKET_SESSION_REFRESH_MS): MarketSessionDto | null {
  const [session, setSession] = useState<MarketSessionDto | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    const load = () => {
      api
        .get<MarketSessionDto>(MARKET_SESSION_PATH, { signal: controller.signal })
        .then(setSession)
        // The pages word their text without the times until they are known; the next refresh retries.
        .catch(() => undefined);
    };
    load();
    const timer = refreshMs > 0 ? setInterval(load, refreshMs) : undefined;
    return () => {
      controller.abort();
      clearInterval(timer);
    };
  }, [refreshMs]);
  return session;
}
