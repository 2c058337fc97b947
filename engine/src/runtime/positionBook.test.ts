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
import type { TradeOpen } from './types';

const TRADE = { accountId: 'a', symbol: 'NIFTY01DEC2624000CE', quantity: 65 } as TradeOpen;

function position(state: PositionState, id = 'p1'): Position {
  return new Position(id, TRADE, state, { exitSeq: 0, persistedKey: '', soldBefore: [] });
}

describe('position lifecycle', () => {
  it('has an entry for every state and names only states it has', () => {
    expect(Object.keys(POSITION_STATE_GRAPH).sort()).toEqual([...POSITION_STATES].sort());
    for (const targets of Object.values(POSITION_STATE_GRAPH))
      for (const to of targets) expect(POSITION_STATES).toContain(to);
  });

  it('follows entering → open → exiting → closed, and waits for a session on the way', () => {
    const p = position('ENTERING');
    for (const to of ['OPEN', 'EXITING', 'WAITING_FOR_SESSION', 'EXITING', 'CLOSED'] as const) p.move(to);
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
    const p = position('OPEN');
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
