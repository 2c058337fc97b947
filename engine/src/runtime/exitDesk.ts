import type { Subscription } from 'rxjs';
import { roundTripCharges } from '../charges/charges';
import type { ExitInstruction } from '../risk/riskManager';
import { copyPositionRisk, unrealisedPnl } from '../risk/positionRisk';
import type { PositionRiskState } from '../risk/positionRisk';
import { DISCONNECTED_BROKER } from '../execution/disconnectedBroker';
import { isTerminal } from '../execution/orderStateMachine';
import { roundToPaisa } from '../money';
import type { Order } from '../execution/orderTypes';
import { averageFill, cancelAndSettle, settledOrders } from './orderFills';
import { Position, persistedRiskKey } from './positionBook';
import { RestingStops } from './restingStops';
import type { DeskContext } from './deskContext';
import type { TradingRuntimeOptions } from './runtimeOptions';
import type { CloseReason, OrderFill, TradeOpen } from './types';

const DEFAULT_EXIT_RETRY_MS = 1_000;
const DEFAULT_FILL_TIMEOUT_MS = 30_000;

/**
 * A stop's close reason: a stop above the initial one (trailed) is a trailing stop, else the stop-loss. `stop` is
 * the stop that sold: the resting order's trigger when the broker filled it, which may lag the engine's stop.
 */
function stopReason(risk: PositionRiskState, stop = risk.stopPrice): 'TRAILING_STOP' | 'STOP_LOSS' {
  return stop > risk.initialStop ? 'TRAILING_STOP' : 'STOP_LOSS';
}

/** Adds settled fills to what was sold before, each order once (a later version of an order replaces it). */
function mergeFills(soldBefore: OrderFill[], fills: readonly OrderFill[]): void {
  for (const fill of fills) {
    const at = soldBefore.findIndex((f) => f.clientOrderId === fill.clientOrderId);
    if (at >= 0) soldBefore[at] = fill;
    else soldBefore.push(fill);
  }
}

/**
 * Exits: the risk manager's decisions (stop, trailing stop, target, square-off, daily loss, flatten-all) are routed
 * as SELL orders, re-sent while they do not fill, and closed with charges and net P&L once they do. A live
 * position's stop also rests at the broker (restingStops.ts); every exit takes it off first.
 */
export class ExitDesk {
  /** symbols quoted since the last `flushRisk` */
  private readonly dirty = new Set<string>();
  /** the symbol last added to `dirty`: a symbol quoted again and again is added once */
  private lastDirty: string | undefined;
  private readonly retries = new Set<Subscription>();
  private readonly stops: RestingStops;

  constructor(
    private readonly ctx: DeskContext,
    private readonly options: TradingRuntimeOptions,
  ) {
    this.stops = new RestingStops({
      router: ctx.router,
      scheduler: options.scheduler,
      tickSize: options.expiries.tickSize,
      settleTimeoutMs: options.fillTimeoutMs ?? DEFAULT_FILL_TIMEOUT_MS,
      positionOf: (positionId) => ctx.book.get(positionId),
      onFilled: (positionId) => this.stopFilledAtBroker(positionId),
      warn: (positionId, accountId, message) =>
        options.events({ kind: 'log', level: 'warn', accountId, message: `trade ${positionId}: ${message}` }),
    });
  }

  /** Starts managing a filled entry's position (in the book already); a live one's stop goes to rest at the broker. */
  adopt(position: Position): void {
    if (position.trade.paper) return;
    this.ctx.track(
      `stop of trade ${position.id}`,
      this.stops.place(position, position.risk.stopPrice),
      position.accountId,
    );
  }

  /**
   * Takes a position held before a restart into the book (its risk state restored into the risk manager first),
   * exiting if its exit had been decided; its symbol is quoted again. Its resting stop is found again by
   * restoreExits(), once the router has its orders back.
   */
  restorePosition(
    tradeId: string,
    trade: TradeOpen,
    exitSeq: number,
    exitFills: readonly OrderFill[] = [],
  ): void {
    const existing = this.ctx.book.get(tradeId);
    let risk = this.ctx.risk.position(tradeId)?.risk;
    if (risk === undefined) {
      // An open trade without a risk state: the contracts are held, so its stop, target and square-off still apply.
      this.ctx.risk.adoptPosition({
        positionId: tradeId,
        accountId: trade.accountId,
        symbol: trade.symbol,
        quantity: trade.quantity,
        openedAt: trade.entryTime,
        risk: trade.risk,
      });
      risk = this.ctx.risk.position(tradeId)?.risk ?? trade.risk;
    }
    if (existing !== undefined) {
      // Restored again over a live book: the position follows the new risk manager's state.
      existing.holdRisk(risk);
      return;
    }
    this.ctx.book.add(
      Position.held(tradeId, trade, risk, risk.exit === undefined ? 'OPEN' : 'EXITING', {
        exitSeq,
        persistedKey: persistedRiskKey(trade.risk),
        soldBefore: exitFills.filter((f) => f.filledQty > 0),
      }),
    );
    this.ctx.quotes.subscribeQuote(trade.symbol);
  }

