// Presenters of the trading loop: explicit fields only, paise → rupees and x100 → points at the edge.
import { describe, expect, it } from 'vitest';
import type { SignalRow, TradeRow, UserRow } from '../db';
import { presentAdminTrade } from './adminTrade';
import { presentCandle, presentFeedHealth, presentTick } from './market';
import { presentSignal } from './signal';
import { presentStats } from './stats';

const AT = Date.UTC(2026, 0, 5, 4, 45);

describe('presentSignal', () => {
  it('converts hundredths of a point and copies only the wire fields', () => {
    const row: SignalRow = {
      id: 3,
      strategy_id: 1,
      signal_at: AT,
      type: 'PUT',
      condition_met: '3 bearish 1m candles',
      entry_trigger_x100: 2_398_050,
      nifty_price_x100: 2_398_500,
      setup_candle_at: AT - 60_000,
      expires_at: AT + 60_000,
      interval_minutes: 1,
      executed: false,
      executed_at: null,
      executed_price_x100: null,
      skipped_reason: 'expired',
    };
    expect(presentSignal(row)).toEqual({
      id: 3,
      timestamp: '2026-01-05T04:45:00.000Z',
      type: 'PUT',
      conditionMet: '3 bearish 1m candles',
      entryTrigger: 23_980.5,
      niftyPrice: 23_985,
      executed: false,
    });
  });
});

describe('presentAdminTrade', () => {
  it('adds the owner (name and e-mail only) to the user trade', () => {
    const trade = {
      id: 9,
      user_id: 2,
      signal_id: 3,
      symbol: 'NIFTY06JAN2624000CE',
      instrument: 'NIFTY',
      trade_type: 'CALL',
      option_type: 'CE',
      strike_x100: 2_400_000,
      expiry_at: AT,
      lots: 1,
      quantity: 65,
      entry_price_paise: 10_005,
      exit_price_paise: 12_000,
      stop_loss_paise: 8_005,
      target_paise: 14_005,
      pnl_paise: 123_456,
      charges_paise: 6_219,
      status: 'closed',
      exit_reason: 'trailing_stop',
      paper: true,
      risk_state: '{"secret":"internal"}',
      opened_at: AT,
      closed_at: AT + 60_000,
      created_at: AT,
      updated_at: AT,
    } satisfies TradeRow;
    const user = {
      first_name: 'Asha',
      last_name: 'Rao',
      email: 'asha@example.com',
      password_hash: 'x',
    } as UserRow;
    const dto = presentAdminTrade(trade, user);
    expect(dto).toMatchObject({
      id: 9,
      entryPrice: 100.05,
      exitPrice: 120,
      pnl: 1234.56,
      exitReason: 'trailing_stop',
    });
    expect(dto.user).toEqual({ firstName: 'Asha', lastName: 'Rao', email: 'asha@example.com' });
    expect(JSON.stringify(dto)).not.toMatch(/risk_state|internal|password/);
  });
});

describe('market presenters', () => {
  it('presents the index with its change against the previous close', () => {
    const dto = presentTick({
      symbol: 'NIFTY 50',
      price: 24_100.456,
      previousClose: 24_000,
      open: 24_010,
      high: 24_120,
      low: 23_990,
      volume: 0,
      time: AT,
    });
    expect(dto).toEqual({
      symbol: 'NIFTY 50',
      price: 24_100.46,
      change: 100.46,
      changePercent: 0.42,
      open: 24_010,
      high: 24_120,
      low: 23_990,
      volume: 0,
      timestamp: '2026-01-05T04:45:00.000Z',
    });
  });

  it('copies candles and renders feed health times as ISO (null before the first tick)', () => {
    const candle = {
      interval: 5,
      time: AT,
      open: 1,
      high: 2,
      low: 0.5,
      close: 1.5,
      volume: 0,
      closed: true,
    } as const;
    expect(presentCandle({ ...candle, extra: 'dropped' } as typeof candle)).toEqual(candle);
    expect(presentFeedHealth('sim', { status: 'down', lastTickAt: null })).toEqual({
      source: 'sim',
      status: 'down',
      lastTickAt: null,
    });
    expect(presentFeedHealth('sim', { status: 'live', lastTickAt: AT }).lastTickAt).toBe(
      '2026-01-05T04:45:00.000Z',
    );
  });
});

describe('presentStats', () => {
  const none = {
    todayRealisedPaise: 0,
    totalRealisedPaise: 0,
    openPaise: 0,
    openTrades: 0,
    closedTrades: 0,
    wins: 0,
  };

  it('gives rupees with 2 decimals and a win rate in percent, 0 without closed trades', () => {
    expect(
      presentStats({
        ...none,
        todayRealisedPaise: -12_345,
        totalRealisedPaise: 99_999,
        closedTrades: 3,
        wins: 2,
      }),
    ).toEqual({
      todayPnl: -123.45,
      todayRealisedPnl: -123.45,
      openPnl: 0,
      openTrades: 0,
      totalTrades: 3,
      winRate: 66.67,
      totalPnl: 999.99,
      totalRealisedPnl: 999.99,
    });
    expect(presentStats(none).winRate).toBe(0);
  });

  it("adds the open positions' mark to today's and the total P&L and gives both parts", () => {
    // Nothing closed today, one trade open at +₹52: today's P&L is +₹52, not ₹0.00.
    expect(presentStats({ ...none, openPaise: 5_200, openTrades: 1 })).toMatchObject({
      todayPnl: 52,
      todayRealisedPnl: 0,
      openPnl: 52,
      openTrades: 1,
      totalPnl: 52,
      totalRealisedPnl: 0,
    });
    const mixed = presentStats({
      ...none,
      todayRealisedPaise: -10_000,
      totalRealisedPaise: 250_050,
      openPaise: 5_200.4,
      openTrades: 1,
      closedTrades: 4,
      wins: 3,
    });
    expect(mixed).toMatchObject({ todayPnl: -48, openPnl: 52, totalPnl: 2_552.5, totalRealisedPnl: 2_500.5 });
    // The parts always add up to the whole, to the paisa.
    expect(Math.round(mixed.todayRealisedPnl * 100) + Math.round(mixed.openPnl * 100)).toBe(
      Math.round(mixed.todayPnl * 100),
    );
  });
});
