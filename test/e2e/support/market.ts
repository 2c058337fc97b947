// The market a live-broker spec's fake streams: a steadily rising NIFTY, one tick a second, so every one-minute
// candle is bullish and a CALL arms at each close and executes on the next tick above its trigger. Calls gain half
// a point per index point, puts lose as much, from a premium of 100.

/** One listed option as the spec's fake knows it. */
export interface MarketOption {
  readonly optionType: 'CE' | 'PE';
}

/** Starts the ticks; `push` sends the index and each option's premium by the fake's key; returns the stop. */
export function startRisingMarket<O extends MarketOption>(
  options: readonly O[],
  keyOf: (option: O) => string,
  push: (prices: { index: number; quotes: Record<string, number> }) => void,
  startIndex: number,
): () => void {
  let index = startIndex;
  const ticker = setInterval(() => {
    index += 1.5;
    const move = (index - startIndex) / 2;
    const quotes: Record<string, number> = {};
    for (const option of options) {
      const premium = 100 + (option.optionType === 'CE' ? move : -move);
      quotes[keyOf(option)] = Math.max(0.05, Math.round(premium * 20) / 20);
    }
    push({ index, quotes });
  }, 1_000);
  return () => clearInterval(ticker);
}
