import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import calendarJson from '../../data/nse-calendar.json' with { type: 'json' };
import contractsJson from '../../data/nse-contracts.json' with { type: 'json' };
import { alwaysOpenCalendar } from '../calendar/alwaysOpenCalendar';
import { loadCalendarData } from '../calendar/calendarData';
import { parseContractSpecs, underlyingSpec } from '../calendar/contractSpecs';
import { createExchangeCalendar } from '../calendar/exchangeCalendar';
import { createExpiryCalendar } from '../calendar/expiry';
import { istDateTime } from '../calendar/ist';
import { roundTripCharges } from '../charges/charges';
import type { Tick } from '../core/types';
import { createSyntheticQuoter } from '../feeds/syntheticQuotes';
import type { SyntheticQuoteOptions } from '../feeds/syntheticQuotes';
import { createPositionRisk, onPrice } from '../risk/positionRisk';
import type { PositionExit } from '../risk/positionRisk';
import { DEFAULT_STRATEGY_PARAMS } from '../strategy/params';
import { Backtester, runBacktest } from './backtester';
import { currentWeeklyExpiry } from '../runtime/entryPlan';
import type { BacktestOptions, BacktestResult } from './types';

const exchange = createExchangeCalendar(loadCalendarData(calendarJson, { now: Date.UTC(2026, 0, 1) }).data);
const expiries = createExpiryCalendar(exchange, underlyingSpec(parseContractSpecs(contractsJson), 'NIFTY'));

/** Wednesday; its weekly contract expires on Tuesday 2026-01-13 at 15:30 IST. */
const DAY = '2026-01-07';
const EXPIRY = '2026-01-13';
const at = (hhmmss: string, date = DAY) =>
  istDateTime(date, hhmmss.slice(0, 5)) + Number(hhmmss.slice(6) || 0) * 1000;

/**
 * Ticks every `stepSec` seconds along straight lines between anchors `[time, price]` (a repeated time is a jump).
 * Prices are snapped to the 0.05 grid like real index prints.
 */
function path(anchors: readonly (readonly [string, number])[], stepSec = 15, date = DAY): Tick[] {
  const ticks: Tick[] = [];
  for (let i = 0; i + 1 < anchors.length; i += 1) {
    const [fromText, from] = anchors[i] as readonly [string, number];
    const [toText, to] = anchors[i + 1] as readonly [string, number];
    const t0 = at(fromText, date);
    const t1 = at(toText, date);
    for (let t = t0; t < t1; t += stepSec * 1000) {
      const price = from + ((to - from) * (t - t0)) / (t1 - t0);
      ticks.push({ time: t, price: Math.round(price * 20) / 20, volume: 0 });
    }
  }
  const [lastText, last] = anchors[anchors.length - 1] as readonly [string, number];
  ticks.push({ time: at(lastText, date), price: last, volume: 0 });
  return ticks;
}

/** Slippage off and the narrowest spread (one tick each side), so fills are the quote's bid and ask. */
const base: BacktestOptions = {
  params: DEFAULT_STRATEGY_PARAMS,
  calendar: exchange,
  expiries,
  iv: 0.14,
  riskFreeRate: 0.065,
  fills: { halfSpread: 0, slippageTicks: 0 },
};

/** The quote the runtime sees: the live feeds' Black–Scholes quoter with the backtest's IV, rate and spread. */
function quoteOf(
  symbol: string,
  spot: number,
  time: number,
  options: SyntheticQuoteOptions = { halfSpread: 0 },
) {
  const quoter = createSyntheticQuoter({
    atmVolatility: 0.14,
    rate: 0.065,
    expiryInstant: (date) => expiries.expiryInstant(date),
    ...options,
  });
  const quote = quoter.quote(symbol, spot, time);
  if (quote === null) throw new Error(`no quote for ${symbol}`);
  return quote;
}

// Three bullish 1-minute candles of +6 from 09:20 (8 points a minute, ticks every 15 s), so a CALL arms at 09:23
// with trigger 23522 + 2; the 09:23:00 tick (23524) executes it; the index keeps climbing 10 a minute
// (through the target at 09:29:30), then turns down so no later signal executes.
const callTarget: (readonly [string, number])[] = [
  ['09:15:00', 23500],
  ['09:20:00', 23500],
  ['09:23:00', 23524],
  ['09:29:45', 23591.5],
  ['09:30:00', 23585],
  ['10:00:00', 23585],
];

// Three bearish candles from 11:00 arm a PUT (trigger 23602 − 2); 11:03:00 (23600) executes it; at 11:04 the index
// jumps 50 points, gapping the put premium through its stop.
const putStop: (readonly [string, number])[] = [
  ['10:00:00', 23624],
  ['11:00:00', 23624],
  ['11:03:00', 23600],
  ['11:03:45', 23600],
  ['11:04:00', 23650],
  ['11:30:00', 23650],
];

