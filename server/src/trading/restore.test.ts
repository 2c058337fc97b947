import { createPositionRisk } from '@optionpilot/engine';
import { describe, expect, it } from 'vitest';
import {
  insertOrder,
  insertTrade,
  insertUser,
  saveTradingSettings,
  saveUserSettings,
  type Dialect,
} from '../db';
import { testDialects, useTestDatabase } from '../db/testing';
import { loadRestored } from './restore';

const NOW = Date.UTC(2026, 0, 7, 6, 0);

describe.each(testDialects())('loadRestored (%s)', (dialect: Dialect) => {
  const db = useTestDatabase(dialect);

  it('resumes an open trade with its stop, the next exit sequence and the account’s realised day', async () => {
    const user = await insertUser(db(), {
      email: `r-${dialect}@example.com`,
      first_name: 'R',
      last_name: 'S',
      password_hash: 'x',
    });
    await saveTradingSettings(db(), user.id, { bot_enabled: true });
    await saveUserSettings(db(), user.id, { max_daily_loss_paise: 200_000 });
    const base = {
      user_id: user.id,
      signal_id: null,
      symbol: 'NIFTY13JAN2624000CE',
      instrument: 'NIFTY',
      trade_type: 'CALL' as const,
      option_type: 'CE' as const,
      strike_x100: 2_400_000,
      expiry_at: NOW + 86_400_000,
      lots: 1,
      quantity: 65,
      entry_price_paise: 10_000,
      stop_loss_paise: 10_500,
      target_paise: 14_000,
      paper: true,
    };
    const loss = await insertTrade(db(), { ...base, risk_state: null, opened_at: NOW - 7_200_000 });
    await db()('trades')
      .where({ id: loss.id })
      .update({ status: 'closed', pnl_paise: -250_000, closed_at: NOW - 3_600_000 });
    const risk = {
      ...createPositionRisk({ entryPrice: 100, stopLoss: 20, target: 40, entryTime: NOW - 600_000 }),
      stopPrice: 105,
      highWater: 125,
    };
    const open = await insertTrade(db(), {
      ...base,
      risk_state: JSON.stringify(risk),
      opened_at: NOW - 600_000,
    });
    // Two exits tried and refused, and the position's third resting stop: only exits count for the next exit.
    for (const [n, purpose] of [
      [1, 'exit'],
      [2, 'exit'],
      [3, 'stop'],
    ] as const) {
      await insertOrder(db(), {
        client_order_id: `EX${n}-${dialect}`,
        intent_key: `${open.id}:${purpose}:${n}#0`,
        user_id: user.id,
        trade_id: open.id,
        signal_id: null,
        broker: 'paper',
        symbol: base.symbol,
        side: 'SELL',
        order_type: 'MARKET',
        product: 'MIS',
        quantity: 65,
        price_paise: null,
        trigger_price_paise: null,
        status: 'REJECTED',
        tag: 'T',
        purpose,
        sequence: n,
        leg: 0,
      });
    }

    const restored = await loadRestored(db(), {
      now: NOW,
      tradingDate: () => '2026-01-07',
      tradingEnabled: false,
    });
    expect(restored.snapshot.tradingState).toBe('HALTED');
    expect(restored.snapshot.positions[String(open.id)]).toMatchObject({
      accountId: String(user.id),
      risk: { stopPrice: 105, highWater: 125 },
    });
    expect(restored.trades.get(String(open.id))).toMatchObject({ exitSeq: 2, trade: { entryPremium: 100 } });
    // ₹2,500 lost today against a ₹2,000 limit: the account is locked after the restart too.
    expect(restored.snapshot.accounts[String(user.id)]).toMatchObject({
      realisedPnl: -2_500,
      maxDailyLoss: 2_000,
      locked: true,
    });
  });
});
