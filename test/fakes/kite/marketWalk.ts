// Markets for the Kite fake's ticker: outside tests (main.ts, demo.ts) a random walk of the index once a second,
// with every listed option priced from it (intrinsic value plus 80 points of time value); in tests a steady rise.
import type { KiteFake } from './server';

/** Starts pushing ticks every second from `start`; returns the function that stops it. */
export function startMarketWalk(fake: KiteFake, start = 24_000): () => void {
  let index = start;
  const timer = setInterval(() => {
    index = Math.round((index + (Math.random() - 0.5) * 10) * 20) / 20;
    const quotes: Record<number, number> = {};
    for (const i of fake.instruments) {
      const intrinsic = i.optionType === 'CE' ? index - i.strike : i.strike - index;
      quotes[i.token] = Math.max(0.05, Math.round((Math.max(0, intrinsic) + 80) * 20) / 20);
    }
    fake.ticker.push({ index, quotes });
  }, 1_000);
  return () => clearInterval(timer);
}

/**
 * A steadily rising market for tests, one tick a second from `start`: every one-minute candle is bullish, so a CALL
 * arms at each close and executes on the next tick above its trigger. Calls gain half a point per index point (puts
 * lose it) from a premium of 100. Returns the function that stops it.
 */
export function startRisingMarket(fake: KiteFake, start = 23_990): () => void {
  let index = start;
  const timer = setInterval(() => {
    index += 1.5;
    const move = (index - start) / 2;
    const quotes: Record<number, number> = {};
    for (const i of fake.instruments) {
      const premium = 100 + (i.optionType === 'CE' ? move : -move);
      quotes[i.token] = Math.max(0.05, Math.round(premium * 20) / 20);
    }
    fake.ticker.push({ index, quotes });
  }, 1_000);
  return () => clearInterval(timer);
}