  /**
   * After a restart (the router's open orders recovered): a trade whose exit had already sold it all is closed on
   * those fills; each other live position's resting stop is found or placed again.
   */
  async restoreExits(): Promise<void> {
    for (const position of [...this.ctx.book.values()]) {
      const { risk } = position;
      if (averageFill(position.soldBefore).quantity >= position.quantity) {
        this.exit({
          positionId: position.id,
          accountId: position.accountId,
          symbol: position.symbol,
          quantity: position.quantity,
          reason: risk.exit?.reason ?? 'MANUAL',
          price: risk.exit?.price ?? risk.lastPrice,
          time: this.options.scheduler.now(),
        });
        continue;
      }
      if (position.trade.paper) continue;
      await this.stops.restore(position, risk.stopPrice, risk.exit === undefined);
    }
  }

  /** The broker filled a resting stop by itself: the trade closes on that fill. */
  private stopFilledAtBroker(positionId: string): void {
    const position = this.ctx.book.get(positionId);
    if (position === undefined) return;
    this.exit({
      positionId,
      accountId: position.accountId,
      symbol: position.symbol,
      quantity: position.quantity,
      reason: stopReason(position.risk),
      price: position.risk.stopPrice,
      time: this.options.scheduler.now(),
    });
  }

  trade(tradeId: string): TradeOpen | undefined {
    return this.ctx.book.get(tradeId)?.trade;
  }

  /** The earliest square-off among open positions. */
  nextSquareOff(): number | undefined {
    return this.ctx.risk.nextSquareOff();
  }

  /** A quote of a held symbol: only the positions on it are updated, in place (nothing allocated per quote). */
  onPrice(symbol: string, premium: number, time: number): void {
    const exits = this.ctx.risk.onPrice(symbol, premium, time);
    if (symbol !== this.lastDirty) {
      this.dirty.add(symbol);
      this.lastDirty = symbol;
    }
    for (let i = 0; i < exits.length; i++) this.exit(exits[i] as ExitInstruction);
  }

  onTime(time: number): void {
    for (const instruction of this.ctx.risk.onTime(time)) this.exit(instruction);
  }

  flattenAll(time: number): number {
    const instructions = this.ctx.risk.flattenAll(time);
    for (const instruction of instructions) this.exit(instruction);
    return instructions.length;
  }

  resume(time: number): void {
    for (const position of [...this.ctx.book.values()]) {
      if (position.risk.exit === undefined) continue;
      const again = this.ctx.risk.retryExit(position.id, time);
      if (again !== undefined) this.exit(again);
    }
  }

  stop(): void {
    for (const retry of this.retries) retry.unsubscribe();
    this.retries.clear();
    this.stops.stop();
  }

  /** Backtests' end of data: every open position closes at its last price, recorded with `reason`. */
  async closeAllAtLast(reason: CloseReason, time: number): Promise<void> {
    for (const position of [...this.ctx.book.values()]) await this.sell(position, reason, time);
  }

  /**
   * Persists moved stops and reports each open trade's mark-to-market P&L: the trades on the symbols quoted since
   * the last flush. What is persisted and published is a copy (the live risk state moves with every quote).
   */
  async flushRisk(): Promise<void> {
    const symbols = new Set(this.dirty);
    this.dirty.clear();
    this.lastDirty = undefined;
    const quoted = [...this.ctx.book.values()].filter((p) => symbols.has(p.symbol));
    for (const position of quoted) {
      // closed meanwhile (an earlier position's save let prices and exits move on)
      if (!this.ctx.book.has(position.id)) continue;
      // a copy taken now: what is written and published must not move with later quotes
      const risk = copyPositionRisk(position.risk);
      const key = persistedRiskKey(risk);
      const stopMoved = key !== position.persistedKey;
      if (stopMoved) {
        await this.options.store.saveRisk(position.id, risk);
        position.persistedKey = key;
        // At most one modify per flush (≈ 1 s) per position: well inside the broker's 10 orders/s.
        // Tracked, not awaited: one account's slow broker never holds up the other positions' flush.
        if (position.risk.exit === undefined) {
          this.ctx.track(
            `stop move of trade ${position.id}`,
            this.stops.move(position, position.risk.stopPrice),
            position.accountId,
          );
        }
      }
      const markPnl = roundToPaisa(unrealisedPnl(risk, risk.lastPrice, position.quantity));
      this.options.events({
        kind: 'trade-updated',
        tradeId: position.id,
        accountId: position.accountId,
        risk,
        markPnl,
        stopMoved,
      });
    }
  }

