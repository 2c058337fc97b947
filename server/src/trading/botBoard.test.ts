// Bot status and stats: one rule with the fan-out (the directory's verdict), "not running" while the runtime is
// down, today's P&L with the open positions' mark, and pushes to the user's room only.
import type { Signal } from '@optionpilot/engine';
import { describe, expect, it } from 'vitest';
import { insertUser, saveTradingSettings } from '../db';
import { useTestDatabase } from '../db/testing';
import type { Realtime } from '../realtime/publisher';
import type { AccountDirectory } from './accounts';
import { createBotBoard } from './botBoard';
import { defaultControls } from './controls';

const NOW = Date.UTC(2026, 0, 7, 5, 0);

describe('bot board', () => {
  const db = useTestDatabase('sqlite');

  function setup(running: boolean) {
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
      unrealisedPaise: () => 12_345,
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
    expect(off.sent[0]?.[2]).toMatchObject({ todayPnl: 123.45 });
  });
});
