import type { SchedulerLike, Subscription } from 'rxjs';
import { toProtectedLimit } from '../execution/marketProtection';
import { isTerminal } from '../execution/orderStateMachine';
import type { OrderRouter } from '../execution/orderRouter';
import type { BrokerAmendment } from '../execution/broker';
import type { Order } from '../execution/orderTypes';
import { roundToTick } from '../instruments/strikes';
import { cancelAndSettle } from './orderFills';

import type { RestingStop } from './positionBook';

/** The position a stop protects; the stop resting for it is held by the position itself (`restingStop`). */
export interface ProtectedPosition {
  readonly positionId: string;
  readonly accountId: string;
  readonly symbol: string;
  readonly quantity: number;
  restingStop: RestingStop | undefined;
}

export interface RestingStopsOptions {
  readonly router: OrderRouter;
  readonly scheduler: SchedulerLike;
  readonly tickSize: number;
  /** how long a cancel may take to settle before the exit is retried (engine ms) */
  readonly settleTimeoutMs: number;
  /** the position of a stop order (the book's lookup), to see its stop fill at the broker */
  readonly positionOf: (positionId: string) => ProtectedPosition | undefined;
  /** a resting stop filled at the broker on its own (the exchange crossed it, or OptionPilot was away) */
  readonly onFilled: (positionId: string) => void;
  /** a stop that could not rest at the broker: the engine still watches the stop itself */
  readonly warn: (positionId: string, accountId: string, message: string) => void;
}

/**
 * Stops that rest at the broker (issue 10 item 5): for a live position the stop is a SELL SL-M order at the broker
 * (sent as a protected stop-limit where the broker requires it) from the moment the entry fills, so the position is
 * protected while OptionPilot is down. A trailing stop modifies it; any exit first releases it (cancel, then read
 * what filled), so an exit never sells twice; a stop that fills at the broker by itself closes the trade. After a
 * restart the stop is found again among the recovered orders by its purpose and position. The stop itself is the
 * position's (`restingStop`); this class holds only the work in flight on it.
 */
export class RestingStops {
  /** placements still in flight: an exit waits for them, or the stop could land after the position is sold */
  private readonly placing = new Map<string, Promise<void>>();
  /** the latest queued move of each position's stop (an exit waits for it before it cancels) */
  private readonly moving = new Map<string, Promise<void>>();
  private readonly watch: Subscription;

  constructor(private readonly options: RestingStopsOptions) {
    this.watch = options.router.changes$.subscribe((order) => {
      if (order.purpose !== 'stop' || order.state !== 'FILLED') return;
      const positionId = order.positionId ?? '';
      const resting = options.positionOf(positionId)?.restingStop;
      if (resting?.ids.includes(order.clientOrderId) !== true) return;
      const legs = resting.ids.map((id) => options.router.getOrder(id));
      if (legs.every((leg) => leg?.state === 'FILLED')) options.onFilled(positionId);
    });
  }

  /** Whether a stop rests (or is being placed) for the position. */
  has(position: ProtectedPosition): boolean {
    return position.restingStop !== undefined || this.placing.has(position.positionId);
  }

  /** The SELL stop's trigger for a stop price: on the tick grid, never above the stop. */
  private triggerOf(stopPrice: number): number {
    return Math.max(this.options.tickSize, roundToTick(stopPrice, this.options.tickSize, 'down'));
  }

  /** Places the stop of a filled live entry at the broker. */
  place(position: ProtectedPosition, stopPrice: number, seq = 0): Promise<void> {
    const pending = this.send(position, stopPrice, seq).finally(() =>
      this.placing.delete(position.positionId),
    );
    this.placing.set(position.positionId, pending);
    return pending;
  }

