import { describe, expect, it } from 'vitest';
import { computeMetrics } from './metrics';
import type { BacktestTrade, TradeExitReason } from './types';

let clock = 0;
function trade(grossPnl: number, charges: number, exitReason: TradeExitReason): BacktestTrade {
  clock += 60_000;
  return {
    signalTime: clock,
    type: 'CALL',
    optionType: 'CE',
    strike: 23_450,
    expiry: '2026-01-13',
    symbol: 'NIFTY13JAN2623450CE',
    entryTime: clock,
    exitTime: clock + 30_000,
    entryIndex: 23_500,
    exitIndex: 23_500,
    entryPremium: 100,
    exitPremium: 100 + grossPnl / 65,
    exitTrigger: 100 + grossPnl / 65,
    lots: 1,
    quantity: 65,
    grossPnl,
    charges,
    netPnl: Math.round((grossPnl - charges) * 100) / 100,
    exitReason,
  };
}

describe('computeMetrics', () => {
  it('computes win rate, P&L, profit factor, expectancy, drawdown and the losing streak by hand', () => {
    // nets: +2540, −1360, −660, +1140, −1060, 0 (a scratch), −260
    const trades = [
      trade(2600, 60, 'TARGET'),
      trade(-1300, 60, 'STOP_LOSS'),
      trade(-600, 60, 'STOP_LOSS'),
      trade(1200, 60, 'TRAILING_STOP'),
      trade(-1000, 60, 'STOP_LOSS'),
      trade(60, 60, 'SQUARE_OFF'),
      trade(-200, 60, 'SQUARE_OFF'),
    ];
    const m = computeMetrics(trades, 100_000);
    expect(m).toMatchObject({
      trades: 7,
      wins: 2,
      losses: 4,
      winRatePct: 28.57,
      grossPnl: 760,
      charges: 420,
      netPnl: 340,
      grossProfit: 3680,
      grossLoss: 3340,
      profitFactor: 1.102, // 3680 / 3340
      expectancy: 48.57, // 340 / 7
      averageWin: 1840,
      averageLoss: -835,
      largestWin: 2540,
      largestLoss: -1360,
      capital: 100_000,
      // equity 102540 (peak) → 101180 → 100520 → 101660 → 100600 → 100600 → 100340: 2200 below the peak (2.15%)
      maxDrawdown: 2200,
      maxDrawdownPct: 2.15,
      // −1360, −660 in a row; the scratch trade breaks the −1060 / −260 pair
      longestLosingStreak: 2,
    });
    expect(m.exitReasons).toEqual({
      TARGET: { trades: 1, netPnl: 2540 },
      STOP_LOSS: { trades: 3, netPnl: -3080 },
      TRAILING_STOP: { trades: 1, netPnl: 1140 },
      SQUARE_OFF: { trades: 2, netPnl: -260 },
    });
  });

  it('measures drawdown from the highest peak, not the start', () => {
    const m = computeMetrics(
      [
        trade(5060, 60, 'TARGET'),
        trade(-2940, 60, 'STOP_LOSS'),
        trade(1060, 60, 'TARGET'),
        trade(-3940, 60, 'STOP_LOSS'),
      ],
      50_000,
    );
    // equity 55000 (peak) → 52000 → 53000 → 49000: drawdown 6000 = 10.91% of 55000
    expect(m.maxDrawdown).toBe(6000);
    expect(m.maxDrawdownPct).toBe(10.91);
    expect(m.longestLosingStreak).toBe(1);
  });

  it('has no profit factor without a losing trade, and zeros without trades', () => {
    expect(computeMetrics([trade(1000, 60, 'TARGET')], 100_000).profitFactor).toBeNull();
    expect(computeMetrics([], 100_000)).toMatchObject({
      trades: 0,
      winRatePct: 0,
      netPnl: 0,
      profitFactor: null,
      expectancy: 0,
      maxDrawdown: 0,
      longestLosingStreak: 0,
      exitReasons: {},
    });
  });

  it('rejects a capital that is not positive', () => {
    expect(() => computeMetrics([], 0)).toThrow(RangeError);
  });
});
