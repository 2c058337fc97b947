import { IST_OFFSET_MS, istDate } from '../calendar/ist';
import { roundToPaisa } from '../money';

const DAY_MS = 86_400_000;
import { createAccountRisk, realise, rollSession } from './accountRisk';
import type { AccountRiskState } from './accountRisk';
import {
  applyPrice,
  copyPositionRisk,
  createPositionRisk,
  forceExitInPlace,
  ownPositionRisk,
  unrealisedPnl,
} from './positionRisk';
import type {
  ExitReason,
  ForcedExitReason,
  MutablePositionRiskState,
  PositionExit,
  PositionRiskConfig,
  PositionRiskState,
} from './positionRisk';

/** Global trading state: HALTED blocks new entries; exits of open positions are still managed. */
export type TradingState = 'ACTIVE' | 'HALTED';

/** One open position under risk management. Plain data. */
export interface RiskPosition {
  readonly positionId: string;
  readonly accountId: string;
  readonly symbol: string;
  readonly quantity: number;
  readonly openedAt: number;
  readonly risk: PositionRiskState;
}

/** An instruction to close a position; the server routes the exit order and calls `closePosition` on its fill. */
export interface ExitInstruction {
  readonly positionId: string;
  readonly accountId: string;
  readonly symbol: string;
  readonly quantity: number;
  readonly reason: ExitReason;
  readonly price: number;
  readonly time: number;
}

/** Why an entry is refused. */
export type EntryBlock = 'HALTED' | 'DAILY_LOSS_LOCKED' | 'POSITION_OPEN' | 'UNKNOWN_ACCOUNT';

/** Everything the risk manager holds, as JSON: persisted by the server so a restart resumes open positions. */
export interface RiskSnapshot {
  readonly version: 1;
  readonly tradingState: TradingState;
  readonly accounts: Readonly<Record<string, AccountRiskState>>;
  readonly positions: Readonly<Record<string, RiskPosition>>;
}

/** Options of `RiskManager`. */
export interface RiskManagerOptions {
  /** the trading date of an instant; defaults to the IST calendar date (the session calendar's `tradingDate`) */
  readonly tradingDate?: (time: number) => string;
  /** one open position per account (ARCHITECTURE.md: eligible users have no open position); default true */
  readonly onePositionPerAccount?: boolean;
}

/** Opening parameters of a position. */
export interface OpenPositionInput {
  readonly positionId: string;
  readonly accountId: string;
  readonly symbol: string;
  readonly quantity: number;
  readonly time: number;
  readonly risk: PositionRiskConfig;
}

/** An account as the manager holds it: its risk state (undefined until configured) and its open positions. */
interface AccountSlot {
  state: AccountRiskState | undefined;
  readonly positions: HeldPosition[];
}

/** A position as the manager holds it: its risk state is updated in place by every price. */
interface HeldPosition {
  /** its account, held directly: a price reaches the account of each position without a lookup */
  readonly slot: AccountSlot;
  readonly positionId: string;
  readonly accountId: string;
  readonly symbol: string;
  readonly quantity: number;
  readonly openedAt: number;
  /** one object from open to close: prices and forced exits update it in place, so a live view never goes stale */
  readonly risk: MutablePositionRiskState;
  /**
   * unrealised P&L last marked for the account's loss limit (rupees, to the paisa); NaN until marked (not
   * undefined: a field that may hold undefined boxes every number stored in it, once per quote)
   */
  mark: number;
  /** the `onPrice` pass that last marked it, so the loss limit is checked once per account and price */
  pass: number;
}

const NO_EXITS: readonly ExitInstruction[] = Object.freeze([]);

/** A copy of a held position as plain data: what leaves the manager. */
function published(position: HeldPosition): RiskPosition {
  return {
    positionId: position.positionId,
    accountId: position.accountId,
    symbol: position.symbol,
    quantity: position.quantity,
    openedAt: position.openedAt,
    risk: copyPositionRisk(position.risk),
  };
}

function removeFrom(list: HeldPosition[] | undefined, position: HeldPosition): void {
  if (list === undefined) return;
  const at = list.indexOf(position);
  if (at >= 0) list.splice(at, 1);
}

