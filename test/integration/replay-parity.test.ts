// One kernel for backtest and live: the same tick file through the backtest CLI and through a live server with
// FEED=replay: gives the same signals, entries, exits and P&L to the paisa. The server runs the real replay feed
// (on a virtual clock, so the test is quick and exact), the real SQLite store and the paper broker; the CLI runs
// as `npm run backtest` does.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
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
  executed: boolean;
  traded: boolean;
}

function backtestJson(): Promise<{ trades: CliTrade[]; signals: CliSignal[] }> {
  return new Promise((done, fail) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'scripts/backtest.ts', '--input', FILE, '--json'],
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
let server: RunningServer | undefined;

afterAll(async () => {
  await server?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('backtest CLI and live FEED=replay: on one file', () => {
  it('give the same signals, entries, exits and P&L to the paisa', async () => {
    const cli = await backtestJson();
    expect(cli.trades.length).toBeGreaterThanOrEqual(2);

    const dir = mkdtempSync(join(tmpdir(), 'optionpilot-parity-'));
    dirs.push(dir);
    const config = loadConfig({
      NODE_ENV: 'test',
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dir,
      WEB_DIST_DIR: join(dir, 'no-web-build'),
      LOG_LEVEL: 'silent',
      FEED: `replay:${FILE}`,
      SIM_SESSION: 'market',
    });
    const time = new VirtualTime(FIRST - 60_000);
    server = await startServer(config, {
      logger: createLogger({ level: 'silent' }),
      trading: { scheduler: time.scheduler },
    });
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
    // The backtest trades one lot at the strategy's target with no daily loss limit: the same here.
    await saveTradingSettings(knex, user.id, { bot_enabled: true, target_points: 40, trade_quantity: 1 });
    await saveUserSettings(knex, user.id, { max_daily_loss_paise: 1_000_000_000 });

    // Play the day second by second, letting every write and fill settle as a live process would between ticks.
    for (let t = time.now(); t <= LAST + 60_000; t += 1_000) {
      await time.advance(1_000);
      await server.deps.trading.idle();
    }

    const signals = (await listSignals(knex)).sort((a, b) => a.signal_at - b.signal_at);
    expect(signals.map((s) => ({ time: s.signal_at, type: s.type, executed: s.executed }))).toEqual(
      cli.signals.map((s) => ({ time: s.time, type: s.type, executed: s.executed })),
    );

    const live = (await listTrades(knex, { userId: user.id })).sort((a, b) => a.opened_at - b.opened_at);
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
  });
});
