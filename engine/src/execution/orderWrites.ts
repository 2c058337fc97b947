import type { OrderStore } from './orderStore';
import type { Order } from './orderTypes';

/** Store writes of one order still in flight, chained so its versions reach the store in order. */
interface PendingWrites {
  /** the latest queued write; rejects when it failed */
  readonly last: Promise<void>;
  /** settles after `last` (never rejects: failures go to `onFailure`) */
  readonly tail: Promise<void>;
}

const RESOLVED: Promise<void> = Promise.resolve();

/**
 * The router's queue of order versions for the store. Versions of one order are written one after another, in the
 * order they were queued; different orders' writes do not wait for each other. Each write starts in a later
 * microtask, never inside the caller's turn, so a store that calls back into the router cannot overtake a write.
 * Only orders with a write in flight are held: an order's chain is forgotten once its latest write settles.
 */
export class OrderWrites {
  private readonly writes = new Map<string, PendingWrites>();

  constructor(
    private readonly store: Pick<OrderStore, 'update'>,
    /** a write that failed (the order's later versions are still written) */
    private readonly onFailure: (order: Order, error: unknown) => void,
  ) {}

  /** Queues a version of an order. */
  queue(order: Order): void {
    const { clientOrderId } = order;
    const previous = this.writes.get(clientOrderId)?.tail ?? RESOLVED;
    const last = previous.then(() => this.store.update(order));
    const tail = last.then(
      () => this.settled(clientOrderId, last),
      (error: unknown) => {
        this.settled(clientOrderId, last);
        this.onFailure(order, error);
      },
    );
    this.writes.set(clientOrderId, { last, tail });
  }

  /**
   * The order's latest queued write, which rejects when it failed; undefined when none is in flight. Ask right after
   * queueing the version that matters: a write that already settled is no longer held.
   */
  durable(clientOrderId: string): Promise<void> | undefined {
    return this.writes.get(clientOrderId)?.last;
  }

  /** Resolves once every queued version (of `clientOrderIds` only, when given) is written or has failed. */
  async written(clientOrderIds?: readonly string[]): Promise<void> {
    const pending = () =>
      clientOrderIds === undefined
        ? [...this.writes.values()]
        : clientOrderIds.flatMap((id) => this.writes.get(id) ?? []);
    for (let left = pending(); left.length > 0; left = pending()) await Promise.all(left.map((w) => w.tail));
  }

  private settled(clientOrderId: string, last: Promise<void>): void {
    if (this.writes.get(clientOrderId)?.last === last) this.writes.delete(clientOrderId);
  }
}