/**
 * Combines every position's risk state machine with each account's daily loss lock and the global trading
 * state. It decides; it never places orders: callers route the returned exits and report fills back through
 * `closePosition`. Deterministic and clock-free (times come with each call), so live and backtest agree.
 *
 * The hot path is a price: it reaches only the positions on that symbol (indexed by symbol) and updates their
 * risk state in place, allocating nothing unless something exits. What leaves the manager (`openPositions`,
 * `toJSON`) is a copy; `position()` is a live read-only view for callers that look and let go.
 */
export class RiskManager {
  private tradingStateValue: TradingState = 'ACTIVE';
  private readonly slots = new Map<string, AccountSlot>();
  private readonly positions = new Map<string, HeldPosition>();
  private readonly bySymbol = new Map<string, HeldPosition[]>();
  private readonly tradingDateOf: (time: number) => string;
  /** the IST day number and trading date of the last lookup: prices arrive many times a second */
  private lastDay = Number.NaN;
  private lastTradingDate = '';
  private readonly onePositionPerAccount: boolean;
  private pass = 0;
  /** the earliest square-off, recomputed only after a position came, went, exited or resolved its square-off */
  private squareOffDue: number | undefined;
  private squareOffStale = true;

  constructor(options: RiskManagerOptions = {}, snapshot?: RiskSnapshot) {
    this.tradingDateOf = options.tradingDate ?? istDate;
    this.onePositionPerAccount = options.onePositionPerAccount ?? true;
    if (snapshot !== undefined) {
      this.tradingStateValue = snapshot.tradingState;
      for (const account of Object.values(snapshot.accounts))
        this.slotOf(account.accountId).state = { ...account, unrealised: {} };
      for (const position of Object.values(snapshot.positions)) {
        const mark = snapshot.accounts[position.accountId]?.unrealised[position.positionId];
        this.hold(position, mark ?? Number.NaN);
      }
    }
  }

  /** Restores a manager from `toJSON()` output. */
  static fromJSON(snapshot: RiskSnapshot, options: RiskManagerOptions = {}): RiskManager {
    if (snapshot.version !== 1)
      throw new Error(`unsupported risk snapshot version ${String(snapshot.version)}`);
    return new RiskManager(options, snapshot);
  }

  /** The whole state as plain JSON data (copies). */
  toJSON(): RiskSnapshot {
    const accounts: Record<string, AccountRiskState> = {};
    for (const accountId of this.slots.keys()) {
      const account = this.account(accountId);
      if (account !== undefined) accounts[accountId] = account;
    }
    const positions: Record<string, RiskPosition> = {};
    for (const [id, position] of this.positions) positions[id] = published(position);
    return { version: 1, tradingState: this.tradingStateValue, accounts, positions };
  }

  get tradingState(): TradingState {
    return this.tradingStateValue;
  }

  /** Stops new entries everywhere; open positions keep their exits. */
  halt(): void {
    this.tradingStateValue = 'HALTED';
  }

  /** Allows new entries again. */
  resume(): void {
    this.tradingStateValue = 'ACTIVE';
  }

  /** Adds an account or changes its daily loss limit (rupees). */
  configureAccount(accountId: string, maxDailyLoss: number): void {
    const slot = this.slotOf(accountId);
    const current = slot.state ?? createAccountRisk(accountId, maxDailyLoss);
    slot.state = { ...current, maxDailyLoss };
  }

  /** The account's risk state (after rolling to the session of `time` when given), with its positions' marks. */
  account(accountId: string, time?: number): AccountRiskState | undefined {
    if (time !== undefined) this.roll(accountId, time);
    const account = this.slots.get(accountId)?.state;
    if (account === undefined) return undefined;
    const unrealised: Record<string, number> = {};
    for (const position of this.slots.get(accountId)?.positions ?? []) {
      if (!Number.isNaN(position.mark)) unrealised[position.positionId] = position.mark;
    }
    return { ...account, unrealised };
  }

  /** Day P&L of an account, realised plus unrealised at the last prices. */
  dayPnl(accountId: string): number {
    const account = this.slots.get(accountId)?.state;
    if (account === undefined) return 0;
    return roundToPaisa(account.realisedPnl + this.unrealised(accountId));
  }

