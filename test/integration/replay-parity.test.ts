// One kernel for backtest and live: the same tick file through the backtest CLI and through a live server with
// FEED=replay: gives the same signals, entries, exits and P&L to the paisa. The server runs the real replay feed,
// the real SQLite store and the paper broker; the CLI runs as `npm run backtest` does. Once paced by a virtual
// clock (quick and exact), and on a two-day file with out-of-order rows at 5,000× and 10,000× real time on the
// real clock: the speed only paces the replay, it never changes what it delivers.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { SchedulerLike } from 'rxjs';
import { afterAll, describe, expect, it } from 'vitest';
import { VirtualTime } from '@optionpilot/engine/execution/virtualTime';
import { startServer, type RunningServer } from '@optionpilot/server/app';
import { loadConfig } from '@optionpilot/server/config';
import { createLogger } from '@optionpilot/server/logger';
import {
  insertUser,
  listSignals,
  listTrades,
  saveTradingSettings,
  saveUserSettings,
  updateUser,
} from '@optionpilot/server/db/index';

const ROOT = resolve(import.meta.dirname, '../..');
const FILE = resolve(ROOT, 'test/fixtures/backtest/ticks.csv');
// The file's first print is 09:15:00 IST on Wed 7 Jan 2026; it ends at 15:30.
const FIRST = Date.parse('2026-01-07T09:15:00+05:30');
const LAST = Date.parse('2026-01-07T15:30:00+05:30');
// 14:00–15:20 IST on Wed 7 Jan 2026 and 09:15–10:15 on Thu 8 Jan, with four rows earlier than the row before.
const TWO_DAYS = resolve(ROOT, 'test/fixtures/backtest/two-days.csv');
const TWO_DAYS_LAST = Date.parse('2026-01-08T10:15:00+05:30');

interface CliTrade {
  signalTime: number;
  type: string;
  symbol: string;
  entryTime: number;
  exitTime: number;
  entryPremium: number;
  exitPremium: number;
  quantity: number;
  charges: number;
  netPnl: number;
  exitReason: string;
}

interface CliSignal {
  time: number;
  type: string;
  entryTrigger: number;
  executed: boolean;
  traded: boolean;
}

interface CliReport {
  trades: CliTrade[];
  signals: CliSignal[];
}

function backtestJson(file: string): Promise<CliReport> {
  return new Promise((done, fail) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'scripts/backtest.ts', '--input', file, '--json'],
      {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    child.on('error', fail);
    child.on('close', (code) =>
      code === 0 ? done(JSON.parse(out)) : fail(new Error(`backtest exit ${code}: ${err}`)),
    );
  });
}

const paise = (rupees: number) => Math.round(rupees * 100);
const dirs: string[] = [];
const servers: RunningServer[] = [];

afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Starts a server replaying `file` at `speed` paced by `pace` (default the real clock) on the data in `dir`. */
async function replayServer(
  file: string,
  dir: string,
  speed: number,
  pace?: SchedulerLike,
): Promise<RunningServer> {
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dir,
    WEB_DIST_DIR: join(dir, 'no-web-build'),
    LOG_LEVEL: 'silent',
    FEED: `replay:${file}`,
    SIM_SESSION: 'market',
    SIM_SPEED: String(speed),
  });
  const server = await startServer(config, {
    logger: createLogger({ level: 'silent' }),
    ...(pace === undefined ? {} : { trading: { scheduler: pace } }),
  });
  servers.push(server);
  return server;
}

/** A subscriber with the bot on, trading one lot at the strategy's target with no daily loss limit, as the CLI. */
async function addTrader(server: RunningServer): Promise<number> {
  const knex = server.deps.db.knex;
  const user = await insertUser(knex, {
    email: 'parity@example.com',
    first_name: 'Parity',
    last_name: 'Test',
    password_hash: 'not-a-real-hash',
  });
  await updateUser(knex, user.id, {
    subscription_status: 'active',
    subscription_start_at: Date.now() - 86_400_000,
    subscription_end_at: Date.UTC(2099, 0, 1),
  });
  await saveTradingSettings(knex, user.id, { bot_enabled: true, target_points: 40, trade_quantity: 1 });
  await saveUserSettings(knex, user.id, { max_daily_loss_paise: 1_000_000_000 });
  return user.id;
}

