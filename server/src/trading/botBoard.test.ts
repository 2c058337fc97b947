// Bot status and stats: one rule with the fan-out (the directory's verdict), "not running" while the runtime is
// down, today's P&L with the open positions' mark, and pushes to the user's room only.
import type { Signal } from '@optionpilot/engine';
import { describe, expect, it } from 'vitest';
import { insertTrade, insertUser, saveTradingSettings } from '../db';
import { useTestDatabase } from '../db/testing';
import type { Realtime } from '../realtime/publisher';
import type { AccountDirectory } from './accounts';
import { createBotBoard } from './botBoard';
import { defaultControls } from './controls';

const NOW = Date.UTC(2026, 0, 7, 5, 0);

describe('bot board', () => {
  const db = useTestDatabase('sqlite');

  function setup(running: boolean, open = { paise: 12_345, count: 1 }) {
    const sent: Array<[number, string, unknown]> = [];
    const publisher = {
      toUser: (userId: number, event: string, payload: unknown) => sent.push([userId, event, payload]),
    } as unknown as Realtime;
    const directory = {
      verdict: () => ({ eligible: false, mode: 'paper', reason: 'Market closed' }),
      strategyOf: () => '1',
      eligible: (_: { signal: Signal }) => Promise.resolve([]),
    } as unknown as AccountDirectory;
    const board = createBotBoard({
      knex: db(),
      directory,
      publisher,
      controls: () => Promise.resolve(defaultControls('OPTIONPILOT')),
      running: () => running,
      engineNow: () => NOW,
      unrealisedPaise: () => open.paise,
      openTradeCount: () => open.count,
    });
    return { board, sent };
  }

  it("gives the directory's reason, or that the engine is down, and pushes only to the user's room", async () => {
    const user = await insertUser(db(), {
      email: 'a@example.com',
      first_name: 'A',
      last_name: 'B',
      password_hash: 'x',
    });
    const off = setup(true);
    expect(await off.board.botStatus(user.id)).toMatchObject({
      isRunning: false,
      reason: 'Bot switched off',
    });
    await saveTradingSettings(db(), user.id, { bot_enabled: true });
    expect(await off.board.botStatus(user.id)).toMatchObject({
      isRunning: false,
      enabled: true,
      globalTradingEnabled: true,
      reason: 'Market closed',
    });
    const down = setup(false);
    expect((await down.board.botStatus(user.id)).reason).toBe('Trading engine is not running');

    await off.board.userChanged(user.id);
    expect(off.sent.map(([id, event]) => [id, event])).toEqual([
      [user.id, 'user:stats'],
      [user.id, 'bot:status'],
    ]);
    expect(off.sent[1]?.[2]).toEqual({ isRunning: false, reason: 'Market closed' });
    // No closed trade yet: today's P&L is the open positions' mark.
    expect(off.sent[0]?.[2]).toMatchObject({ todayPnl: 123.45, todayRealisedPnl: 0, openPnl: 123.45 });
  });

  it('adds the live mark to realised P&L and pushes it as the mark moves, re-reading realised only on a trade change', async () => {
    const user = await insertUser(db(), {
      email: 'm@example.com',
      first_name: 'M',
      last_name: 'N',
      password_hash: 'x',
    });
    const closedAt = NOW - 60_000;
    const row = await insertTrade(db(), {
      user_id: user.id,
      signal_id: null,
      symbol: 'NIFTY13JAN2624000CE',
      instrument: 'NIFTY',
      trade_type: 'CALL',
      option_type: 'CE',
      strike_x100: 2_400_000,
      expiry_at: NOW + 6 * 3_600_000,
      lots: 1,
      quantity: 65,
      entry_price_paise: 10_000,
      stop_loss_paise: 8_000,
      target_paise: 14_000,
      paper: true,
      risk_state: null,
      opened_at: closedAt - 60_000,
    });
    await db()('trades')
      .where({ id: row.id })
      .update({ status: 'closed', exit_price_paise: 11_000, pnl_paise: 50_000, closed_at: closedAt });
    const open = { paise: 5_200, count: 1 };
    const { board, sent } = setup(true, open);
    expect(await board.statsFor(user.id)).toEqual({
      todayPnl: 552,
      todayRealisedPnl: 500,
      openPnl: 52,
      openTrades: 1,
      totalTrades: 1,
      winRate: 100,
      totalPnl: 552,
      totalRealisedPnl: 500,
    });

    // The mark moves: the push carries it, with the realised part as last read.
    open.paise = -1_000;
    await board.openPnlMoved(user.id);
    expect(sent.at(-1)).toEqual([
      user.id,
      'user:stats',
      expect.objectContaining({ todayPnl: 490, todayRealisedPnl: 500, openPnl: -10, totalPnl: 490 }),
    ]);

    // A trade closing (userChanged) re-reads the realised figures.
    await db()('trades').where({ user_id: user.id }).update({ pnl_paise: 70_000 });
    open.paise = 0;
    open.count = 0;
    await board.userChanged(user.id);
    expect(sent.filter(([, event]) => event === 'user:stats').at(-1)?.[2]).toMatchObject({
      todayPnl: 700,
      openPnl: 0,
      openTrades: 0,
      totalRealisedPnl: 700,
    });
  });
});