  /** Unrealised P&L of an account's open positions at their last prices, rupees. */
  unrealised(accountId: string): number {
    let sum = 0;
    for (const position of this.slots.get(accountId)?.positions ?? []) {
      const { risk } = position;
      sum += unrealisedPnl(risk, risk.exit?.price ?? risk.lastPrice, position.quantity);
    }
    return roundToPaisa(sum);
  }

  /** Open positions (including those whose exit is in flight), as copies. */
  openPositions(accountId?: string): readonly RiskPosition[] {
    const held =
      accountId === undefined ? this.positions.values() : (this.slots.get(accountId)?.positions ?? []);
    return [...held].map(published);
  }

  /**
   * An open position, live: its `risk` is the one state object the manager updates in place from open to close (the
   * book's `Position` holds it); undefined once closed.
   */
  position(positionId: string): RiskPosition | undefined {
    return this.positions.get(positionId);
  }

  /** Whether the account holds an open position (including one whose exit is in flight). */
  hasOpenPosition(accountId: string): boolean {
    return (this.slots.get(accountId)?.positions?.length ?? 0) > 0;
  }

  /** How many positions are open. */
  get size(): number {
    return this.positions.size;
  }

  /** The earliest square-off among positions without an exit (MAX_SAFE_INTEGER is "never": left out). */
  nextSquareOff(): number | undefined {
    if (!this.squareOffStale) return this.squareOffDue;
    let next: number | undefined;
    for (const position of this.positions.values()) {
      const { risk } = position;
      const at = risk.exit === undefined ? risk.squareOffAt : null;
      if (at !== null && at < Number.MAX_SAFE_INTEGER && (next === undefined || at < next)) next = at;
    }
    this.squareOffDue = next;
    this.squareOffStale = false;
    return next;
  }

  /** Whether `accountId` may open a new position at `time`. */
  canEnter(accountId: string, time: number): { ok: true } | { ok: false; reason: EntryBlock } {
    if (this.tradingStateValue === 'HALTED') return { ok: false, reason: 'HALTED' };
    const account = this.roll(accountId, time);
    if (account === undefined) return { ok: false, reason: 'UNKNOWN_ACCOUNT' };
    if (account.locked) return { ok: false, reason: 'DAILY_LOSS_LOCKED' };
    if (this.onePositionPerAccount && this.hasOpenPosition(accountId))
      return { ok: false, reason: 'POSITION_OPEN' };
    return { ok: true };
  }

  /** Starts managing a filled entry; refused with the reason when entries are blocked. */
  openPosition(
    input: OpenPositionInput,
  ): { ok: true; position: RiskPosition } | { ok: false; reason: EntryBlock } {
    const allowed = this.canEnter(input.accountId, input.time);
    if (!allowed.ok) return allowed;
    const position: RiskPosition = {
      positionId: input.positionId,
      accountId: input.accountId,
      symbol: input.symbol,
      quantity: input.quantity,
      openedAt: input.time,
      risk: createPositionRisk({ entryTime: input.time, ...input.risk }),
    };
    return { ok: true, position: published(this.hold(position, Number.NaN)) };
  }

  /**
   * Manages a position whose entry filled although entries were blocked meanwhile (halted, locked): the
   * contracts are bought, so their stop, target and square-off still apply.
   */
  adoptPosition(position: RiskPosition): void {
    this.hold(position, Number.NaN);
  }

