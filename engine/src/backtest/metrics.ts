import { roundToPaisa } from '../money';
import type { BacktestTrade, TradeExitReason } from './types';

/** One exit reason's share of the trades. */
export interface ExitReasonStats {
  readonly trades: number;
  readonly netPnl: number;
}

/** Trade statistics of a backtest. Money in rupees, rounded to the paisa. */
export interface BacktestMetrics {
  readonly trades: number;
  /** trades with net P&L > 0 */
  readonly wins: number;
  /** trades with net P&L < 0 (a trade at exactly 0 is neither) */
  readonly losses: number;
  /** wins / trades × 100; 0 with no trades */
  readonly winRatePct: number;
  /** Σ (exit − entry premium) × quantity, before charges */
  readonly grossPnl: number;
  readonly charges: number;
  /** grossPnl − charges */
  readonly netPnl: number;
  /** Σ net P&L of the winning trades */
  readonly grossProfit: number;
  /** Σ |net P&L| of the losing trades (a positive number) */
  readonly grossLoss: number;
  /** grossProfit / grossLoss on net P&L; null when there is no losing trade (it would be infinite or undefined) */
  readonly profitFactor: number | null;
  /** average net P&L per trade: netPnl / trades; 0 with no trades */
  readonly expectancy: number;
  readonly averageWin: number;
  /** average net P&L of the losing trades (a negative number); 0 with none */
  readonly averageLoss: number;
  readonly largestWin: number;
  readonly largestLoss: number;
  /** the notional capital the equity curve starts from */
  readonly capital: number;
  /** largest fall of net equity (capital + cumulative net P&L after each trade) from a previous peak, rupees */
  readonly maxDrawdown: number;
  /** that fall as a percentage of the peak it fell from */
  readonly maxDrawdownPct: number;
  /** most losing trades in a row */
  readonly longestLosingStreak: number;
  /** trade count and net P&L per exit reason, for the reasons that occurred */
  readonly exitReasons: Readonly<Partial<Record<TradeExitReason, ExitReasonStats>>>;
}

/** Trade statistics of closed trades in time order; `capital` is the notional the drawdown percentage refers to. */
export function computeMetrics(trades: readonly BacktestTrade[], capital: number): BacktestMetrics {
  if (!(capital > 0)) throw new RangeError(`capital must be positive, got ${capital}`);
  let grossPnl = 0;
  let charges = 0;
  let wins = 0;
  let losses = 0;
  let grossProfit = 0;
  let grossLoss = 0;
  let largestWin = 0;
  let largestLoss = 0;
  let streak = 0;
  let longestLosingStreak = 0;
  // Equity moves only when a trade is realised; drawdown is measured on that closed-trade curve.
  let equity = capital;
  let peak = capital;
  let maxDrawdown = 0;
  let maxDrawdownPct = 0;
  const exitReasons: Partial<Record<TradeExitReason, { trades: number; netPnl: number }>> = {};

  for (const trade of trades) {
    const net = trade.netPnl;
    grossPnl += trade.grossPnl;
    charges += trade.charges;
    if (net > 0) {
      wins += 1;
      grossProfit += net;
      largestWin = Math.max(largestWin, net);
      streak = 0;
    } else if (net < 0) {
      losses += 1;
      grossLoss -= net;
      largestLoss = Math.min(largestLoss, net);
      streak += 1;
      longestLosingStreak = Math.max(longestLosingStreak, streak);
    } else {
      streak = 0;
    }
    equity += net;
    if (equity > peak) peak = equity;
    const drawdown = peak - equity;
    if (drawdown > maxDrawdown) {
      maxDrawdown = drawdown;
      maxDrawdownPct = (drawdown / peak) * 100;
    }
    const reason = (exitReasons[trade.exitReason] ??= { trades: 0, netPnl: 0 });
    reason.trades += 1;
    reason.netPnl += net;
  }

  const count = trades.length;
  const netPnl = roundToPaisa(grossPnl - charges);
  const rounded: Partial<Record<TradeExitReason, ExitReasonStats>> = {};
  for (const [reason, stats] of Object.entries(exitReasons) as [TradeExitReason, ExitReasonStats][]) {
    rounded[reason] = { trades: stats.trades, netPnl: roundToPaisa(stats.netPnl) };
  }
  return {
    trades: count,
    wins,
    losses,
    winRatePct: count === 0 ? 0 : Math.round((wins / count) * 10_000) / 100,
    grossPnl: roundToPaisa(grossPnl),
    charges: roundToPaisa(charges),
    netPnl,
    grossProfit: roundToPaisa(grossProfit),
    grossLoss: roundToPaisa(grossLoss),
    profitFactor: grossLoss > 0 ? Math.round((grossProfit / grossLoss) * 1000) / 1000 : null,
    expectancy: count === 0 ? 0 : roundToPaisa(netPnl / count),
    averageWin: wins === 0 ? 0 : roundToPaisa(grossProfit / wins),
    averageLoss: losses === 0 ? 0 : roundToPaisa(-grossLoss / losses),
    largestWin: roundToPaisa(largestWin),
    largestLoss: roundToPaisa(largestLoss),
    capital,
    maxDrawdown: roundToPaisa(maxDrawdown),
    maxDrawdownPct: Math.round(maxDrawdownPct * 100) / 100,
    longestLosingStreak,
    exitReasons: rounded,
  };
}