async function run(ticks: Iterable<Tick> | AsyncIterable<Tick>, options: Partial<BacktestOptions> = {}) {
  return runBacktest({ ...base, ...options, ticks });
}

function checkArithmetic(result: BacktestResult): void {
  for (const t of result.trades) {
    expect(t.grossPnl).toBeCloseTo((t.exitPremium - t.entryPremium) * t.quantity, 6);
    const charges = roundTripCharges({
      buyPremium: t.entryPremium,
      sellPremium: t.exitPremium,
      quantity: t.quantity,
    });
    expect(t.charges).toBe(charges.total);
    expect(t.netPnl).toBeCloseTo(t.grossPnl - t.charges, 6);
  }
}

describe('runBacktest', () => {
  it('enters a CALL at the executing tick with an ATM−1 CE of the weekly expiry and exits at the target', async () => {
    const result = await run(path(callTarget));
    expect(result.trades).toHaveLength(1);
    const trade = result.trades[0]!;
    expect(trade).toMatchObject({
      signalTime: at('09:23:00'),
      type: 'CALL',
      optionType: 'CE',
      strike: 23450,
      expiry: EXPIRY,
      symbol: 'NIFTY13JAN2623450CE',
      entryTime: at('09:23:00'),
      entryIndex: 23524,
      lots: 1,
      quantity: 65,
      exitReason: 'TARGET',
    });
    // The paper broker buys at the ask and sells at the bid of the quote at that tick.
    expect(trade.entryPremium).toBe(quoteOf(trade.symbol, 23524, at('09:23:00')).ask);
    const exitQuote = quoteOf(trade.symbol, trade.exitIndex, trade.exitTime);
    expect(trade.exitTrigger).toBe(exitQuote.ltp);
    expect(trade.exitPremium).toBe(exitQuote.bid);
    expect(trade.exitTrigger).toBeGreaterThanOrEqual(trade.entryPremium + 40);
    // The tick before the exit was still short of the target: the exit came at the first tick through it.
    const before = trade.exitTime - 15_000;
    const indexBefore = path(callTarget).find((t) => t.time === before)!.price;
    expect(quoteOf(trade.symbol, indexBefore, before).ltp).toBeLessThan(trade.entryPremium + 40);
    checkArithmetic(result);
    expect(result.metrics).toMatchObject({
      trades: 1,
      wins: 1,
      losses: 0,
      winRatePct: 100,
      profitFactor: null,
    });
  });

  it('holds one position at a time: a signal executing while a trade is open is not traded', async () => {
    const result = await run(path(callTarget));
    // The climbing 09:23 candle makes a fourth bullish candle in a row: a second CALL at 09:24 executes at once.
    const second = result.signals.find((s) => s.time === at('09:24:00'));
    expect(second).toMatchObject({ type: 'CALL', executed: true, traded: false });
    expect(result.signals[0]).toMatchObject({ time: at('09:23:00'), executed: true, traded: true });
    expect(result.trades).toHaveLength(1);
  });

  it('exits a PUT on its stop, at the premium the gap produced (below the stop)', async () => {
    const result = await run(path(putStop));
    expect(result.trades).toHaveLength(1);
    const trade = result.trades[0]!;
    expect(trade).toMatchObject({
      type: 'PUT',
      optionType: 'PE',
      strike: 23650,
      entryTime: at('11:03:00'),
      entryIndex: 23600,
      exitTime: at('11:04:00'),
      exitIndex: 23650,
      exitReason: 'STOP_LOSS',
    });
    expect(trade.exitPremium).toBe(quoteOf(trade.symbol, 23650, at('11:04:00')).bid);
    expect(trade.exitTrigger).toBeLessThan(trade.entryPremium - 20);
    expect(trade.netPnl).toBeLessThan(0);
    checkArithmetic(result);
    expect(result.metrics.exitReasons).toEqual({ STOP_LOSS: { trades: 1, netPnl: trade.netPnl } });
  });

  it('squares off at 15:15 IST at the last quote when no tick arrives at that instant', async () => {
    // A PUT at 14:53, then silence from 15:05 to 15:25: the virtual clock still closes the trade at 15:15:00, at
    // the last quote the feed published (15:05), as live trading would with a quiet feed.
    const ticks = path([
      ['14:40:00', 23600],
      ['14:50:00', 23600],
      ['14:53:00', 23576],
      ['15:05:00', 23580],
    ]).concat(
      path([
        ['15:25:00', 23700],
        ['15:29:45', 23700],
      ]),
    );
    const result = await run(ticks);
    expect(result.trades).toHaveLength(1);
    const trade = result.trades[0]!;
    expect(trade).toMatchObject({
      type: 'PUT',
      exitReason: 'SQUARE_OFF',
      exitTime: at('15:15:00'),
      exitIndex: 23580,
    });
    expect(trade.exitPremium).toBe(quoteOf(trade.symbol, 23580, at('15:05:00')).bid);
    checkArithmetic(result);
  });

  it('counts a losing streak and computes profit factor and expectancy over several trades', async () => {
    // Three PUT stop-outs (11:00, 12:00, 13:00 patterns at rising levels), then a CALL to the target.
    const shift = (anchors: typeof putStop, hours: number, points: number) =>
      anchors.map(
        ([t, p]) =>
          [`${String(Number(t.slice(0, 2)) + hours).padStart(2, '0')}${t.slice(2)}`, p + points] as const,
      );
    const ticks = [
      ...path(putStop.slice(1)),
      ...path(shift(putStop.slice(1), 1, 50)),
      ...path(shift(putStop.slice(1), 2, 100)),
      ...path(shift(callTarget, 5, 200)),
    ];
    const result = await run(ticks);
    expect(result.trades.map((t) => t.exitReason)).toEqual(['STOP_LOSS', 'STOP_LOSS', 'STOP_LOSS', 'TARGET']);
    checkArithmetic(result);
    const nets = result.trades.map((t) => t.netPnl);
    const losses = -(nets[0]! + nets[1]! + nets[2]!);
    const m = result.metrics;
    expect(m.longestLosingStreak).toBe(3);
    expect(m.wins).toBe(1);
    expect(m.losses).toBe(3);
    expect(m.winRatePct).toBe(25);
    expect(m.profitFactor).toBeCloseTo(nets[3]! / losses, 3);
    expect(m.expectancy).toBeCloseTo((nets[0]! + nets[1]! + nets[2]! + nets[3]!) / 4, 2);
    expect(m.maxDrawdown).toBeCloseTo(losses, 2);
    expect(m.netPnl).toBeCloseTo(m.grossPnl - m.charges, 2);
  });

  it('applies the spread and slippage: buys one tick above the ask and sells one tick below the bid', async () => {
    const result = await run(path(putStop), { fills: { halfSpread: 0.0025, slippageTicks: 1 } });
    const trade = result.trades[0]!;
    const spread = { halfSpread: 0.0025 };
    const entry = quoteOf(trade.symbol, 23600, at('11:03:00'), spread);
    const exit = quoteOf(trade.symbol, 23650, at('11:04:00'), spread);
    expect(trade.entryPremium).toBeCloseTo(entry.ask + 0.05, 9);
    expect(trade.exitTrigger).toBe(exit.ltp);
    expect(trade.exitPremium).toBeCloseTo(exit.bid - 0.05, 9);
  });

  it('closes candles at their end on the virtual clock, reports signals, and takes async input', async () => {
    async function* stream(): AsyncGenerator<Tick> {
      yield* path(callTarget);
    }
    const progress: number[] = [];
    const result = await run(stream(), { progressEvery: 100, onProgress: (p) => progress.push(p.ticks) });
    const ticks = path(callTarget);
    // 09:15 to 10:00 is 45 one-minute candles, plus the 10:00 candle of the last tick (closed at end of data).
    expect(result.candles.length).toBe(46);
    expect(result.candles.at(0)).toEqual({
      time: at('09:15:00'),
      open: 23500,
      high: 23500,
      low: 23500,
      close: 23500,
      volume: 0,
    });
    expect(result.candles.at(5)).toMatchObject({ time: at('09:20:00'), open: 23500, close: 23506 });
    expect(JSON.parse(JSON.stringify(result.candles))).toHaveLength(46);
    expect(result.stats).toMatchObject({
      ticks: ticks.length,
      ticksUsed: ticks.length,
      firstTickTime: at('09:15:00'),
    });
    expect(progress).toEqual([100, ticks.length]);
    expect(progress.at(-1)).toBe(ticks.length);
    expect(result.signals[0]).toMatchObject({
      time: at('09:23:00'),
      type: 'CALL',
      entryTrigger: 23524,
      niftyPrice: 23522,
    });
  });

  it('ignores ticks outside the session and never trades them', async () => {
    const pre = path([
      ['09:00:00', 23500],
      ['09:03:00', 23600],
      ['09:06:00', 23700],
    ]);
    const result = await run([...pre, ...path(callTarget)]);
    expect(result.stats.ticks).toBe(pre.length + path(callTarget).length);
    expect(result.stats.ticksUsed).toBe(path(callTarget).length);
    expect(result.trades).toHaveLength(1);
  });

  it('closes a position still open at the end of data as END_OF_DATA (always-open calendar, no square-off)', async () => {
    const ticks = path(callTarget.slice(0, 3)).concat(
      path([
        ['09:23:15', 23526],
        ['09:24:00', 23526],
      ]),
    );
    const result = await run(ticks, { calendar: alwaysOpenCalendar });
    expect(result.trades).toHaveLength(1);
    expect(result.trades[0]).toMatchObject({
      exitReason: 'END_OF_DATA',
      exitTime: at('09:24:00'),
      exitIndex: 23526,
    });
  });

  it('sizes trades by lots × the contract lot size, or by an explicit quantity', async () => {
    const lots = await run(path(putStop), { lots: 3 });
    expect(lots.trades[0]).toMatchObject({ lots: 3, quantity: 195 });
    const units = await run(path(putStop), { quantity: 130 });
    expect(units.trades[0]).toMatchObject({ lots: 2, quantity: 130 });
  });

  it('refuses ticks after finish and returns the same result twice', async () => {
    const backtester = new Backtester(base);
    for (const tick of path(putStop)) await backtester.push(tick);
    const first = await backtester.finish();
    expect(await backtester.finish()).toBe(first);
    expect(() => backtester.push({ time: at('12:00:00'), price: 1, volume: 0 })).toThrow(/finished/);
  });
});