  /** Feeds a premium for `symbol`: returns the exits it triggers (stops, targets, square-off, daily loss). */
  onPrice(symbol: string, premium: number, time: number): readonly ExitInstruction[] {
    const held = this.bySymbol.get(symbol);
    if (held === undefined) return NO_EXITS;
    let exits: ExitInstruction[] | undefined;
    const pass = (this.pass += 1);
    const tradingDate = this.tradingDate(time);
    let marked = false;
    for (let i = 0; i < held.length; i++) {
      const position = held[i] as HeldPosition;
      const { risk } = position;
      if (risk.exit !== undefined) continue;
      // The same premium again before the square-off changes nothing: no new high, no stop or target crossed
      // (it would have exited at this premium already), the same unrealised P&L.
      if (premium === risk.lastPrice && risk.squareOffAt !== null && time < risk.squareOffAt) continue;
      const account = this.rollSlot(position.slot, tradingDate);
      if (risk.squareOffAt === null) this.squareOffStale = true;
      const exit = applyPrice(risk, premium, time);
      if (exit !== undefined) (exits ??= []).push(this.exited(position, exit));
      // Only a loss limit reads the marks; `unrealised()` and `dayPnl()` price open positions on demand.
      if (account === undefined || !(account.maxDailyLoss > 0)) continue;
      if (exit === undefined) position.mark = roundToPaisa(unrealisedPnl(risk, premium, position.quantity));
      position.pass = pass;
      marked = true;
    }
    if (!marked) return exits ?? NO_EXITS;
    // A second look, once the prices are in: an account whose loss reached its limit is flattened (once).
    for (let i = 0; i < held.length; i++) {
      const position = held[i] as HeldPosition;
      if (position.pass !== pass) continue;
      const flattened = this.enforceSlot(position.slot, position.accountId, time);
      if (flattened.length > 0) (exits ??= []).push(...flattened);
    }
    return exits ?? NO_EXITS;
  }

  /** Advances time without a price (a timer): square-off of positions whose symbol has gone quiet. */
  onTime(time: number): ExitInstruction[] {
    const exits: ExitInstruction[] = [];
    for (const position of this.positions.values()) {
      const { risk } = position;
      if (risk.exit !== undefined || risk.squareOffAt === null || time < risk.squareOffAt) continue;
      const exit = this.forced(position, 'SQUARE_OFF', time);
      if (exit) exits.push(exit);
    }
    return exits;
  }

  /** Closes every open position (kill switch); halting entries is a separate decision (`halt`). */
  flattenAll(time: number): ExitInstruction[] {
    return this.forceAll(() => true, 'FLATTEN_ALL', time);
  }

  /** Closes one position by hand. */
  exitPosition(
    positionId: string,
    time: number,
    reason: ForcedExitReason = 'MANUAL',
  ): ExitInstruction | undefined {
    const position = this.positions.get(positionId);
    if (position === undefined) return undefined;
    return this.forced(position, reason, time);
  }

  /**
   * The exit order did not fill (rejected, cancelled): re-issues the same exit at the last price so the caller
   * can route it again. Returns undefined when the position has no pending exit.
   */
  retryExit(positionId: string, time: number): ExitInstruction | undefined {
    const position = this.positions.get(positionId);
    const exit = position?.risk.exit;
    if (position === undefined || exit === undefined) return undefined;
    return this.instruction(position, { ...exit, price: position.risk.lastPrice, time });
  }

  /**
   * Records the fill of a position's exit: realises (exit − entry) × quantity − charges into the account's day
   * P&L and stops managing the position. A realised loss may itself hit the daily limit: the account's other
   * positions are then flattened (returned) and the account locked.
   */
  closePosition(
    positionId: string,
    exitPrice: number,
    time: number,
    charges = 0,
  ): readonly ExitInstruction[] {
    const position = this.positions.get(positionId);
    if (position === undefined) return NO_EXITS;
    this.positions.delete(positionId);
    this.squareOffStale = true;
    removeFrom(this.bySymbol.get(position.symbol), position);
    if (this.bySymbol.get(position.symbol)?.length === 0) this.bySymbol.delete(position.symbol);
    removeFrom(position.slot.positions, position);
    const account = this.roll(position.accountId, time);
    if (account === undefined) return NO_EXITS;
    const pnl = (exitPrice - position.risk.entryPrice) * position.quantity - charges;
    position.slot.state = realise(account, positionId, pnl);
    return this.enforceDailyLoss(position.accountId, time);
  }