  private async send(position: ProtectedPosition, stopPrice: number, seq: number): Promise<void> {
    const trigger = this.triggerOf(stopPrice);
    const next = seq + 1;
    const result = await this.options.router.submit({
      purpose: 'stop',
      positionId: position.positionId,
      sequence: next,
      accountId: position.accountId,
      symbol: position.symbol,
      side: 'SELL',
      quantity: position.quantity,
      type: 'SL-M',
      triggerPrice: trigger,
    });
    const ids = result.orders.filter((o) => o.state !== 'REJECTED').map((o) => o.clientOrderId);
    if (ids.length === 0) {
      const reason = result.orders.find((o) => o.reason !== undefined)?.reason ?? 'refused';
      this.options.warn(
        position.positionId,
        position.accountId,
        `the stop could not rest at the broker (${reason}): OptionPilot still exits at the stop while it runs`,
      );
      return;
    }
    position.restingStop = { ids, trigger, seq: next };
  }

  /**
   * After a restart: adopts the stop orders recovered for a live position (so an exit takes them off before it
   * sells), or places one when none is open and `placeIfMissing` (the process stopped between the entry's fill and
   * the stop; not when an exit is already under way).
   */
  async restore(position: ProtectedPosition, stopPrice: number, placeIfMissing: boolean): Promise<void> {
    const mine = this.options.router
      .listOrders()
      .filter((o) => o.purpose === 'stop' && o.positionId === position.positionId);
    const seq = Math.max(0, ...mine.map((o) => o.sequence));
    const open = mine.filter((o) => !isTerminal(o.state) || o.state === 'FILLED');
    const current = open.filter((o) => o.sequence === seq);
    if (current.length > 0) {
      position.restingStop = {
        ids: current.map((o) => o.clientOrderId),
        trigger: current[0]?.triggerPrice ?? this.triggerOf(stopPrice),
        seq,
      };
      return;
    }
    if (placeIfMissing) await this.place(position, stopPrice, seq);
  }

  /**
   * Follows a moved (trailing) stop at the broker; a move of less than a tick sends nothing. Moves of one position
   * run one after another (a modify still pending at the broker would refuse the next); other positions' moves do
   * not wait for them.
   */
  move(position: ProtectedPosition, stopPrice: number): Promise<void> {
    const { positionId } = position;
    const previous = this.moving.get(positionId) ?? Promise.resolve();
    const next = previous.then(() => this.modify(position, stopPrice));
    const settled = next.catch(() => undefined);
    this.moving.set(positionId, settled);
    void settled.then(() => {
      if (this.moving.get(positionId) === settled) this.moving.delete(positionId);
    });
    return next;
  }

  private async modify(position: ProtectedPosition, stopPrice: number): Promise<void> {
    const resting = position.restingStop;
    if (resting === undefined) return;
    const trigger = this.triggerOf(stopPrice);
    if (Math.abs(trigger - resting.trigger) < this.options.tickSize / 2) return;
    resting.trigger = trigger;
    for (const id of resting.ids) {
      const order = this.options.router.getOrder(id);
      if (order === undefined || isTerminal(order.state)) continue;
      const amendment: BrokerAmendment =
        order.protectedFrom === 'SL-M'
          ? {
              triggerPrice: trigger,
              // The protected limit follows the trigger, as when the stop was placed.
              price: toProtectedLimit(
                { type: 'SL-M', side: 'SELL', triggerPrice: trigger },
                0,
                this.options.tickSize,
              ).price,
            }
          : { triggerPrice: trigger };
      await this.options.router.modify(id, amendment);
    }
  }

  /**
   * Takes the stop off the broker before an exit: cancels what is still open and waits for the broker's word.
   * Resolves with the stop's legs as they settled (any filled part counts towards the exit), or `undefined` when
   * the broker has not confirmed in time: then nothing may be sold yet (the stop could still fill).
   */
  async release(position: ProtectedPosition): Promise<Order[] | undefined> {
    const { positionId } = position;
    await this.placing.get(positionId)?.catch(() => undefined);
    await this.moving.get(positionId);
    const resting = position.restingStop;
    if (resting === undefined) return [];
    const legs = await cancelAndSettle(
      this.options.router,
      resting.ids,
      this.options.scheduler,
      this.options.settleTimeoutMs,
    );
    if (legs === undefined) return undefined;
    position.restingStop = undefined;
    return legs;
  }

  stop(): void {
    this.watch.unsubscribe();
  }
}