async function expectSameAsBacktest(server: RunningServer, userId: number, cli: CliReport): Promise<void> {
  const knex = server.deps.db.knex;
  const signals = (await listSignals(knex)).sort((a, b) => a.signal_at - b.signal_at);
  expect(
    signals.map((s) => ({
      time: s.signal_at,
      type: s.type,
      trigger: s.entry_trigger_x100,
      executed: s.executed,
    })),
  ).toEqual(
    cli.signals.map((s) => ({
      time: s.time,
      type: s.type,
      trigger: paise(s.entryTrigger),
      executed: s.executed,
    })),
  );

  const live = (await listTrades(knex, { userId })).sort((a, b) => a.opened_at - b.opened_at);
  expect(live.map((t) => t.status)).toEqual(cli.trades.map(() => 'closed'));
  expect(
    live.map((t) => ({
      symbol: t.symbol,
      type: t.trade_type,
      entryTime: t.opened_at,
      exitTime: t.closed_at,
      entry: t.entry_price_paise,
      exit: t.exit_price_paise,
      quantity: t.quantity,
      charges: t.charges_paise,
      net: t.pnl_paise,
      reason: t.exit_reason,
    })),
  ).toEqual(
    cli.trades.map((t) => ({
      symbol: t.symbol,
      type: t.type,
      entryTime: t.entryTime,
      exitTime: t.exitTime,
      entry: paise(t.entryPremium),
      exit: paise(t.exitPremium),
      quantity: t.quantity,
      charges: paise(t.charges),
      net: paise(t.netPnl),
      reason: t.exitReason.toLowerCase(),
    })),
  );
}

describe('backtest CLI and live FEED=replay: on one file', () => {
  it('give the same signals, entries, exits and P&L to the paisa', async () => {
    const cli = await backtestJson(FILE);
    expect(cli.trades.length).toBeGreaterThanOrEqual(2);

    const dir = mkdtempSync(join(tmpdir(), 'optionpilot-parity-'));
    dirs.push(dir);
    const time = new VirtualTime(FIRST - 60_000);
    const server = await replayServer(FILE, dir, 1, time.scheduler);
    const userId = await addTrader(server);

    // Play the day second by second, letting every write and fill settle as a live process would between ticks.
    for (let t = time.now(); t <= LAST + 60_000; t += 1_000) {
      await time.advance(1_000);
      await server.deps.trading.idle();
    }
    await expectSameAsBacktest(server, userId, cli);
  });
});

describe('live FEED=replay: at 5,000× and 10,000× on two days with out-of-order rows', () => {
  /** A server that replays the two days at `speed` on the real clock, for a trader added before it starts. */
  async function replayAtSpeed(speed: number): Promise<{ server: RunningServer; userId: number }> {
    const dir = mkdtempSync(join(tmpdir(), 'optionpilot-parity-fast-'));
    dirs.push(dir);
    // The trader is added while the replay's pace clock stands still; then the server restarts on the real clock.
    const paused = await replayServer(TWO_DAYS, dir, speed, new VirtualTime(0).scheduler);
    const userId = await addTrader(paused);
    await paused.close();
    servers.splice(servers.indexOf(paused), 1);
    const server = await replayServer(TWO_DAYS, dir, speed);
    // The last tick is at 10:15 on day 2; its minute's candle closes at 10:16 on the replay's own clock.
    const until = Date.now() + 90_000;
    while (server.deps.trading.marketNow() < TWO_DAYS_LAST + 60_000) {
      if (Date.now() > until) throw new Error(`the ${speed}× replay did not reach its end in 90 s`);
      await new Promise((done) => setTimeout(done, 50));
    }
    await server.deps.trading.idle();
    return { server, userId };
  }

  it('gives the backtest CLI’s signals (time, type, trigger) and trades to the paisa at both speeds', async () => {
    const [cli, fast, faster] = await Promise.all([
      backtestJson(TWO_DAYS),
      replayAtSpeed(5_000),
      replayAtSpeed(10_000),
    ]);
    // Both days trade (a square-off on the first, a target on the second), and the dropped rows mattered: taken,
    // they would have stopped out the second day's CALL at 09:24:50.
    expect(new Set(cli.trades.map((t) => new Date(t.entryTime).toISOString().slice(0, 10)))).toEqual(
      new Set(['2026-01-07', '2026-01-08']),
    );
    expect(cli.trades.map((t) => t.exitReason)).toEqual(['SQUARE_OFF', 'TARGET']);
    expect(cli.signals.length).toBeGreaterThanOrEqual(5);
    await expectSameAsBacktest(fast.server, fast.userId, cli);
    await expectSameAsBacktest(faster.server, faster.userId, cli);
  });
});