/** A day of 5-second ticks from 09:15 to 15:30 on a seeded random walk with drift regimes, so trades happen. */
function randomDay(seed: number, date = DAY): Tick[] {
  let x = seed >>> 0 || 1;
  const rand = () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 4_294_967_296;
  };
  const ticks: Tick[] = [];
  let price = 23_500;
  let drift = 0;
  for (let t = at('09:15:00', date); t < at('15:30:00', date); t += 5000) {
    if (rand() < 1 / 24) drift = (Math.floor(rand() * 3) - 1) * 0.9;
    price += drift + (rand() - 0.5) * 5;
    ticks.push({ time: t, price: Math.round(price * 20) / 20, volume: 0 });
  }
  return ticks;
}

describe('risk exits match the risk state machine fed every tick', () => {
  it('for every trade, onPrice on each premium from entry gives the same exit (random days)', async () => {
    const reasons = new Set<string>();
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 2 ** 31 - 1 }), fc.boolean(), async (seed, trailing) => {
        const ticks = randomDay(seed);
        const result = await run(ticks, { fills: undefined, trailing });
        for (const trade of result.trades) {
          const squareOffAt = at('15:15:00');
          let state = createPositionRisk({
            entryPrice: trade.entryPremium,
            stopLoss: 20,
            target: 40,
            trailing,
            squareOffAt,
            entryTime: trade.entryTime,
          });
          let exit: PositionExit | undefined;
          let lastLtp = 0;
          for (const tick of ticks) {
            if (tick.time <= trade.entryTime) continue;
            // The square-off timer fires before the tick at its instant, at the last quote the feed published.
            const squaring = tick.time >= squareOffAt;
            const ltp = squaring
              ? lastLtp
              : quoteOf(trade.symbol, tick.price, tick.time, { halfSpread: 0.0025 }).ltp;
            ({ state, exit } = onPrice(state, ltp, squaring ? squareOffAt : tick.time));
            lastLtp = ltp;
            if (exit) break;
          }
          expect(exit).toBeDefined();
          expect({ reason: trade.exitReason, price: trade.exitTrigger, time: trade.exitTime }).toEqual(exit);
          reasons.add(trade.exitReason);
        }
      }),
      { numRuns: 12 },
    );
    // the random days exercise the rules that matter, not just one of them
    expect([...reasons]).toEqual(expect.arrayContaining(['STOP_LOSS', 'TARGET', 'TRAILING_STOP']));
    // Twelve whole days through the runtime: seconds of work on a loaded 2-core CI box, so a generous limit.
  }, 60_000);
});

describe('currentWeeklyExpiry', () => {
  it('buys the next week once the expiry day has closed, and shifts a Tuesday holiday to Monday', () => {
    expect(currentWeeklyExpiry(expiries, at('10:00:00', '2026-01-13'))).toBe('2026-01-13');
    expect(currentWeeklyExpiry(expiries, at('15:30:00', '2026-01-13'))).toBe('2026-01-20');
    // Tue 3 Mar 2026 is a holiday (Holi): that week's contract expires on Monday 2 Mar.
    expect(currentWeeklyExpiry(expiries, at('10:00:00', '2026-02-27'))).toBe('2026-03-02');
  });
});
