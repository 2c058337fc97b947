import { DEFAULT_STRATEGY_PARAMS, type Signal } from '@optionpilot/engine';
import { describe, expect, it } from 'vitest';
import { createManualClock } from '../clock';
import {
  insertTrade,
  insertUser,
  saveTradingSettings,
  saveUserSettings,
  updateUser,
  type Dialect,
} from '../db';
import { testDialects, useTestDatabase } from '../db/testing';
import { createAccountDirectory } from './accounts';
import { defaultControls, type StrategySet } from './controls';
import { createMarketContext } from './market';

const NOW = Date.UTC(2026, 0, 7, 5, 0); // 10:30 IST, a Wednesday
const signal = { type: 'CALL', executedAt: NOW } as unknown as Signal;

describe.each(testDialects())('accounts directory (%s)', (dialect: Dialect) => {
  const db = useTestDatabase(dialect);
  let set: StrategySet = {
    controls: defaultControls('OPTIONPILOT'),
    strategies: [
      { id: '1', name: 'default', kind: 'consecutive_breakout', params: DEFAULT_STRATEGY_PARAMS },
      {
        id: '9',
        name: 'puts',
        kind: 'consecutive_breakout',
        params: { ...DEFAULT_STRATEGY_PARAMS, callEnabled: false },
      },
    ],
    defaultId: '1',
  };

  const liveKeys = new Map<number, string>();
  let liveMarket = true;
  const directory = () =>
    createAccountDirectory({
      liveSession: (userId) => {
        const key = liveKeys.get(userId);
        return key === undefined ? undefined : { key };
      },
      liveMarket: () => liveMarket,
      db: { knex: db(), dialect },
      config: { simSession: 'always' },
      clock: createManualClock(NOW),
      market: () => createMarketContext({ mode: 'always', now: NOW }),
      strategySet: () => set,
      runtime: () => undefined,
    });

  async function trader(name: string, options: { bot?: boolean; active?: boolean; strategy?: number } = {}) {
    const user = await insertUser(db(), {
      email: `${name}-${dialect}@example.com`,
      first_name: name,
      last_name: 'T',
      password_hash: 'x',
    });
    if (options.active !== false) {
      await updateUser(db(), user.id, {
        subscription_status: 'active',
        subscription_start_at: NOW - 86_400_000,
        subscription_end_at: NOW + 86_400_000,
      });
    }
    await saveTradingSettings(db(), user.id, {
      bot_enabled: options.bot ?? true,
      trade_quantity: 2,
      target_points: 25,
      strategy_id: options.strategy ?? null,
    });
    return user.id;
  }

  it('returns every eligible follower of the strategy with its lots, target and loss limit, in one read', async () => {
    const ok = await trader('ok');
    await trader('botoff', { bot: false });
    await trader('unpaid', { active: false });
    const follower = await trader('puts', { strategy: 9 });
    const locked = await trader('locked');
    await saveUserSettings(db(), locked, { max_daily_loss_paise: 100_000 });
    const loss = await insertTrade(db(), {
      user_id: locked,
      signal_id: null,
      symbol: 'NIFTY13JAN2623450CE',
      instrument: 'NIFTY',
      trade_type: 'CALL',
      option_type: 'CE',
      strike_x100: 2_345_000,
      expiry_at: NOW + 86_400_000,
      lots: 1,
      quantity: 65,
      entry_price_paise: 10_000,
      stop_loss_paise: 8_000,
      target_paise: 14_000,
      paper: true,
      risk_state: null,
      opened_at: NOW - 3_600_000,
    });
    await db()('trades')
      .where({ id: loss.id })
      .update({ status: 'closed', pnl_paise: -150_000, closed_at: NOW - 60_000 });

    const accounts = await directory().eligible({ strategyId: '1', signal, time: NOW });
    expect(accounts).toEqual([
      {
        accountId: String(ok),
        lots: 2,
        targetPoints: 25,
        maxDailyLoss: 5_000,
        paper: true,
        brokerKey: 'paper',
      },
    ]);
    // The PUT-only strategy takes no CALL; its follower is nobody else's.
    expect(await directory().eligible({ strategyId: '9', signal, time: NOW })).toEqual([]);
    const put = { ...signal, type: 'PUT' } as Signal;
    expect(
      (await directory().eligible({ strategyId: '9', signal: put, time: NOW })).map((a) => a.accountId),
    ).toEqual([String(follower)]);
  });

  it('trades a Live trader live through their session while it is valid, else on paper', async () => {
    const id = await trader('live');
    await saveTradingSettings(db(), id, { mode: 'live' });
    const mine = async () =>
      (await directory().eligible({ strategyId: '1', signal, time: NOW })).find(
        (a) => a.accountId === String(id),
      );
    expect(await mine()).toMatchObject({ paper: true, brokerKey: 'paper' });
    liveKeys.set(id, 'zerodha:AB1234:1:2');
    expect(await mine()).toMatchObject({ paper: false, brokerKey: 'zerodha:AB1234:1:2' });
    // On a simulated or replayed market nobody's order is real.
    liveMarket = false;
    expect(await mine()).toMatchObject({ paper: true, brokerKey: 'paper' });
    liveMarket = true;
    // A paper trader with a valid session stays on paper.
    await saveTradingSettings(db(), id, { mode: 'paper' });
    expect(await mine()).toMatchObject({ paper: true, brokerKey: 'paper' });
    liveKeys.delete(id);
  });

  it('says why a user is not traded: paused by an admin', async () => {
    const id = await trader('paused');
    set = {
      ...set,
      controls: { ...set.controls, params: { ...set.controls.params, tradingEnabled: false } },
    };
    const [candidate] = await import('../db').then((m) => m.listTradingCandidates(db(), [id]));
    expect(directory().verdict(candidate!, NOW)).toMatchObject({
      eligible: false,
      reason: 'Trading paused by admin',
    });
  });
});
