import { Subject } from 'rxjs';
import type { Observable, SchedulerLike } from 'rxjs';
import type { BrokerOrderSnapshot } from './broker';
import { applyOrderEvent } from './orderStateMachine';
import type { OrderEvent, OrderTransitionError } from './orderStateMachine';
import type { OrderStore } from './orderStore';
import type { Order } from './orderTypes';
import { OrderWrites } from './orderWrites';

/** An event the router refused or a persistence failure: for the audit log and operators. */
export interface RouterAnomaly {
  readonly clientOrderId?: string;
  readonly accountId?: string;
  readonly message: string;
  readonly error?: OrderTransitionError;
}

/**
 * The router's orders in memory, shared by submission (orderRouter.ts) and resolution (orderResolver.ts): every
 * event goes through the state machine here, is applied at once (so concurrent events see each other), queued for
 * the store in order, and published on `changes$`.
 */
export class OrderLedger {
  private readonly orders = new Map<string, Order>();
  private readonly byBrokerId = new Map<string, string>();
  private readonly writes: OrderWrites;
  private readonly changes = new Subject<Order>();
  private readonly anomalies = new Subject<RouterAnomaly>();
  /** listeners of one order's changes: a change reaches only its own order's waiters, not every waiter */
  private readonly watchers = new Map<string, Set<(order: Order) => void>>();

  /** every order change, after it is applied (persistence follows in order) */
  readonly changes$: Observable<Order> = this.changes.asObservable();
  /** refused events and persistence failures */
  readonly anomalies$: Observable<RouterAnomaly> = this.anomalies.asObservable();

  constructor(
    store: OrderStore,
    private readonly scheduler: SchedulerLike,
  ) {
    this.writes = new OrderWrites(store, (order, error) =>
      this.anomalies.next({
        clientOrderId: order.clientOrderId,
        accountId: order.accountId,
        message: `store.update failed: ${String(error)}`,
      }),
    );
  }

  get(clientOrderId: string): Order | undefined {
    return this.orders.get(clientOrderId);
  }

  /** Every order, in the order they became known. */
  all(): IterableIterator<Order> {
    return this.orders.values();
  }

  /** The tracked order a broker's update is about (by our client id or the broker's id); undefined when not ours. */
  idOf(snapshot: BrokerOrderSnapshot): string | undefined {
    const clientOrderId = snapshot.clientOrderId ?? this.byBrokerId.get(snapshot.brokerOrderId);
    return clientOrderId !== undefined && this.orders.has(clientOrderId) ? clientOrderId : undefined;
  }

  /** Tracks an order (new, or loaded from the store). */
  remember(order: Order, previous?: Order): void {
    this.orders.set(order.clientOrderId, order);
    if (order.brokerOrderId !== undefined && order.brokerOrderId !== previous?.brokerOrderId)
      this.byBrokerId.set(order.brokerOrderId, order.clientOrderId);
  }

  /** Tracks an order the store has just created, and publishes it. */
  created(order: Order): void {
    this.remember(order);
    this.publish(order);
  }

  /** Calls `listener` with every later version of one order; returns the function that stops it. */
  watch(clientOrderId: string, listener: (order: Order) => void): () => void {
    let listeners = this.watchers.get(clientOrderId);
    if (listeners === undefined) this.watchers.set(clientOrderId, (listeners = new Set()));
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0 && this.watchers.get(clientOrderId) === listeners)
        this.watchers.delete(clientOrderId);
    };
  }

  private publish(order: Order): void {
    // Skipped when nobody listens: a Subject allocates per `next` even with no observers.
    if (this.changes.observed) this.changes.next(order);
    const listeners = this.watchers.get(order.clientOrderId);
    if (listeners !== undefined) for (const listener of listeners) listener(order);
  }

  /** The tracked version of a stored order, tracking it first if this process has not seen it. */
  known(stored: Order): Order {
    const tracked = this.orders.get(stored.clientOrderId);
    if (tracked !== undefined) return tracked;
    this.remember(stored);
    return stored;
  }

  /** Applies a broker's report of an order. */
  applySnapshot(clientOrderId: string, snapshot: BrokerOrderSnapshot): Order {
    return this.apply(clientOrderId, {
      type: 'STATUS',
      time: Math.max(snapshot.time, this.scheduler.now()),
      status: snapshot.status,
      filledQty: snapshot.filledQty,
      avgPrice: snapshot.avgPrice,
      brokerOrderId: snapshot.brokerOrderId,
      reason: snapshot.reason,
    });
  }

  /** Applies an event in memory at once (so concurrent events see each other) and queues its persistence. */
  apply(clientOrderId: string, event: OrderEvent): Order {
    const current = this.orders.get(clientOrderId);
    if (current === undefined) throw new Error(`unknown order ${clientOrderId}`);
    const result = applyOrderEvent(current, event);
    if (!result.ok) {
      this.anomalies.next({
        clientOrderId,
        accountId: current.accountId,
        message: result.error.message,
        error: result.error,
      });
      return current;
    }
    if (result.order === current) return current;
    this.remember(result.order, current);
    this.writes.queue(result.order);
    this.publish(result.order);
    return result.order;
  }

  /** Reports something an operator should know. */
  anomaly(anomaly: RouterAnomaly): void {
    this.anomalies.next(anomaly);
  }

  /** Resolves once every queued version (of `clientOrderIds` only, when given) is written or has failed. */
  written(clientOrderIds?: readonly string[]): Promise<void> {
    return this.writes.written(clientOrderIds);
  }

  /** The pending write that makes the order's latest version durable, if one is queued. */
  durable(clientOrderId: string): Promise<void> | undefined {
    return this.writes.durable(clientOrderId);
  }
}
