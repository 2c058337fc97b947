import type { PositionRiskState } from '../risk/positionRisk';
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

/** What of a risk state is written when it changes (stop, high-water mark, target): the last price alone is not. */
export function persistedRiskKey(risk: PositionRiskState): string {
  return `${risk.stopPrice}|${risk.highWater}|${risk.targetPrice}`;
}

/** A stop resting at the broker for a live position: its legs' client ids, its trigger, which one it is. */
export interface RestingStop {
  /** client order ids of the stop's legs (freeze splitting) */
  readonly ids: readonly string[];
  trigger: number;
  /** stop orders sent so far (the n-th has `sequence` n) */
  readonly seq: number;
}

/** What the exit progress of a restored position starts from. */
export interface PositionProgress {
  readonly exitSeq: number;
  readonly persistedKey: string;
  readonly soldBefore: readonly OrderFill[];
}

/**
 * One position, from the moment its entry is sent to its close: where it is in its life, its trade record, its risk
 * state, the progress of its exit and the stop resting at the broker for it. One object, looked up by id in the
 * book; the risk manager indexes the same risk state object by symbol and account (it updates it in place with every
 * quote and never replaces it), so there is no second copy to fall out of step.
 *
 * An ENTERING position has no trade yet (its id is provisional, `entering:<account>`); reading its trade or risk
 * before `opened` is a bug and throws.
 */
export class Position {
  private stateValue: PositionState;
  private idValue: string;
  private tradeValue: TradeOpen | undefined;
  private riskValue: PositionRiskState | undefined;
  /** exit orders sent so far (the n-th exit order has `sequence` n) */
  exitSeq = 0;
  /** an exit attempt (or a close at the broker) is running: a second one waits for the next retry */
  busy = false;
  /** stop|high|target last written, to skip writes when only the last price moved */
  persistedKey = '';
  /**
   * what was sold before the exit's own SELL — the released resting stop's fills, or the exit orders that filled
   * before a restart — counted towards the exit
   */
  readonly soldBefore: OrderFill[] = [];
  /**
   * the resting stop filled (some or all) at the broker before OptionPilot's own exit sold: the trade was stopped
   * out whatever exit OptionPilot had decided meanwhile, so it closes as the stop, at the stop's trigger
   */
  stopTrigger: number | undefined;
  /** the stop resting at the broker (live positions), undefined while none rests */
  restingStop: RestingStop | undefined;

  private constructor(
    id: string,
    readonly accountId: string,
    readonly symbol: string,
    state: PositionState,
  ) {
    this.idValue = id;
    this.stateValue = state;
  }

  /** An entry being sent for `accountId`: the position exists before its fill (one per account). */
  static entering(accountId: string, symbol: string): Position {
    return new Position(`entering:${accountId}`, accountId, symbol, 'ENTERING');
  }

  /** A position whose entry filled earlier: restored after a restart (OPEN, or EXITING with its exit decided). */
  static held(
    id: string,
    trade: TradeOpen,
    risk: PositionRiskState,
    state: 'OPEN' | 'EXITING',
    progress: PositionProgress,
  ): Position {
    const position = new Position(id, trade.accountId, trade.symbol, state);
    position.tradeValue = trade;
    position.riskValue = risk;
    position.exitSeq = progress.exitSeq;
    position.persistedKey = progress.persistedKey;
    position.soldBefore.push(...progress.soldBefore);
    return position;
  }

  /** The trade's id once open; `entering:<account>` before. */
  get id(): string {
    return this.idValue;
  }

  get positionId(): string {
    return this.idValue;
  }

  get state(): PositionState {
    return this.stateValue;
  }

  get trade(): TradeOpen {
    if (this.tradeValue === undefined) throw new Error(`position ${this.idValue} is entering: no trade yet`);
    return this.tradeValue;
  }

  /** The live risk state (stop, high-water mark, target, exit): moves with every quote; copy it to keep it. */
  get risk(): PositionRiskState {
    if (this.riskValue === undefined) throw new Error(`position ${this.idValue} is entering: no risk yet`);
    return this.riskValue;
  }

  get quantity(): number {
    return this.trade.quantity;
  }

  /** The entry filled and its trade is stored: ENTERING → OPEN under the trade's id. */
  opened(id: string, trade: TradeOpen, risk: PositionRiskState): void {
    this.move('OPEN');
    this.idValue = id;
    this.tradeValue = trade;
    this.riskValue = risk;
    this.persistedKey = persistedRiskKey(risk);
  }

  /** A restored risk manager holds the position's risk state now: the position follows it. */
  holdRisk(risk: PositionRiskState): void {
    this.riskValue = risk;
  }

  /** Moves the position along the lifecycle table; an illegal move throws and changes nothing. */
  move(to: PositionState): void {
    if (!canMovePosition(this.stateValue, to))
      throw new IllegalPositionMove(this.idValue, this.stateValue, to);
    this.stateValue = to;
  }
}

/**
 * The runtime's positions: open ones by id, entering ones by account (one position per account, even before the
 * fill). Every position of the runtime is here from its entry's order to its close, and nowhere else.
 */
export class PositionBook {
  private readonly positions = new Map<string, Position>();
  private readonly entering = new Map<string, Position>();

  get(id: string): Position | undefined {
    return this.positions.get(id);
  }

  has(id: string): boolean {
    return this.positions.has(id);
  }

  /** Starts an entry for the account: undefined when the account has one in flight already. */
  enter(accountId: string, symbol: string): Position | undefined {
    if (this.entering.has(accountId)) return undefined;
    const position = Position.entering(accountId, symbol);
    this.entering.set(accountId, position);
    return position;
  }

  /** Whether the account has an entry in flight (its fill not yet known). */
  isEntering(accountId: string): boolean {
    return this.entering.has(accountId);
  }

  /** The entry filled: the position is OPEN under its trade's id. */
  open(position: Position, id: string, trade: TradeOpen, risk: PositionRiskState): Position {
    if (this.positions.has(id)) throw new Error(`position ${id} is already in the book`);
    position.opened(id, trade, risk);
    this.entering.delete(position.accountId);
    this.positions.set(id, position);
    return position;
  }

  /** The entry never filled (nothing bought): ENTERING → CLOSED, out of the book. */
  abandon(position: Position): void {
    if (position.state !== 'ENTERING') return;
    position.move('CLOSED');
    if (this.entering.get(position.accountId) === position) this.entering.delete(position.accountId);
  }

  /** Adds a position held before (restored); a second position under one id is a bug. */
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

  /** The open positions (not those entering). */
  values(): IterableIterator<Position> {
    return this.positions.values();
  }

  /** How many positions are open (not counting those entering). */
  get size(): number {
    return this.positions.size;
  }
}
