import { isTerminal } from './orderStateMachine';
import type { Order } from './orderTypes';

/**
 * Persistence port for orders. The server implements it on its database (append-only audit log beside it);
 * tests and backtests use `InMemoryOrderStore`.
 *
 * Contract: `create` resolves only once the order is durable, and the router calls it before any broker call,
 * so a crash between the two leaves a record to reconcile instead of an order nobody knows about. `create`
 * must refuse a second order with the same `intentKey` (a unique index) — that is what makes entries
 * idempotent across restarts and across two processes.
 */
export interface OrderStore {
  /** persists a new order; rejects with `DuplicateIntentError` when its `intentKey` is already used */
  create(order: Order): Promise<void>;
  /** persists the order's new state (same `clientOrderId`) */
  update(order: Order): Promise<void>;
  get(clientOrderId: string): Promise<Order | undefined>;
  findByIntentKey(intentKey: string): Promise<Order | undefined>;
  /** orders of an account that are not in a terminal state, for reconciliation after a restart */
  listOpen(accountId?: string): Promise<readonly Order[]>;
}

/** Raised by `OrderStore.create` when an order with the same intent key exists. */
export class DuplicateIntentError extends Error {
  constructor(readonly intentKey: string) {
    super(`an order for intent ${intentKey} already exists`);
    this.name = 'DuplicateIntentError';
  }
}

/** An `OrderStore` in memory, for tests and backtests. Keeps every version written, for assertions. */
export class InMemoryOrderStore implements OrderStore {
  private readonly orders = new Map<string, Order>();
  private readonly byIntent = new Map<string, string>();
  /** every order version in write order */
  readonly writes: Order[] = [];

  async create(order: Order): Promise<void> {
    if (this.byIntent.has(order.intentKey)) throw new DuplicateIntentError(order.intentKey);
    if (this.orders.has(order.clientOrderId)) throw new Error(`order ${order.clientOrderId} already exists`);
    this.byIntent.set(order.intentKey, order.clientOrderId);
    this.orders.set(order.clientOrderId, order);
    this.writes.push(order);
  }

  async update(order: Order): Promise<void> {
    if (!this.orders.has(order.clientOrderId)) throw new Error(`order ${order.clientOrderId} does not exist`);
    this.orders.set(order.clientOrderId, order);
    this.writes.push(order);
  }

  async get(clientOrderId: string): Promise<Order | undefined> {
    return this.orders.get(clientOrderId);
  }

  async findByIntentKey(intentKey: string): Promise<Order | undefined> {
    const id = this.byIntent.get(intentKey);
    return id === undefined ? undefined : this.orders.get(id);
  }

  async listOpen(accountId?: string): Promise<readonly Order[]> {
    return [...this.orders.values()].filter(
      (order) => !isTerminal(order.state) && (accountId === undefined || order.accountId === accountId),
    );
  }

  /** every order currently stored */
  all(): readonly Order[] {
    return [...this.orders.values()];
  }
}