  private exit(instruction: ExitInstruction): void {
    this.ctx.track(
      `exit of trade ${instruction.positionId}`,
      this.runExit(instruction),
      instruction.accountId,
    );
  }

  private async runExit(instruction: ExitInstruction): Promise<void> {
    const position = this.ctx.book.get(instruction.positionId);
    if (position === undefined || position.busy) return;
    position.busy = true;
    let filled = false;
    try {
      filled = await this.sell(position, instruction.reason, instruction.time, instruction.price);
    } finally {
      position.busy = false;
      if (!filled) this.retryLater(instruction.positionId);
    }
  }

  /** Routes the SELL of a position; on a full fill records the close. Returns whether it filled. */
  private async sell(
    position: Position,
    reason: CloseReason,
    time: number,
    trigger = position.risk.lastPrice,
  ): Promise<boolean> {
    // closed meanwhile (a resting stop's fill, the broker's word): nothing left to sell
    if (this.ctx.book.get(position.id) !== position) return false;
    const record = position;
    // A live account without a broker session: the position is at the broker, so it can be sold only there. The
    // exit waits (retried each second, sending nothing) until the trader reconnects.
    if (record.state === 'OPEN') record.move('EXITING');
    if (this.ctx.router.brokerName(position.accountId) === DISCONNECTED_BROKER) {
      if (record.state !== 'WAITING_FOR_SESSION') {
        record.move('WAITING_FOR_SESSION');
        this.options.events({
          kind: 'log',
          level: 'warn',
          accountId: position.accountId,
          message: `trade ${position.positionId}: exit (${reason}) waits for the broker session; its stop still rests at the broker`,
        });
      }
      return false;
    }
    if (record.state === 'WAITING_FOR_SESSION') record.move('EXITING');
    // The index when the exit was decided, before later ticks move it while the order is in flight.
    const exitIndex = this.ctx.lastIndex();
    // A stop resting at the broker comes off first; until the broker confirms, selling could sell twice.
    if (!(await this.releaseStop(position))) return false;
    // An earlier exit order still open at the broker (its fill timed out, or it was in flight at a restart) could
    // still fill: it is cancelled and settled first and whatever it filled counts, so a retry never oversells.
    // (No exit order was ever sent for a trade whose exit sequence is still 0: nothing to look for.)
    const earlier = record.exitSeq === 0 ? [] : await this.settleOpenExits(position.positionId);
    if (earlier === undefined) return false;
    mergeFills(record.soldBefore, earlier);
    const remaining = position.quantity - averageFill(record.soldBefore).quantity;
    let sold: Order[] = [];
    if (remaining > 0) {
      record.exitSeq += 1;
      const result = await this.ctx.router.submit({
        purpose: 'exit',
        positionId: position.positionId,
        sequence: record.exitSeq,
        accountId: position.accountId,
        symbol: position.symbol,
        side: 'SELL',
        quantity: remaining,
        type: 'MARKET',
      });
      sold = await settledOrders(
        this.ctx.router,
        result.orders.map((o) => o.clientOrderId),
        this.options.scheduler,
        this.options.fillTimeoutMs ?? DEFAULT_FILL_TIMEOUT_MS,
      );
      if (sold.length === 0 || sold.some((o) => o.state !== 'FILLED')) {
        // A leg that ended part-filled (cancelled, expired) sold that part: the retry sells only the rest. A leg
        // still open is taken off by the retry first (settleOpenExits).
        mergeFills(
          record.soldBefore,
          sold.filter((o) => isTerminal(o.state) && o.filledQty > 0),
        );
        return false;
      }
    }
    const orders = [...record.soldBefore, ...sold];
    if (averageFill(orders).quantity !== position.quantity) return false;
    // The fills decide what closed it: a stop that sold at the broker first makes it a stop, whatever was decided.
    const stopped = record.stopTrigger !== undefined;
    await this.record(
      position,
      orders,
      orders,
      stopped ? stopReason(position.risk, record.stopTrigger) : reason,
      time,
      record.stopTrigger ?? trigger,
      exitIndex,
    );
    return true;
  }

  /**
   * Takes the position's resting stop off the broker (if one rests) and counts what it sold. Resolves false while
   * the broker has not confirmed: nothing may be sold yet.
   */
  private async releaseStop(position: Position): Promise<boolean> {
    if (!this.stops.has(position)) return true;
    const released = await this.stops.release(position);
    if (released === undefined) return false;
    const filled = released.filter((o) => o.filledQty > 0);
    mergeFills(position.soldBefore, filled);
    const trigger = filled.find((o) => o.triggerPrice !== undefined)?.triggerPrice;
    if (filled.length > 0) position.stopTrigger = trigger ?? position.stopTrigger ?? position.risk.stopPrice;
    return true;
  }

