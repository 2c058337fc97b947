// The backtest CLI's output: a single backtest's report (tables, or one JSON document) and a sweep's ranked sets
// (a table, JSON or CSV). Rupees in Indian formatting, times in IST.
import {
  DEFAULT_PREMIUM_MODEL,
  DEFAULT_SWEEP_SETTINGS,
  formatIst,
  variedSettings,
  type BacktestResult,
  type BacktestTrade,
  type SweepSettings,
} from '@optionpilot/engine';
import type { SweepOutcome } from '@optionpilot/engine/backtest/sweepPool';
import type { CliOptions, SweepCliOptions } from './cli';

const inr = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR' });
export const count = new Intl.NumberFormat('en-IN');
const premium = (value: number) => value.toFixed(2);

function table(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  rightAligned: readonly number[],
): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => (rightAligned.includes(i) ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)]
    .map((l) => `  ${l}`)
    .join('\n');
}

function pairs(rows: readonly (readonly [string, string])[]): string {
  const width = Math.max(...rows.map(([label]) => label.length));
  return rows.map(([label, value]) => `  ${label.padEnd(width)}  ${value}`).join('\n');
}

function tradeRow(trade: BacktestTrade, n: number): string[] {
  return [
    String(n),
    formatIst(trade.entryTime).replace(' IST', ''),
    formatIst(trade.exitTime).slice(11, 19),
    trade.symbol,
    String(trade.quantity),
    premium(trade.entryPremium),
    premium(trade.exitPremium),
    inr.format(trade.netPnl),
    trade.exitReason,
  ];
}

export function humanReport(result: BacktestResult, options: CliOptions): string {
  const { metrics: m, stats, trades, signals } = result;
  const p = options.params;
  const traded = signals.filter((s) => s.traded).length;
  const period =
    stats.firstTickTime === null || stats.lastTickTime === null
      ? 'no ticks'
      : `${formatIst(stats.firstTickTime)} → ${formatIst(stats.lastTickTime)}`;
  const spreadPct = DEFAULT_PREMIUM_MODEL.halfSpread * 100;
  const out: string[] = [
    `OptionPilot backtest — ${options.input}`,
    '',
    pairs([
      ['period', period],
      ['ticks', `${count.format(stats.ticks)} read, ${count.format(stats.ticksUsed)} in session`],
      ['candles', `${count.format(result.candles.length)} × ${p.interval}m`],
      [
        'strategy',
        `N ${p.consecutiveCandles}, M ${p.minMovement} pts, E ${p.entryOffset} pts, SL ${p.stopLoss}, target ${p.target}, session ${options.session}`,
      ],
      [
        'premiums',
        `Black–Scholes, IV ${(options.iv * 100).toFixed(1)}%, r ${DEFAULT_PREMIUM_MODEL.riskFreeRate * 100}%, half-spread ${spreadPct}% (≥ ₹0.05), slippage ${DEFAULT_PREMIUM_MODEL.slippageTicks} tick`,
      ],
      ['size', `${options.lots} lot${options.lots === 1 ? '' : 's'} a trade`],
      [
        'signals',
        `${count.format(stats.signals)} (${count.format(stats.signalsExecuted)} executed, ${count.format(traded)} traded)`,
      ],
    ]),
    '',
    table(
      ['metric', 'value'],
      [
        ['trades', count.format(m.trades)],
        ['win rate', `${m.winRatePct.toFixed(2)}% (${m.wins} won, ${m.losses} lost)`],
        ['gross P&L', inr.format(m.grossPnl)],
        ['charges', inr.format(m.charges)],
        ['net P&L', inr.format(m.netPnl)],
        ['profit factor', m.profitFactor === null ? '— (no losing trade)' : m.profitFactor.toFixed(2)],
        ['expectancy (net / trade)', inr.format(m.expectancy)],
        ['average win / loss', `${inr.format(m.averageWin)} / ${inr.format(m.averageLoss)}`],
        ['largest win / loss', `${inr.format(m.largestWin)} / ${inr.format(m.largestLoss)}`],
        [
          'max drawdown',
          `${inr.format(m.maxDrawdown)} (${m.maxDrawdownPct.toFixed(2)}% of peak; capital ${inr.format(m.capital)})`,
        ],
        ['longest losing streak', `${m.longestLosingStreak} trade${m.longestLosingStreak === 1 ? '' : 's'}`],
      ],
      [],
    ),
    '',
  ];
  const reasons = Object.entries(m.exitReasons);
  out.push(
    reasons.length === 0
      ? '  no trades, no exits'
      : table(
          ['exit reason', 'trades', 'net P&L'],
          reasons.map(([reason, s]) => [reason, count.format(s.trades), inr.format(s.netPnl)]),
          [1, 2],
        ),
  );
  if (trades.length > 0) {
    const shown = 20;
    const first = Math.max(0, trades.length - shown);
    out.push(
      '',
      `  trades${trades.length > shown ? ` (last ${shown} of ${count.format(trades.length)})` : ''}, times IST`,
      table(
        ['#', 'entry', 'exit', 'symbol', 'qty', 'buy', 'sell', 'net P&L', 'reason'],
        trades.slice(first).map((t, i) => tradeRow(t, first + i + 1)),
        [0, 4, 5, 6, 7],
      ),
    );
  }
  return `${out.join('\n')}\n`;
}

export function jsonReport(result: BacktestResult): string {
  const { stats } = result;
  return JSON.stringify({
    candles: result.candles,
    signals: result.signals.map((s) => ({
      time: s.time,
      type: s.type,
      entryTrigger: s.entryTrigger,
      niftyPrice: s.niftyPrice,
      executed: s.executed,
    })),
    trades: result.trades,
    metrics: {
      ...result.metrics,
      ticks: stats.ticks,
      ticksUsed: stats.ticksUsed,
      candleCount: result.candles.length,
      signalCount: stats.signals,
      signalsExecuted: stats.signalsExecuted,
      from: stats.firstTickTime,
      to: stats.lastTickTime,
    },
  });
}

