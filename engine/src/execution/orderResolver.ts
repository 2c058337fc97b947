import type { SchedulerLike } from 'rxjs';
import type { Broker } from './broker';
import type { OrderLedger } from './orderLedger';
import { isTerminal } from './orderStateMachine';
import type { OrderStore } from './orderStore';
import type { Order } from './orderTypes';

const DEFAULT_BACKOFF_MS: readonly number[] = [500, 1_000, 2_000, 4_000, 8_000, 15_000, 30_000];

/** What the resolver needs of the router: its orders, its accounts' brokers and its request timeout. */
export interface ResolutionContext {
  readonly scheduler: SchedulerLike;
  readonly store: OrderStore;
  /** waits between status queries that resolve an order (default 0.5 s … 30 s) */
  readonly resolveBackoffMs?: readonly number[];
  /** the router's orders: what the broker says is applied there */
  readonly ledger: OrderLedger;
  /** the broker of a registered account */
  broker(accountId: string): Broker | undefined;
  /** a broker call under the router's request timeout */
  withTimeout<T>(promise: Promise<T>): Promise<T>;
}

/**
 * Resolution of orders whose outcome the router does not know: an UNKNOWN order (a request that timed out or a
 * dropped connection), the open orders a stopped process left (`recover`), and everything still open when the
 * broker is asked again (`reconcile`). An order is resolved by asking its broker, never by sending it again.
 */
export class OrderResolver {
  private readonly background = new Set<Promise<void>>();
  /** recovered open orders of accounts not registered yet: resolved once their account is */
  private readonly recoveredFor = new Map<string, string[]>();

  constructor(private readonly context: ResolutionContext) {}

  /** Resolutions still running in the background. */
  get pending(): number {
    return this.background.size;
  }

  /** Resolves once every background resolution has finished (including ones started meanwhile). */
  async settled(): Promise<void> {
    while (this.background.size > 0) await Promise.all([...this.background]);
  }

  /** Resolves an order in the background by asking its account's broker (`resolveByAsking`). */
  resolve(broker: Broker, clientOrderId: string): void {
    this.track(this.resolveByAsking(broker, clientOrderId));
  }

  /** An account was registered: its recovered orders are resolved now. */
  accountAdded(accountId: string, broker: Broker): void {
    const recovered = this.recoveredFor.get(accountId) ?? [];
    this.recoveredFor.delete(accountId);
    for (const id of recovered) this.resolve(broker, id);
  }

  /**
   * Loads non-terminal orders from the store (after a restart) so updates and `reconcile` can reach them, and
   * settles each: an order still INITIALIZED was never sent (the broker is called only once SUBMITTED is durable),
   * so it is rejected as not sent; one SUBMITTED with no answer recorded may or may not have reached the broker, so
   * its outcome is unknown; it and every other open order are resolved by asking the broker (`resolveByAsking`),
   * never by sending again — the broker's state when it has the order; when it keeps saying it has none, NOT_FOUND
   * for an order it never acknowledged and EXPIRED for one it had (a paper broker's book dies with the process, a
   * day order leaves the book at the day's end). Without this an exit stopped half-way would wait forever for an
   * order nobody resolves. An order of an account not registered yet is resolved once the account is.
   */
  async recover(): Promise<readonly Order[]> {
    const { context } = this;
    const { ledger } = context;
    const open = await context.store.listOpen();
    for (const order of open) ledger.remember(order);
    for (const order of open) {
      const id = order.clientOrderId;
      if (order.state === 'INITIALIZED') {
        ledger.apply(id, {
          type: 'REJECT',
          time: this.now(),
          reason: 'NOT_SENT: stopped before it was sent',
        });
        continue;
      }
      if (order.state === 'SUBMITTED' && order.brokerOrderId === undefined) {
        ledger.apply(id, { type: 'TIMEOUT', time: this.now(), reason: 'restart: outcome unknown' });
      }
      const broker = context.broker(order.accountId);
      if (broker !== undefined) this.resolve(broker, id);
      else this.recoveredFor.set(order.accountId, [...(this.recoveredFor.get(order.accountId) ?? []), id]);
    }
    return open.map((order) => ledger.get(order.clientOrderId) ?? order);
  }

  /** Queries the broker for every non-terminal order (all accounts or one) and applies what it reports. */
  async reconcile(accountId?: string): Promise<void> {
    const { context } = this;
    const { ledger } = context;
    const open = [...ledger.all()].filter(
      (o) =>
        !isTerminal(o.state) &&
        o.state !== 'INITIALIZED' &&
        (accountId === undefined || o.accountId === accountId),
    );
    await Promise.all(
      open.map(async (order) => {
        const broker = context.broker(order.accountId);
        if (broker === undefined) return;
        try {
          const snapshot = await context.withTimeout(broker.getOrder({ clientOrderId: order.clientOrderId }));
          if (snapshot !== undefined) ledger.applySnapshot(order.clientOrderId, snapshot);
        } catch {
          // The next reconcile tries again; the order keeps its state meanwhile.
        }
      }),
    );
  }

  /**
   * Asks the broker about an order until it says where the order stands (with backoff), stopping as soon as the
   * order moves on its own (an update, a late reply). If the broker answered every time that it has no such order:
   * an order it never acknowledged (UNKNOWN) was not placed → REJECTED (`NOT_FOUND`); one it had acknowledged
   * (recovered after a restart) is gone from its book — a paper broker's orders die with the process, a day order
   * leaves the book at the day's end → EXPIRED with the fills it had. When queries failed, the order keeps its
   * state for `reconcile`.
   */
  private async resolveByAsking(broker: Broker, clientOrderId: string): Promise<void> {
    const { context } = this;
    const { ledger } = context;
    const backoff = context.resolveBackoffMs ?? DEFAULT_BACKOFF_MS;
    const waitingIn = ledger.get(clientOrderId)?.state;
    let answers = 0;
    for (const delay of backoff) {
      await this.sleep(delay);
      if (ledger.get(clientOrderId)?.state !== waitingIn) return; // moved: an update or a late reply
      try {
        const snapshot = await context.withTimeout(broker.getOrder({ clientOrderId }));
        answers += 1;
        if (snapshot !== undefined) {
          ledger.applySnapshot(clientOrderId, snapshot);
          return;
        }
      } catch {
        // Ask again after the next wait.
      }
    }
    if (ledger.get(clientOrderId)?.state !== waitingIn) return;
    if (answers === backoff.length && waitingIn === 'UNKNOWN') {
      ledger.apply(clientOrderId, {
        type: 'REJECT',
        time: this.now(),
        reason: 'NOT_FOUND: the broker has no such order',
      });
    } else if (answers === backoff.length) {
      ledger.apply(clientOrderId, { type: 'EXPIRE', time: this.now() });
      ledger.anomaly({ clientOrderId, message: 'the broker no longer has this order: expired' });
    } else {
      ledger.anomaly({ clientOrderId, message: 'order outcome still unknown; reconcile later' });
    }
  }

  private track(task: Promise<void>): void {
    const tracked = task.catch((error: unknown) => {
      this.context.ledger.anomaly({ message: `background resolution failed: ${String(error)}` });
    });
    this.background.add(tracked);
    void tracked.then(() => this.background.delete(tracked));
  }

  private now(): number {
    return this.context.scheduler.now();
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.context.scheduler.schedule(() => resolve(), ms));
  }
}
