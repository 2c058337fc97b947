// A NIFTY market for the Fyers fake's data socket outside tests (main.ts, demo.ts): a random walk of the index once
// a second, with every listed option priced from it (intrinsic value plus 80 points of time value).
import type { FyersFake } from './server';

/** Starts pushing prices every second from `start`; returns the function that stops it. */
export function startFyersMarketWalk(fake: FyersFake, start = 24_000): () => void {
  let index = start;
  const timer = setInterval(() => {
    index = Math.round((index + (Math.random() - 0.5) * 10) * 20) / 20;
    const quotes: Record<string, number> = {};
    for (const i of fake.instruments) {
      const intrinsic = i.optionType === 'CE' ? index - i.strike : i.strike - index;
      quotes[i.fyToken] = Math.max(0.05, Math.round((Math.max(0, intrinsic) + 80) * 20) / 20);
    }
    fake.hsm.push({ index, quotes });
  }, 1_000);
  return () => clearInterval(timer);
}
