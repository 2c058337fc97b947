import { describe, expect, it } from 'vitest';
import { RiskManager } from './riskManager';
import type { RiskSnapshot } from './riskManager';

const T0 = Date.UTC(2026, 10, 23, 4, 30); // 10:00 IST, Mon 23 Nov 2026
const NEXT_DAY = Date.UTC(2026, 10, 24, 3, 50); // 09:20 IST, Tue 24 Nov 2026
const SYMBOL = 'NIFTY24NOV2624000CE';
const PUT = 'NIFTY24NOV2624100PE';
const RISK = { entryPrice: 100, stopLoss: 20, target: 40 };

function manager(options: ConstructorParameters<typeof RiskManager>[0] = {}): RiskManager {
  const risk = new RiskManager(options);
  risk.configureAccount('a1', 1_000);
  risk.configureAccount('a2', 5_000);
  return risk;
}

describe('RiskManager', () => {
  it('emits the position’s exit on a price and realises its P&L on the fill', () => {
    const risk = manager();
    expect(
      risk.openPosition({
        positionId: 'p1',
        accountId: 'a2',
        symbol: SYMBOL,
        quantity: 65,
        time: T0,
        risk: RISK,
      }).ok,
    ).toBe(true);
    expect(risk.onPrice(SYMBOL, 90, T0 + 1_000)).toEqual([]);
    expect(risk.dayPnl('a2')).toBe(-650);
    const exits = risk.onPrice(SYMBOL, 80, T0 + 2_000);
    expect(exits).toEqual([
      {
        positionId: 'p1',
        accountId: 'a2',
        symbol: SYMBOL,
        quantity: 65,
        reason: 'STOP_LOSS',
        price: 80,
        time: T0 + 2_000,
      },
    ]);
    expect(risk.onPrice(SYMBOL, 70, T0 + 3_000)).toEqual([]); // exit already in flight
    risk.closePosition('p1', 79.5, T0 + 4_000, 61.12);
    expect(risk.dayPnl('a2')).toBe(-1_393.62);
    expect(risk.openPositions()).toEqual([]);
  });

  it('flattens and locks an account at −maxDailyLoss, and unlocks it next session', () => {
    const risk = manager({ onePositionPerAccount: false });
    risk.openPosition({
      positionId: 'p1',
      accountId: 'a1',
      symbol: SYMBOL,
      quantity: 65,
      time: T0,
      risk: RISK,
    });
    risk.openPosition({ positionId: 'p2', accountId: 'a1', symbol: PUT, quantity: 65, time: T0, risk: RISK });
    risk.onPrice(PUT, 101, T0 + 500);
    expect(risk.onPrice(SYMBOL, 85, T0 + 1_000)).toEqual([]); // −975 + 65: inside the limit
    const exits = risk.onPrice(SYMBOL, 83, T0 + 2_000); // −1105 + 65 = −1040
    expect(exits.map((e) => [e.positionId, e.reason, e.price])).toEqual([
      ['p1', 'DAILY_LOSS', 83],
      ['p2', 'DAILY_LOSS', 101],
    ]);
    expect(risk.account('a1')?.locked).toBe(true);
    expect(risk.canEnter('a1', T0 + 3_000)).toEqual({ ok: false, reason: 'DAILY_LOSS_LOCKED' });
    expect(risk.canEnter('a2', T0 + 3_000)).toEqual({ ok: true });
    risk.closePosition('p1', 83, T0 + 4_000);
    risk.closePosition('p2', 101, T0 + 4_000);
    expect(risk.canEnter('a1', NEXT_DAY)).toEqual({ ok: true });
    expect(risk.account('a1')).toMatchObject({ locked: false, realisedPnl: 0, tradingDate: '2026-11-24' });
  });

  it('locks when a realised loss (with charges) crosses the limit, flattening the account’s other positions', () => {
    const risk = manager({ onePositionPerAccount: false });
    risk.configureAccount('a1', 1_500);
    risk.openPosition({
      positionId: 'p1',
      accountId: 'a1',
      symbol: SYMBOL,
      quantity: 65,
      time: T0,
      risk: RISK,
    });
    risk.openPosition({ positionId: 'p2', accountId: 'a1', symbol: PUT, quantity: 65, time: T0, risk: RISK });
    expect(risk.onPrice(SYMBOL, 80, T0 + 1_000).map((e) => e.reason)).toEqual(['STOP_LOSS']); // −1300: inside
    const exits = risk.closePosition('p1', 75, T0 + 2_000, 40); // filled lower: −1625 − 40 = −1665
    expect(exits.map((e) => [e.positionId, e.reason])).toEqual([['p2', 'DAILY_LOSS']]);
  });

  it('HALTED blocks new entries but still fires exits of open positions', () => {
    const risk = manager();
    risk.openPosition({
      positionId: 'p1',
      accountId: 'a2',
      symbol: SYMBOL,
      quantity: 65,
      time: T0,
      risk: RISK,
    });
    risk.halt();
    expect(risk.tradingState).toBe('HALTED');
    expect(
      risk.openPosition({
        positionId: 'p2',
        accountId: 'a1',
        symbol: SYMBOL,
        quantity: 65,
        time: T0,
        risk: RISK,
      }),
    ).toEqual({ ok: false, reason: 'HALTED' });
    expect(risk.onPrice(SYMBOL, 140, T0 + 1_000).map((e) => e.reason)).toEqual(['TARGET']);
    risk.resume();
    expect(risk.canEnter('a1', T0 + 2_000)).toEqual({ ok: true });
  });

  it('refuses a second position for an account by default, and unknown accounts', () => {
    const risk = manager();
    risk.openPosition({
      positionId: 'p1',
      accountId: 'a2',
      symbol: SYMBOL,
      quantity: 65,
      time: T0,
      risk: RISK,
    });
    expect(risk.canEnter('a2', T0)).toEqual({ ok: false, reason: 'POSITION_OPEN' });
    expect(risk.canEnter('zz', T0)).toEqual({ ok: false, reason: 'UNKNOWN_ACCOUNT' });
  });

  it('flattenAll closes every open position once, at its last price', () => {
    const risk = manager();
    risk.openPosition({
      positionId: 'p1',
      accountId: 'a1',
      symbol: SYMBOL,
      quantity: 65,
      time: T0,
      risk: RISK,
    });
    risk.openPosition({
      positionId: 'p2',
      accountId: 'a2',
      symbol: PUT,
      quantity: 130,
      time: T0,
      risk: RISK,
    });
    risk.onPrice(PUT, 104, T0 + 1_000);
    const exits = risk.flattenAll(T0 + 2_000);
    expect(exits.map((e) => [e.positionId, e.reason, e.price, e.quantity])).toEqual([
      ['p1', 'FLATTEN_ALL', 100, 65],
      ['p2', 'FLATTEN_ALL', 104, 130],
    ]);
    expect(risk.flattenAll(T0 + 3_000)).toEqual([]);
    expect(risk.retryExit('p2', T0 + 4_000)).toMatchObject({
      reason: 'FLATTEN_ALL',
      price: 104,
      time: T0 + 4_000,
    });
  });

  it('squares off on a timer when no price arrives', () => {
    const risk = manager();
    risk.openPosition({
      positionId: 'p1',
      accountId: 'a2',
      symbol: SYMBOL,
      quantity: 65,
      time: T0,
      risk: RISK,
    });
    risk.onPrice(SYMBOL, 107, T0 + 1_000);
    expect(risk.onTime(Date.UTC(2026, 10, 23, 9, 44, 59))).toEqual([]);
    expect(risk.onTime(Date.UTC(2026, 10, 23, 9, 45)).map((e) => [e.reason, e.price])).toEqual([
      ['SQUARE_OFF', 107],
    ]);
  });

  it('manual exit of one position', () => {
    const risk = manager();
    risk.openPosition({
      positionId: 'p1',
      accountId: 'a2',
      symbol: SYMBOL,
      quantity: 65,
      time: T0,
      risk: RISK,
    });
    expect(risk.exitPosition('p1', T0 + 1)?.reason).toBe('MANUAL');
    expect(risk.exitPosition('nope', T0 + 1)).toBeUndefined();
  });

  it('serialises to JSON and resumes open positions with their stops', () => {
    const risk = manager();
    risk.openPosition({
      positionId: 'p1',
      accountId: 'a2',
      symbol: SYMBOL,
      quantity: 65,
      time: T0,
      risk: RISK,
    });
    risk.onPrice(SYMBOL, 130, T0 + 1_000); // stop trails to 110
    risk.halt();
    const snapshot = JSON.parse(JSON.stringify(risk.toJSON())) as RiskSnapshot;
    const restored = RiskManager.fromJSON(snapshot);
    expect(restored.tradingState).toBe('HALTED');
    expect(restored.openPositions()[0]?.risk.stopPrice).toBe(110);
    expect(restored.onPrice(SYMBOL, 110, T0 + 2_000).map((e) => e.reason)).toEqual(['TRAILING_STOP']);
    expect(restored.toJSON().accounts.a2?.maxDailyLoss).toBe(5_000);
  });

  it('hands out copies: a later price moves the held position, never a position already read', () => {
    const risk = manager();
    risk.openPosition({
      positionId: 'p1',
      accountId: 'a2',
      symbol: SYMBOL,
      quantity: 65,
      time: T0,
      risk: RISK,
    });
    const read = risk.openPositions('a2')[0];
    const snapshot = risk.toJSON();
    risk.onPrice(SYMBOL, 125, T0 + 1_000);
    expect(read?.risk.lastPrice).toBe(100);
    expect(snapshot.positions.p1?.risk.stopPrice).toBe(80);
    expect(risk.position('p1')?.risk).toMatchObject({ lastPrice: 125, stopPrice: 105 });
  });

  it('a quote reaches only the positions on its symbol', () => {
    const risk = manager();
    risk.openPosition({
      positionId: 'p1',
      accountId: 'a1',
      symbol: SYMBOL,
      quantity: 65,
      time: T0,
      risk: RISK,
    });
    risk.openPosition({ positionId: 'p2', accountId: 'a2', symbol: PUT, quantity: 65, time: T0, risk: RISK });
    expect(risk.onPrice(PUT, 70, T0 + 1_000).map((e) => e.positionId)).toEqual(['p2']);
    expect(risk.position('p1')?.risk.lastPrice).toBe(100);
    expect(risk.onPrice('NIFTY24NOV2625000CE', 1, T0 + 2_000)).toEqual([]);
    risk.closePosition('p2', 70, T0 + 3_000);
    expect(risk.onPrice(PUT, 1, T0 + 4_000)).toEqual([]);
    expect(risk.hasOpenPosition('a2')).toBe(false);
    expect(risk.hasOpenPosition('a1')).toBe(true);
  });
});
