import { describe, expect, it } from 'vitest';
import {
  IllegalPositionMove,
  POSITION_STATE_GRAPH,
  POSITION_STATES,
  Position,
  PositionBook,
  canMovePosition,
} from './positionBook';
import type { PositionState } from './positionBook';
import { RiskManager } from '../risk/riskManager';
import { createPositionRisk } from '../risk/positionRisk';
import type { TradeOpen } from './types';

const SYMBOL = 'NIFTY01DEC2624000CE';
const TRADE = { accountId: 'a', symbol: SYMBOL, quantity: 65 } as TradeOpen;
const RISK = createPositionRisk({
  entryPrice: 100,
  stopLoss: 20,
  target: 40,
  squareOffAt: Number.MAX_SAFE_INTEGER,
});

/** A position brought to `state` along the lifecycle table, from its entry on. */
function position(state: PositionState, id = 'p1'): Position {
  const p = Position.entering('a', SYMBOL);
  const path: Record<PositionState, readonly PositionState[]> = {
    ENTERING: [],
    OPEN: ['OPEN'],
    EXITING: ['OPEN', 'EXITING'],
    WAITING_FOR_SESSION: ['OPEN', 'EXITING', 'WAITING_FOR_SESSION'],
    CLOSED: ['CLOSED'],
  };
  for (const to of path[state]) {
    if (to === 'OPEN') p.opened(id, TRADE, RISK);
    else p.move(to);
  }
  return p;
}

describe('position lifecycle', () => {
  it('has an entry for every state and names only states it has', () => {
    expect(Object.keys(POSITION_STATE_GRAPH).sort()).toEqual([...POSITION_STATES].sort());
    for (const targets of Object.values(POSITION_STATE_GRAPH))
      for (const to of targets) expect(POSITION_STATES).toContain(to);
  });

  it('follows entering → open → exiting → closed, and waits for a session on the way', () => {
    const p = position('ENTERING');
    expect(() => p.trade).toThrow(/entering: no trade yet/);
    p.opened('p1', TRADE, RISK);
    expect([p.id, p.trade, p.risk, p.quantity]).toEqual(['p1', TRADE, RISK, 65]);
    for (const to of ['EXITING', 'WAITING_FOR_SESSION', 'EXITING', 'CLOSED'] as const) p.move(to);
    expect(p.state).toBe('CLOSED');
  });

  it('rejects an illegal move and leaves the state as it was', () => {
    const p = position('EXITING');
    // An exit once decided is never undone: back to OPEN would let a second exit sell it again.
    expect(() => p.move('OPEN')).toThrow(IllegalPositionMove);
    expect(p.state).toBe('EXITING');
    expect(() => position('OPEN').move('WAITING_FOR_SESSION')).toThrow(/OPEN → WAITING_FOR_SESSION/);
    expect(() => position('ENTERING').move('EXITING')).toThrow(IllegalPositionMove);
  });

  it('CLOSED is final: no move leaves it', () => {
    for (const to of POSITION_STATES) {
      expect(canMovePosition('CLOSED', to)).toBe(false);
      expect(() => position('CLOSED').move(to)).toThrow(IllegalPositionMove);
    }
  });

  it('every state but CLOSED can close', () => {
    for (const from of POSITION_STATES.filter((s) => s !== 'CLOSED'))
      expect(canMovePosition(from, 'CLOSED')).toBe(true);
  });
});

describe('PositionBook', () => {
  it('holds one position per id, and a close moves it to CLOSED and out of the book', () => {
    const book = new PositionBook();
    const p = Position.held('p1', TRADE, RISK, 'OPEN', { exitSeq: 0, persistedKey: '', soldBefore: [] });
    book.add(p);
    expect(() => book.add(position('OPEN'))).toThrow(/already in the book/);
    expect(book.get('p1')).toBe(p);
    book.close('p1');
    expect(p.state).toBe('CLOSED');
    expect(book.has('p1')).toBe(false);
    expect(book.size).toBe(0);
    // closing again is a no-op (the position is gone), never a second close
    expect(() => book.close('p1')).not.toThrow();
  });
});

describe('PositionBook entries', () => {
  it('holds one entering position per account, opens it under its trade id, or abandons it', () => {
    const book = new PositionBook();
    const entering = book.enter('a', SYMBOL)!;
    expect(entering.state).toBe('ENTERING');
    expect(book.isEntering('a')).toBe(true);
    // one position per account, even before the fill
    expect(book.enter('a', SYMBOL)).toBeUndefined();
    expect(book.size).toBe(0);

    const opened = book.open(entering, 'T7', TRADE, RISK);
    expect(opened).toBe(entering);
    expect([opened.state, opened.id]).toEqual(['OPEN', 'T7']);
    expect(book.get('T7')).toBe(entering);
    expect(book.isEntering('a')).toBe(false);
    // abandoning an opened position does nothing: it bought something
    book.abandon(opened);
    expect(book.get('T7')?.state).toBe('OPEN');

    const failed = book.enter('b', SYMBOL)!;
    book.abandon(failed);
    expect(failed.state).toBe('CLOSED');
    expect(book.isEntering('b')).toBe(false);
    expect(() => book.open(failed, 'T8', TRADE, RISK)).toThrow(IllegalPositionMove);
  });

  it("holds the risk manager's own state: quotes and a forced exit move it in place, never a stale copy", () => {
    const risk = new RiskManager({ onePositionPerAccount: false });
    risk.configureAccount('a', 0);
    const time = Date.UTC(2026, 11, 1, 5, 0);
    risk.openPosition({
      positionId: 'T1',
      accountId: 'a',
      symbol: SYMBOL,
      quantity: 65,
      time,
      risk: { entryPrice: 100, stopLoss: 20, target: 40, squareOffAt: Number.MAX_SAFE_INTEGER },
    });
    const book = new PositionBook();
    const p = book.open(book.enter('a', SYMBOL)!, 'T1', TRADE, risk.position('T1')!.risk);

    risk.onPrice(SYMBOL, 125, time + 1_000);
    expect(p.risk.highWater).toBe(125);
    expect(p.risk.stopPrice).toBeGreaterThan(80);
    const exit = risk.exitPosition('T1', time + 2_000);
    expect(exit?.reason).toBe('MANUAL');
    expect(p.risk.exit?.reason).toBe('MANUAL');
    expect(p.risk).toBe(risk.position('T1')!.risk);
  });
});