type RankedSet = SweepOutcome['results'][number] & { readonly rank: number };

/** Best net P&L first; ties keep the grid's order. */
function ranked(outcome: SweepOutcome): RankedSet[] {
  return [...outcome.results]
    .sort(
      (a, b) => b.figures.metrics.netPnl - a.figures.metrics.netPnl || Number(a.set.id) - Number(b.set.id),
    )
    .map((result, i) => ({ ...result, rank: i + 1 }));
}

const SETTING_LABELS: Readonly<Record<keyof SweepSettings, string>> = {
  interval: 'interval',
  consecutiveCandles: 'N',
  minMovement: 'M',
  entryOffset: 'E',
  stopLoss: 'SL',
  target: 'target',
  lots: 'lots',
  trailing: 'trailing',
  targetMode: 'target mode',
  iv: 'IV %',
  session: 'session',
  capital: 'capital',
};

function settingText(key: keyof SweepSettings, value: SweepSettings[keyof SweepSettings]): string {
  if (key === 'interval') return `${String(value)}m`;
  if (key === 'trailing') return value === true ? 'on' : 'off';
  if (key === 'capital') return inr.format(value as number);
  return String(value);
}

export function sweepTable(outcome: SweepOutcome, options: SweepCliOptions, seconds: number): string {
  const rows = ranked(outcome);
  const varied = variedSettings(options.sets);
  const first = options.sets[0]?.settings ?? DEFAULT_SWEEP_SETTINGS;
  const fixed = (Object.keys(SETTING_LABELS) as (keyof SweepSettings)[]).filter((k) => !varied.includes(k));
  const stats = rows[0]?.figures.stats;
  const period =
    stats === undefined || stats.firstTickTime === null || stats.lastTickTime === null
      ? 'no ticks'
      : `${formatIst(stats.firstTickTime)} → ${formatIst(stats.lastTickTime)}`;
  const out = [
    `OptionPilot sweep — ${options.sweep} over ${options.sourceName}`,
    '',
    pairs([
      ['period', period],
      [
        'ticks',
        stats === undefined
          ? '0'
          : `${count.format(stats.ticks)} read, ${count.format(stats.ticksUsed)} in session`,
      ],
      [
        'sets',
        `${count.format(rows.length)} in ${outcome.passes} pass${outcome.passes === 1 ? '' : 'es'} on ${outcome.workers} worker thread${outcome.workers === 1 ? '' : 's'}, ${seconds.toFixed(1)} s`,
      ],
      ['every set', fixed.map((k) => `${SETTING_LABELS[k]} ${settingText(k, first[k])}`).join(', ')],
    ]),
    '',
    table(
      [
        'rank',
        'set',
        ...varied.map((k) => SETTING_LABELS[k]),
        'trades',
        'win rate',
        'net P&L',
        'max drawdown',
      ],
      rows.map(({ rank, set, figures: { metrics: m } }) => [
        String(rank),
        set.id,
        ...varied.map((k) => settingText(k, set.settings[k])),
        count.format(m.trades),
        `${m.winRatePct.toFixed(2)}%`,
        inr.format(m.netPnl),
        `${inr.format(m.maxDrawdown)} (${m.maxDrawdownPct.toFixed(2)}%)`,
      ]),
      [
        0,
        1,
        ...varied.map((_, i) => i + 2),
        varied.length + 2,
        varied.length + 3,
        varied.length + 4,
        varied.length + 5,
      ],
    ),
    '',
    '  net P&L after charges; each set traded alone gives the same figures (npm run backtest -- --input …)',
  ];
  return `${out.join('\n')}\n`;
}

export function sweepJson(outcome: SweepOutcome, options: SweepCliOptions): string {
  const rows = ranked(outcome);
  const stats = rows[0]?.figures.stats;
  return JSON.stringify({
    grid: options.sweep,
    source: options.source,
    from: stats?.firstTickTime ?? null,
    to: stats?.lastTickTime ?? null,
    ticks: stats?.ticks ?? 0,
    ticksUsed: stats?.ticksUsed ?? 0,
    passes: outcome.passes,
    workers: outcome.workers,
    sets: rows.map(({ rank, set, figures: { metrics, stats: s } }) => ({
      rank,
      id: set.id,
      settings: set.settings,
      metrics,
      signals: s.signals,
      signalsExecuted: s.signalsExecuted,
    })),
  });
}

const CSV_METRICS = [
  'trades',
  'wins',
  'losses',
  'winRatePct',
  'grossPnl',
  'charges',
  'netPnl',
  'profitFactor',
  'expectancy',
  'maxDrawdown',
  'maxDrawdownPct',
  'longestLosingStreak',
] as const;

export function sweepCsv(outcome: SweepOutcome): string {
  const keys = Object.keys(DEFAULT_SWEEP_SETTINGS) as (keyof SweepSettings)[];
  const lines = [['rank', 'set', ...keys, ...CSV_METRICS, 'signals', 'signalsExecuted'].join(',')];
  for (const { rank, set, figures } of ranked(outcome)) {
    const { metrics: m, stats } = figures;
    lines.push(
      [
        rank,
        set.id,
        ...keys.map((k) => set.settings[k]),
        ...CSV_METRICS.map((k) => m[k] ?? ''),
        stats.signals,
        stats.signalsExecuted,
      ].join(','),
    );
  }
  return `${lines.join('\n')}\n`;
}
