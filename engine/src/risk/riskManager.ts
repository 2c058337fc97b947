import { IST_OFFSET_MS, istDate } from '../calendar/ist';
import { roundToPaisa } from '../money';

const DAY_MS = 86_400_000;
import { breachesDailyLoss, createAccountRisk, markUnrealised, realise, rollSession } from './accountRisk';
import type { AccountRiskState } from './accountRisk';
import { createPositionRisk, forceExit, onPrice, unrealisedPnl } from './positionRisk';
import type {
  ExitReason,
  ForcedExitReason,
  PositionRiskConfig,
  PositionRiskState,
  PositionRiskStep,
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

/**
 * Combines every position's risk state machine with each account's daily loss lock and the global trading
 * state. It decides; it never places orders: callers route the returned exits and report fills back through
 * `closePosition`. Deterministic and clock-free (times come with each call), so live and backtest agree.
 */
export class RiskManager {
  private tradingStateValue: TradingState = 'ACTIVE';
  private readonly accounts = new Map<string, AccountRiskState>();
  private readonly positions = new Map<string, RiskPosition>();
  private readonly tradingDateOf: (time: number) => string;
  /** the IST day number and trading date of the last lookup: prices arrive many times a second */
  private lastDay = Number.NaN;
  private lastTradingDate = '';
  private readonly onePositionPerAccount: boolean;

  constructor(options: RiskManagerOptions = {}, snapshot?: RiskSnapshot) {
    this.tradingDateOf = options.tradingDate ?? istDate;
    this.onePositionPerAccount = options.onePositionPerAccount ?? true;
    if (snapshot !== undefined) {
      this.tradingStateValue = snapshot.tradingState;
      for (const account of Object.values(snapshot.accounts)) this.accounts.set(account.accountId, account);
      for (const position of Object.values(snapshot.positions))
        this.positions.set(position.positionId, position);
    }
  }

  /** Restores a manager from `toJSON()` output. */
  static fromJSON(snapshot: RiskSnapshot, options: RiskManagerOptions = {}): RiskManager {
    if (snapshot.version !== 1)
      throw new Error(`unsupported risk snapshot version ${String(snapshot.version)}`);
    return new RiskManager(options, snapshot);
  }

  /** The whole state as plain JSON data. */
  toJSON(): RiskSnapshot {
    return {
      version: 1,
      tradingState: this.tradingStateValue,
      accounts: Object.fromEntries(this.accounts),
      positions: Object.fromEntries(this.positions),
    };
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
    const current = this.accounts.get(accountId) ?? createAccountRisk(accountId, maxDailyLoss);
    this.accounts.set(accountId, { ...current, maxDailyLoss });
  }

  /** The account's risk state (after rolling to the session of `time` when given). */
  account(accountId: string, time?: number): AccountRiskState | undefined {
    if (time !== undefined) this.roll(accountId, time);
    return this.accounts.get(accountId);
  }

  /** Day P&L of an account, realised plus unrealised at the last prices. */
  dayPnl(accountId: string): number {
    const account = this.accounts.get(accountId);
    if (account === undefined) return 0;
    return roundToPaisa(account.realisedPnl + this.unrealised(accountId));
  }

  /** Unrealised P&L of an account's open positions at their last prices, rupees. */
  unrealised(accountId: string): number {
    let sum = 0;
    for (const position of this.positions.values()) {
      if (position.accountId !== accountId) continue;
      const { risk } = position;
      sum += unrealisedPnl(risk, risk.exit?.price ?? risk.lastPrice, position.quantity);
    }
    return roundToPaisa(sum);
  }

  /** Open positions (including those whose exit is in flight). */
  openPositions(accountId?: string): readonly RiskPosition[] {
    return [...this.positions.values()].filter((p) => accountId === undefined || p.accountId === accountId);
  }

  /** Whether `accountId` may open a new position at `time`. */
  canEnter(accountId: string, time: number): { ok: true } | { ok: false; reason: EntryBlock } {
    if (this.tradingStateValue === 'HALTED') return { ok: false, reason: 'HALTED' };
    const account = this.roll(accountId, time);
    if (account === undefined) return { ok: false, reason: 'UNKNOWN_ACCOUNT' };
    if (account.locked) return { ok: false, reason: 'DAILY_LOSS_LOCKED' };
    if (this.onePositionPerAccount && this.openPositions(accountId).length > 0)
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
    this.positions.set(position.positionId, position);
    return { ok: true, position };
  }

  /**
   * Manages a position whose entry filled although entries were blocked meanwhile (halted, locked): the
   * contracts are bought, so their stop, target and square-off still apply.
   */
  adoptPosition(position: RiskPosition): void {
    this.positions.set(position.positionId, position);
  }

  /** Feeds a premium for `symbol`: returns the exits it triggers (stops, targets, square-off, daily loss). */
  onPrice(symbol: string, premium: number, time: number): ExitInstruction[] {
    const exits: ExitInstruction[] = [];
    const touched = new Set<string>();
    for (const position of this.positions.values()) {
      if (position.symbol !== symbol || position.risk.exit !== undefined) continue;
      // The same premium again before the square-off changes nothing: no new high, no stop or target crossed
      // (it would have exited at this premium already), the same unrealised P&L.
      const { risk } = position;
      if (premium === risk.lastPrice && risk.squareOffAt !== null && time < risk.squareOffAt) continue;
      this.roll(position.accountId, time);
      const step = onPrice(position.risk, premium, time);
      const exit = this.record(position, step);
      if (exit) exits.push(exit);
      else
        this.mark(
          position.accountId,
          position.positionId,
          unrealisedPnl(step.state, premium, position.quantity),
        );
      touched.add(position.accountId);
    }
    for (const accountId of touched) exits.push(...this.enforceDailyLoss(accountId, time));
    return exits;
  }

  /** Advances time without a price (a timer): square-off of positions whose symbol has gone quiet. */
  onTime(time: number): ExitInstruction[] {
    const exits: ExitInstruction[] = [];
    for (const position of this.positions.values()) {
      const { risk } = position;
      if (risk.exit !== undefined || risk.squareOffAt === null || time < risk.squareOffAt) continue;
      const exit = this.record(position, forceExit(risk, 'SQUARE_OFF', risk.lastPrice, time));
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
    return this.record(position, forceExit(position.risk, reason, position.risk.lastPrice, time));
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
  closePosition(positionId: string, exitPrice: number, time: number, charges = 0): ExitInstruction[] {
    const position = this.positions.get(positionId);
    if (position === undefined) return [];
    this.positions.delete(positionId);
    const account = this.roll(position.accountId, time);
    if (account === undefined) return [];
    const pnl = (exitPrice - position.risk.entryPrice) * position.quantity - charges;
    this.accounts.set(position.accountId, realise(account, positionId, pnl));
    return this.enforceDailyLoss(position.accountId, time);
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
    const account = this.accounts.get(accountId);
    if (account === undefined) return undefined;
    const rolled = rollSession(account, this.tradingDate(time));
    if (rolled !== account) this.accounts.set(accountId, rolled);
    return rolled;
  }

  private mark(accountId: string, positionId: string, pnl: number): void {
    const account = this.accounts.get(accountId);
    // Only a loss limit reads the marks; `unrealised()` and `dayPnl()` price open positions on demand.
    if (account !== undefined && account.maxDailyLoss > 0)
      this.accounts.set(accountId, markUnrealised(account, positionId, pnl));
  }

  private record(position: RiskPosition, step: PositionRiskStep): ExitInstruction | undefined {
    const next = { ...position, risk: step.state };
    this.positions.set(position.positionId, next);
    if (step.exit === undefined) return undefined;
    // The exit price is the best estimate of the realised figure until the exit order fills.
    this.mark(
      position.accountId,
      position.positionId,
      unrealisedPnl(step.state, step.exit.price, position.quantity),
    );
    return this.instruction(next, step.exit);
  }

  private instruction(
    position: RiskPosition,
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
      const exit = this.record(position, forceExit(position.risk, reason, position.risk.lastPrice, time));
      if (exit) exits.push(exit);
    }
    return exits;
  }

  private enforceDailyLoss(accountId: string, time: number): ExitInstruction[] {
    const account = this.accounts.get(accountId);
    if (account === undefined || account.locked || !breachesDailyLoss(account)) return [];
    this.accounts.set(accountId, { ...account, locked: true });
    return this.forceAll((p) => p.accountId === accountId, 'DAILY_LOSS', time);
  }
}