  /**
   * The broker no longer holds a live position (positions reconciled, positionCheck.ts): its resting stop comes off
   * and the trade closes as `BROKER`, what no order of OptionPilot's sold valued at the last price. Returns whether
   * it closed (not while an exit is under way, nor while the broker has not confirmed the stop's cancel).
   */
  async closeAtBroker(positionId: string, time: number): Promise<boolean> {
    const position = this.ctx.book.get(positionId);
    if (position === undefined || position.busy) return false;
    position.busy = true;
    try {
      if (!(await this.releaseStop(position))) return false;
      const { risk, soldBefore, stopTrigger } = position;
      const gone = position.quantity - averageFill(soldBefore).quantity;
      const atBroker = { clientOrderId: 'broker', filledQty: gone, avgPrice: risk.lastPrice };
      const fills = gone > 0 ? [...soldBefore, atBroker] : soldBefore;
      const lastIndex = this.ctx.lastIndex();
      // Sold by its own resting stop entirely: a stop, not a sale outside OptionPilot.
      const stopped = stopTrigger !== undefined && gone <= 0;
      await this.record(
        position,
        fills,
        soldBefore,
        stopped ? stopReason(risk, stopTrigger) : 'BROKER',
        time,
        stopped ? (stopTrigger ?? risk.lastPrice) : risk.lastPrice,
        lastIndex,
      );
      return true;
    } finally {
      position.busy = false;
    }
  }

  /** Records a position's close on `fills` (which sold all of it): charges, net P&L, the store, the event. */
  private async record(
    position: Position,
    fills: readonly OrderFill[],
    orders: readonly OrderFill[],
    reason: CloseReason,
    time: number,
    trigger: number,
    exitIndex: number,
  ): Promise<void> {
    const fill = averageFill(fills);
    const { trade } = position;
    const charges = roundTripCharges(
      {
        buyPremium: trade.entryPremium,
        sellPremium: fill.price,
        quantity: trade.quantity,
        buyOrders: trade.legs,
        sellOrders: trade.legs,
      },
      this.options.chargeRates,
    ).total;
    const grossPnl = roundToPaisa((fill.price - trade.entryPremium) * trade.quantity);
    const final = copyPositionRisk(position.risk);
    const followUps = this.ctx.risk.closePosition(position.id, fill.price, time, charges);
    this.ctx.book.close(position.id);
    const close = {
      tradeId: position.id,
      accountId: position.accountId,
      // A close is never recorded before its open, whatever clock the exit's trigger carried.
      exitTime: Math.max(time, trade.entryTime),
      exitIndex,
      exitPremium: fill.price,
      exitTrigger: trigger,
      reason,
      grossPnl,
      charges,
      netPnl: roundToPaisa(grossPnl - charges),
      risk: final,
      orderIds: orders.map((o) => o.clientOrderId),
    };
    // The trade's rows never run ahead of its orders': their filled versions are written first.
    await this.ctx.router.written(close.orderIds);
    await this.options.store.closeTrade(close);
    this.ctx.quotes.unsubscribeQuote(trade.symbol);
    this.options.events({ kind: 'trade-closed', close });
    // A realised loss can hit the daily limit and flatten the account's other positions.
    for (const instruction of followUps) this.exit(instruction);
    this.ctx.deadlinesChanged();
  }

  /**
   * Cancels the position's exit orders that are still open and waits for the broker's word. Resolves with what
   * they filled (the settled legs), or undefined while any outcome is still unknown: then nothing may be sold.
   */
  private async settleOpenExits(positionId: string): Promise<Order[] | undefined> {
    const { router } = this.ctx;
    const open = router
      .listOrders()
      .filter((o) => o.purpose === 'exit' && o.positionId === positionId && !isTerminal(o.state));
    if (open.length === 0) return [];
    const legs = await cancelAndSettle(
      router,
      open.map((o) => o.clientOrderId),
      this.options.scheduler,
      this.options.fillTimeoutMs ?? DEFAULT_FILL_TIMEOUT_MS,
    );
    return legs?.filter((o) => o.filledQty > 0);
  }

  private retryLater(positionId: string): void {
    const { scheduler } = this.options;
    const retry = scheduler.schedule(() => {
      this.retries.delete(retry);
      const again = this.ctx.risk.retryExit(positionId, scheduler.now());
      if (again !== undefined) this.exit(again);
    }, this.options.exitRetryMs ?? DEFAULT_EXIT_RETRY_MS);
    this.retries.add(retry);
  }
}