  /** Takes a position in (a copy of its risk state: the manager updates its own in place). */
  private hold(position: RiskPosition, mark: number): HeldPosition {
    const previous = this.positions.get(position.positionId);
    if (previous !== undefined) {
      removeFrom(this.bySymbol.get(previous.symbol), previous);
      removeFrom(previous.slot.positions, previous);
    }
    const slot = this.slotOf(position.accountId);
    const held: HeldPosition = {
      slot,
      positionId: position.positionId,
      accountId: position.accountId,
      symbol: position.symbol,
      quantity: position.quantity,
      openedAt: position.openedAt,
      risk: ownPositionRisk(position.risk),
      mark,
      pass: 0,
    };
    this.positions.set(held.positionId, held);
    this.squareOffStale = true;
    let onSymbol = this.bySymbol.get(held.symbol);
    if (onSymbol === undefined) this.bySymbol.set(held.symbol, (onSymbol = []));
    onSymbol.push(held);
    slot.positions.push(held);
    return held;
  }

  /** The trading date of `time`; a trading date changes only at an IST midnight, so one lookup serves a day. */
  private tradingDate(time: number): string {
    const day = Math.floor((time + IST_OFFSET_MS) / DAY_MS);
    if (day !== this.lastDay) {
      this.lastDay = day;
      this.lastTradingDate = this.tradingDateOf(time);
    }
    return this.lastTradingDate;
  }

  private roll(accountId: string, time: number): AccountRiskState | undefined {
    const slot = this.slots.get(accountId);
    return slot === undefined ? undefined : this.rollSlot(slot, this.tradingDate(time));
  }

  private rollSlot(slot: AccountSlot, tradingDate: string): AccountRiskState | undefined {
    const account = slot.state;
    if (account === undefined || account.tradingDate === tradingDate) return account;
    return (slot.state = rollSession(account, tradingDate));
  }

  private slotOf(accountId: string): AccountSlot {
    let slot = this.slots.get(accountId);
    if (slot === undefined) this.slots.set(accountId, (slot = { state: undefined, positions: [] }));
    return slot;
  }

  /** A position's exit was decided (its state holds it): marked at the exit price and returned as an order. */
  private exited(position: HeldPosition, exit: PositionExit): ExitInstruction {
    this.squareOffStale = true;
    // The exit price is the best estimate of the realised figure until the exit order fills.
    const account = position.slot.state;
    if (account !== undefined && account.maxDailyLoss > 0)
      position.mark = roundToPaisa(unrealisedPnl(position.risk, exit.price, position.quantity));
    return this.instruction(position, exit);
  }

  private forced(
    position: HeldPosition,
    reason: ForcedExitReason,
    time: number,
  ): ExitInstruction | undefined {
    // In place: the book's `Position` holds this very state object from open to close.
    const exit = forceExitInPlace(position.risk, reason, position.risk.lastPrice, time);
    return exit === undefined ? undefined : this.exited(position, exit);
  }

  private instruction(
    position: HeldPosition,
    exit: { reason: ExitReason; price: number; time: number },
  ): ExitInstruction {
    return {
      positionId: position.positionId,
      accountId: position.accountId,
      symbol: position.symbol,
      quantity: position.quantity,
      reason: exit.reason,
      price: exit.price,
      time: exit.time,
    };
  }

  private forceAll(
    match: (p: RiskPosition) => boolean,
    reason: ForcedExitReason,
    time: number,
  ): ExitInstruction[] {
    const exits: ExitInstruction[] = [];
    for (const position of [...this.positions.values()]) {
      if (position.risk.exit !== undefined || !match(position)) continue;
      const exit = this.forced(position, reason, time);
      if (exit) exits.push(exit);
    }
    return exits;
  }

  private enforceDailyLoss(accountId: string, time: number): readonly ExitInstruction[] {
    const slot = this.slots.get(accountId);
    return slot === undefined ? NO_EXITS : this.enforceSlot(slot, accountId, time);
  }

  private enforceSlot(slot: AccountSlot, accountId: string, time: number): readonly ExitInstruction[] {
    const account = slot.state;
    if (account === undefined || account.locked || !(account.maxDailyLoss > 0)) return NO_EXITS;
    let day = account.realisedPnl;
    const { positions } = slot;
    for (let i = 0; i < positions.length; i++) {
      const mark = (positions[i] as HeldPosition).mark;
      if (!Number.isNaN(mark)) day += mark;
    }
    if (!(roundToPaisa(day) <= -account.maxDailyLoss)) return NO_EXITS;
    slot.state = { ...account, locked: true };
    return this.forceAll((p) => p.accountId === accountId, 'DAILY_LOSS', time);
  }
}
