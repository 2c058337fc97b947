import type { OrderFill, TradeOpen } from './types';

/**
 * Where a position is in its life. An entry under way is ENTERING; a filled entry is OPEN; once an exit is decided
 * (stop, target, square-off, daily loss, flatten-all, a stop the broker filled) it is EXITING until its SELLs have
 * sold it all, waiting (WAITING_FOR_SESSION) while a live account has no broker session to sell through; CLOSED is
 * final: the close is recorded and nothing of it is ever sold again.
 */
export type PositionState = 'ENTERING' | 'OPEN' | 'EXITING' | 'WAITING_FOR_SESSION' | 'CLOSED';

export const POSITION_STATES: readonly PositionState[] = [
  'ENTERING',
  'OPEN',
  'EXITING',
  'WAITING_FOR_SESSION',
  'CLOSED',
];

/**
 * Every move a position may make, as data (like `ORDER_STATE_GRAPH` for orders). A move not listed is a bug and
 * is refused ({@link IllegalPositionMove}).
 * - ENTERING → OPEN when the entry fills; → CLOSED when it never does (nothing was bought).
 * - OPEN → EXITING when an exit is decided; → CLOSED when it ends without an exit of OptionPilot's (the broker no
 *   longer holds it, or its resting stop sold it all at the broker).
 * - EXITING → WAITING_FOR_SESSION when the account has no broker session; → CLOSED when its fills sold it all. A
 *   retried exit stays EXITING: an exit once decided is never undone.
 * - WAITING_FOR_SESSION → EXITING once the session is back; → CLOSED as from EXITING.
 * - CLOSED is final.
 */
export const POSITION_STATE_GRAPH: Readonly<Record<PositionState, readonly PositionState[]>> = {
  ENTERING: ['OPEN', 'CLOSED'],
  OPEN: ['EXITING', 'CLOSED'],
  EXITING: ['WAITING_FOR_SESSION', 'CLOSED'],
  WAITING_FOR_SESSION: ['EXITING', 'CLOSED'],
  CLOSED: [],
};

/** A move the lifecycle table does not have. */
export class IllegalPositionMove extends Error {
  constructor(
    readonly positionId: string,
    readonly from: PositionState,
    readonly to: PositionState,
  ) {
    super(`position ${positionId}: ${from} → ${to} is not a move a position can make`);
    this.name = 'IllegalPositionMove';
  }
}

/** Whether the lifecycle table has the move `from` → `to`. */
export function canMovePosition(from: PositionState, to: PositionState): boolean {
  return POSITION_STATE_GRAPH[from].includes(to);
}

/**
 * One open position as the runtime's desks know it: its trade record, where it is in its life, and the progress of
 * its exit. Its risk state (stop, high-water mark, target) is the risk manager's, looked up by the same id.
 */
export class Position {
  private stateValue: PositionState;
  /** exit orders sent so far (their intent keys count them) */
  exitSeq: number;
  /** an exit attempt (or a close at the broker) is running: a second one waits for the next retry */
  busy = false;
  /** stop|high|target last written, to skip writes when only the last price moved */
  persistedKey: string;
  /**
   * what was sold before the exit's own SELL — the released resting stop's fills, or the exit orders that filled
   * before a restart — counted towards the exit
   */
  readonly soldBefore: OrderFill[];
  /**
   * the resting stop filled (some or all) at the broker before OptionPilot's own exit sold: the trade was stopped
   * out whatever exit OptionPilot had decided meanwhile, so it closes as the stop, at the stop's trigger
   */
  stopTrigger: number | undefined;

  constructor(
    readonly id: string,
    readonly trade: TradeOpen,
    state: PositionState,
    progress: { exitSeq: number; persistedKey: string; soldBefore: readonly OrderFill[] },
  ) {
    this.stateValue = state;
    this.exitSeq = progress.exitSeq;
    this.persistedKey = progress.persistedKey;
    this.soldBefore = [...progress.soldBefore];
  }

  get state(): PositionState {
    return this.stateValue;
  }

  /** Moves the position along the lifecycle table; an illegal move throws and changes nothing. */
  move(to: PositionState): void {
    if (!canMovePosition(this.stateValue, to)) throw new IllegalPositionMove(this.id, this.stateValue, to);
    this.stateValue = to;
  }
}

/** The runtime's open positions by id: one `Position` each, from its entry's fill to its close. */
export class PositionBook {
  private readonly positions = new Map<string, Position>();

  get(id: string): Position | undefined {
    return this.positions.get(id);
  }

  has(id: string): boolean {
    return this.positions.has(id);
  }

  /** Adds a position; a second position under one id is a bug. */
  add(position: Position): void {
    if (this.positions.has(position.id)) throw new Error(`position ${position.id} is already in the book`);
    this.positions.set(position.id, position);
  }

  /** Moves a position to CLOSED and takes it out of the book. */
  close(id: string): void {
    const position = this.positions.get(id);
    if (position === undefined) return;
    position.move('CLOSED');
    this.positions.delete(id);
  }

  values(): IterableIterator<Position> {
    return this.positions.values();
  }

  get size(): number {
    return this.positions.size;
  }
}
