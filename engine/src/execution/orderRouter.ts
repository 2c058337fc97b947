import type { Observable, SchedulerLike, Subscription } from 'rxjs';
import { BrokerError, PLACE_OUTCOME_BY_ERROR } from './broker';
import type { Broker, BrokerAmendment, BrokerPosition } from './broker';
import { createClientOrderIdFactory } from './clientOrderId';
import { splitByFreezeQty } from './freezeSplit';
import { needsProtection, OPTION_PROTECTION_BANDS, toProtectedLimit } from './marketProtection';
import type { ProtectedFields, ProtectionBand } from './marketProtection';
import { OrderLedger } from './orderLedger';
import type { RouterAnomaly } from './orderLedger';
import { OrderResolver } from './orderResolver';
import { applyOrderEvent } from './orderStateMachine';
import type { OrderEvent } from './orderStateMachine';
import { DuplicateIntentError } from './orderStore';
import type { OrderStore } from './orderStore';
import { intentKeyOf, isOrderOf } from './orderIntent';
import type { OrderIntent } from './orderIntent';
import type { Order, OrderRequest, ProductType } from './orderTypes';
import type { QuoteSource } from './paperBroker';
import { accountRateWindows, RateLimiter } from './rateLimiter';
import { RequestTimeout, RequestTimeouts } from './requestTimeouts';

export type { RouterAnomaly } from './orderLedger';

/** One account the router can trade: its own broker session and order-rate cap. */
export interface AccountConnection {
  readonly accountId: string;
  readonly broker: Broker;
  /** orders per second for this account; clamped to SEBI's 10 */
  readonly maxOrdersPerSecond?: number;
}

/** Options of `OrderRouter`. */
export interface OrderRouterOptions {
  readonly scheduler: SchedulerLike;
  readonly store: OrderStore;
  /** LTPs for market protection */
  readonly quotes: QuoteSource;
  /** the algo id / tag sent on every order (DOMAIN.md §2) */
  readonly tag: string;
  readonly product?: ProductType;
  /** tick size of a symbol; options are ₹0.05 */
  readonly tickSize?: (symbol: string) => number;
  readonly protectionBands?: readonly ProtectionBand[];
  /** lot size of a symbol, so freeze-quantity legs stay whole lots */
  readonly lotSize?: (symbol: string) => number;
  /** how long a broker call may take before its outcome counts as unknown */
  readonly requestTimeoutMs?: number;
  /** waits between status queries that resolve an UNKNOWN order */
  readonly resolveBackoffMs?: readonly number[];
  /** retries of a placement the broker refused as rate limited (it was not placed, so retrying is safe) */
  readonly rateLimitRetries?: number;
  readonly newClientOrderId?: () => string;
  /**
   * How long a market order that needs protection may wait for its symbol's first quote (engine ms) before it is
   * refused as NO_QUOTE. 0 (the default) refuses at once: simulated and replayed feeds quote synchronously. A
   * broker's feed quotes an option only after it is subscribed, so its first price can trail the tick that executed
   * the signal by a moment.
   */
  readonly quoteWaitMs?: number;
}

/** How often a waiting market order looks for its first quote (engine ms). */
const QUOTE_POLL_MS = 50;

/** What happened to one account's share of an intent. */
export interface AccountRouteResult {
  readonly accountId: string;
  /**
   * `placed`: every leg reached the broker or was resolved; `duplicate`: the intent already had orders (nothing
   * sent); `rejected`: a leg was refused; `unknown`: a leg's outcome is still being resolved; `failed`: the
   * account is not connected or the intent is invalid.
   */
  readonly status: 'placed' | 'duplicate' | 'rejected' | 'unknown' | 'failed';
  readonly orders: readonly Order[];
  readonly error?: string;
}

interface AccountSlot {
  readonly connection: AccountConnection;
  readonly limiter: RateLimiter;
  subscription?: Subscription;
}

/** One leg's order and whether it was already there (nothing sent). */
interface LegOutcome {
  readonly order: Order;
  readonly duplicate: boolean;
}

/** A market order that cannot be protected: there is no LTP to price its limit from. */
const NO_QUOTE = Symbol('no quote');

/** The SUBMITTED version of a new order (created so when it can be sent at once). */
function submittedVersion(order: Order, time: number, sent: ProtectedFields | undefined): Order {
  const result = applyOrderEvent(order, { type: 'SUBMIT', time, ...(sent ? { sent } : {}) });
  if (!result.ok) throw result.error;
  return result.order;
}

function asDuplicate(outcome: LegOutcome): LegOutcome {
  return { order: outcome.order, duplicate: true };
}

/** An account's result from its legs: duplicate when every leg was, else the worst leg's state decides. */
function accountResult(accountId: string, outcomes: readonly LegOutcome[]): AccountRouteResult {
  const orders: Order[] = [];
  let duplicates = 0;
  let rejected = false;
  let unknown = false;
  for (const { order, duplicate } of outcomes) {
    orders.push(order);
    if (duplicate) duplicates += 1;
    if (order.state === 'REJECTED') rejected = true;
    if (order.state === 'UNKNOWN') unknown = true;
  }
  const status: AccountRouteResult['status'] =
    duplicates === outcomes.length ? 'duplicate' : rejected ? 'rejected' : unknown ? 'unknown' : 'placed';
  return { accountId, status, orders };
}

/**
 * Places orders for many accounts. Per order: client id → (market protection) → rate limiter → SUBMITTED durable
 * → `placeOrder` with a timeout. An order that can go at once (quoted, a free rate-limit slot) is created already
 * SUBMITTED, one write; one that must wait is created INITIALIZED and written SUBMITTED when its slot comes. A
 * timeout or a dropped connection makes the order UNKNOWN, resolved by `OrderResolver` (orderResolver.ts: status
 * queries with backoff, recovery after a restart, reconciliation) or by the broker's own update or the late reply —
 * never by sending it again. The same intent key never yields a second broker order: in-flight calls are shared,
 * and the store's unique intent key refuses a second order for an intent persisted before (by this process before
 * a restart, or by another process).
 */
export class OrderRouter {
  private readonly accounts = new Map<string, AccountSlot>();
  /** the orders in memory: every event applied, persisted in order, published */
  private readonly ledger: OrderLedger;
  private readonly inflight = new Map<string, Promise<LegOutcome>>();
  private readonly timeouts: RequestTimeouts;
  /** unknown outcomes, recovery after a restart, reconciliation */
  private readonly resolver: OrderResolver;
  private readonly newClientOrderId: () => string;
  private started = false;

  /** every order change, after it is applied (persistence follows in order) */
  readonly changes$: Observable<Order>;
  /** refused events and persistence failures */
  readonly anomalies$: Observable<RouterAnomaly>;

  /**
   * Calls `listener` with every later version of one order (what a waiter on a few orders needs, without hearing
   * every other order's changes); returns the function that stops it.
   */
  watchOrder(clientOrderId: string, listener: (order: Order) => void): () => void {
    return this.ledger.watch(clientOrderId, listener);
  }

  constructor(private readonly options: OrderRouterOptions) {
    this.newClientOrderId =
      options.newClientOrderId ?? createClientOrderIdFactory({ now: () => options.scheduler.now() });
    this.timeouts = new RequestTimeouts(options.scheduler, options.requestTimeoutMs ?? 5_000);
    this.ledger = new OrderLedger(options.store, options.scheduler);
    this.changes$ = this.ledger.changes$;
    this.anomalies$ = this.ledger.anomalies$;
    this.resolver = new OrderResolver({
      scheduler: options.scheduler,
      store: options.store,
      ...(options.resolveBackoffMs === undefined ? {} : { resolveBackoffMs: options.resolveBackoffMs }),
      ledger: this.ledger,
      broker: (accountId) => this.accounts.get(accountId)?.connection.broker,
      withTimeout: (promise) => this.withTimeout(promise),
    });
  }

  /** Registers an account; its broker's updates are followed while the router runs. */
  addAccount(connection: AccountConnection): void {
    // No check of the algo tag's length here: each adapter fits the tag to its broker's field, cutting the algo tag
    // and never the client order id (server/src/brokers/orderTag.ts), so a long ALGO_TAG never refuses an account.
    this.removeAccount(connection.accountId);
    const windows = accountRateWindows(
      connection.broker.capabilities.rateLimits,
      connection.maxOrdersPerSecond,
    );
    const slot: AccountSlot = { connection, limiter: new RateLimiter(windows, this.options.scheduler) };
    this.accounts.set(connection.accountId, slot);
    if (this.started) this.follow(slot);
    this.resolver.accountAdded(connection.accountId, connection.broker);
  }

  /** Lets a registered account's broker ready itself for an order expected soon; failures are of no consequence. */
  prepare(accountId: string): Promise<void> {
    const prepared = this.accounts.get(accountId)?.connection.broker.prepare?.();
    return prepared === undefined ? Promise.resolve() : prepared.catch(() => undefined);
  }

  /** Stops trading an account (its pending rate-limited requests fail). */
  removeAccount(accountId: string): void {
    const slot = this.accounts.get(accountId);
    if (slot === undefined) return;
    slot.subscription?.unsubscribe();
    slot.limiter.dispose();
    this.accounts.delete(accountId);
  }

  /** Starts following every account's order updates. */
  start(): void {
    if (this.started) return;
    this.started = true;
    for (const slot of this.accounts.values()) this.follow(slot);
  }

  /** Stops following updates; orders and accounts stay. */
  stop(): void {
    this.started = false;
    for (const slot of this.accounts.values()) {
      slot.subscription?.unsubscribe();
      slot.subscription = undefined;
    }
  }

  /**
   * Loads the open orders a stopped process left (after a restart) and settles each by asking its broker, never by
   * sending again (`OrderResolver.recover`).
   */
  recover(): Promise<readonly Order[]> {
    return this.resolver.recover();
  }

  /** The latest known version of an order. */
  getOrder(clientOrderId: string): Order | undefined {
    return this.ledger.get(clientOrderId);
  }

  /** Every order the router knows, in creation order. */
  listOrders(): readonly Order[] {
    return [...this.ledger.all()];
  }

  /** UNKNOWN orders whose background resolution is still running. */
  get pendingResolutions(): number {
    return this.resolver.pending;
  }

  /** Resolves once every background resolution (UNKNOWN orders) and every queued store write has finished. */
  async idle(): Promise<void> {
    await this.resolver.settled();
    await this.written();
  }

  /**
   * Resolves once every order version queued for the store is written (or has failed, reported as an anomaly):
   * of `clientOrderIds` only, when given.
   */
  written(clientOrderIds?: readonly string[]): Promise<void> {
    return this.ledger.written(clientOrderIds);
  }

  /** Places one account's order (split into freeze-quantity legs), idempotently per intent key. */
  async submit(intent: OrderIntent): Promise<AccountRouteResult> {
    const { accountId } = intent;
    const slot = this.accounts.get(accountId);
    if (slot === undefined)
      return { accountId, status: 'failed', orders: [], error: 'account not connected' };
    let legs: number[];
    try {
      legs = splitByFreezeQty(
        intent.quantity,
        slot.connection.broker.capabilities.freezeQty,
        this.options.lotSize?.(intent.symbol),
      );
    } catch (error) {
      return { accountId, status: 'failed', orders: [], error: (error as Error).message };
    }
    let outcomes: LegOutcome[];
    try {
      // Nearly every order is one leg: await it directly rather than through Promise.all.
      const [only] = legs;
      outcomes =
        legs.length === 1 && only !== undefined
          ? [await this.submitLeg(slot, intent, 0, only)]
          : await Promise.all(legs.map((quantity, leg) => this.submitLeg(slot, intent, leg, quantity)));
    } catch (error) {
      // The store refused to persist: nothing was sent for a leg whose create failed.
      const orders = [...this.ledger.all()].filter((o) => isOrderOf(o, intent));
      return { accountId, status: 'failed', orders, error: `store: ${String(error)}` };
    }
    return accountResult(accountId, outcomes);
  }

  /** Asks the broker to cancel an open order; the broker's update confirms it. */
  async cancel(clientOrderId: string): Promise<Order> {
    return this.amend(clientOrderId, { type: 'CANCEL_REQUEST', time: this.now() }, (broker, id) =>
      broker.cancelOrder(id),
    );
  }

  /** Asks the broker to change an open order's price, trigger or quantity. */
  async modify(clientOrderId: string, amendment: BrokerAmendment): Promise<Order> {
    return this.amend(
      clientOrderId,
      { type: 'MODIFY_REQUEST', time: this.now(), amendment },
      (broker, id) => broker.modifyOrder(id, amendment),
      true,
    );
  }

  /** Queries the broker for every non-terminal order (all accounts or one) and applies what it reports. */
  reconcile(accountId?: string): Promise<void> {
    return this.resolver.reconcile(accountId);
  }

  /**
   * The broker's net positions of an account (positions reconciled after a start or a reconnect); undefined when
   * the account is not registered. A broker that does not answer in time throws `RequestTimeout`.
   */
  async brokerPositions(accountId: string): Promise<readonly BrokerPosition[] | undefined> {
    const slot = this.accounts.get(accountId);
    if (slot === undefined) return undefined;
    return this.withTimeout(slot.connection.broker.getPositions());
  }

  /** The name of the broker an account is registered with ('paper', 'zerodha', …), if registered. */
  brokerName(accountId: string): string | undefined {
    return this.accounts.get(accountId)?.connection.broker.capabilities.name;
  }

  private now(): number {
    return this.options.scheduler.now();
  }

  private follow(slot: AccountSlot): void {
    slot.subscription?.unsubscribe();
    slot.subscription = slot.connection.broker.orderUpdates$.subscribe((snapshot) => {
      const clientOrderId = this.ledger.idOf(snapshot);
      // Orders placed outside the engine (e.g. by hand in the broker's app) are not ours to track.
      if (clientOrderId !== undefined) this.ledger.applySnapshot(clientOrderId, snapshot);
    });
  }

  private submitLeg(
    slot: AccountSlot,
    intent: OrderIntent,
    leg: number,
    quantity: number,
  ): Promise<LegOutcome> {
    const intentKey = intentKeyOf(intent, leg);
    const shared = this.inflight.get(intentKey);
    if (shared !== undefined) return shared.then(asDuplicate);
    const run = this.runLeg(slot, this.newOrder(intent, intentKey, leg, quantity));
    this.inflight.set(intentKey, run);
    const release = (): void => {
      this.inflight.delete(intentKey);
    };
    run.then(release, release);
    return run;
  }

  /**
   * Creates the leg's order (persisted before anything else) and places it. An intent that already has an order
   * (made before a restart, or by another process) is refused by the store's unique intent key: that order is
   * returned and nothing is placed. No read comes first: on a fan-out it would cost a query per account before
   * any order could leave, to find what is almost never there.
   */
  private async runLeg(slot: AccountSlot, initial: Order): Promise<LegOutcome> {
    // When nothing stands between the order and its send (its protection is known and the account's limiter has
    // a free slot now), it is created already SUBMITTED: one durable write before the broker call, not two.
    const protection = this.protection(slot, initial);
    const direct = protection !== NO_QUOTE && slot.limiter.tryAcquire();
    const order = direct ? submittedVersion(initial, this.now(), protection) : initial;
    try {
      await this.options.store.create(order);
    } catch (error) {
      if (!(error instanceof DuplicateIntentError)) throw error;
      const winner = (await this.options.store.findByIntentKey(initial.intentKey)) as Order;
      return { order: this.ledger.known(winner), duplicate: true };
    }
    this.ledger.created(order);
    return {
      order: await (direct ? this.send(slot, order) : this.place(slot, order, protection)),
      duplicate: false,
    };
  }

  /** The INITIALIZED order of one leg of an intent (not stored yet). */
  private newOrder(intent: OrderIntent, intentKey: string, leg: number, quantity: number): Order {
    const time = this.now();
    // Built as the state machine's copies are (required fields, then optional ones assigned), not with
    // conditional spreads, so new orders and their later versions share hidden classes.
    const order: { -readonly [K in keyof Order]: Order[K] } = {
      clientOrderId: this.newClientOrderId(),
      accountId: intent.accountId,
      purpose: intent.purpose,
      sequence: intent.purpose === 'entry' ? 0 : intent.sequence,
      leg,
      intentKey,
      symbol: intent.symbol,
      side: intent.side,
      type: intent.type,
      quantity,
      product: this.options.product ?? 'MIS',
      tag: this.options.tag,
      state: 'INITIALIZED',
      filledQty: 0,
      avgPrice: 0,
      fillIds: [],
      createdAt: time,
      updatedAt: time,
    };
    if (intent.purpose === 'entry') order.signalId = intent.signalId;
    else order.positionId = intent.positionId;
    if (intent.price !== undefined) order.price = intent.price;
    if (intent.triggerPrice !== undefined) order.triggerPrice = intent.triggerPrice;
    return order;
  }

  /**
   * What the broker is sent instead of the order's own type and prices (a protected limit for a broker that
   * refuses raw MARKET / SL-M), undefined when the order goes as it is, NO_QUOTE when a market order has no LTP.
   */
  private protection(slot: AccountSlot, order: Order): ProtectedFields | undefined | typeof NO_QUOTE {
    if (!needsProtection(order.type, slot.connection.broker.capabilities)) return undefined;
    const ltp = this.options.quotes.getQuote(order.symbol)?.ltp;
    if (order.type === 'MARKET' && !(ltp !== undefined && ltp > 0)) return NO_QUOTE;
    const tickSize = this.options.tickSize?.(order.symbol) ?? 0.05;
    return toProtectedLimit(
      order,
      ltp ?? 0,
      tickSize,
      this.options.protectionBands ?? OPTION_PROTECTION_BANDS,
    );
  }

  /** Waits up to `quoteWaitMs` for the symbol's first LTP; true when one came. */
  private async quoteArrives(symbol: string): Promise<boolean> {
    const hasQuote = (): boolean => (this.options.quotes.getQuote(symbol)?.ltp ?? 0) > 0;
    for (let waited = 0; waited < (this.options.quoteWaitMs ?? 0); waited += QUOTE_POLL_MS) {
      await new Promise<void>((resolve) => this.options.scheduler.schedule(() => resolve(), QUOTE_POLL_MS));
      if (hasQuote()) return true;
    }
    return false;
  }

  /** `runLeg`'s protection, then rate limit, SUBMITTED persisted, and the one and only `placeOrder` of the order. */
  private async place(
    slot: AccountSlot,
    initial: Order,
    protection: ProtectedFields | undefined | typeof NO_QUOTE,
  ): Promise<Order> {
    const id = initial.clientOrderId;
    // A market order without a quote yet waits a moment for its first one (a broker's feed quotes an option only
    // once it is subscribed), then takes its protection from it.
    const sent =
      protection === NO_QUOTE && (await this.quoteArrives(initial.symbol))
        ? this.protection(slot, initial)
        : protection;
    if (sent === NO_QUOTE) {
      return this.ledger.apply(id, {
        type: 'REJECT',
        time: this.now(),
        reason: 'NO_QUOTE: no LTP to protect a market order',
      });
    }
    // A free slot is taken synchronously; only a full window costs a queued promise.
    if (!slot.limiter.tryAcquire()) {
      try {
        await slot.limiter.acquire();
      } catch (error) {
        return this.ledger.apply(id, {
          type: 'REJECT',
          time: this.now(),
          reason: `NOT_SENT: ${(error as Error).message}`,
        });
      }
    }
    const submitted = this.ledger.apply(id, { type: 'SUBMIT', time: this.now(), ...(sent ? { sent } : {}) });
    try {
      const durable = this.ledger.durable(id);
      if (durable !== undefined) await durable;
    } catch (error) {
      // Never call the broker for an order whose SUBMITTED state is not durable.
      return this.ledger.apply(id, {
        type: 'REJECT',
        time: this.now(),
        reason: `NOT_SENT: ${(error as Error).message}`,
      });
    }
    return this.send(slot, submitted);
  }

  /** The one and only `placeOrder` of a SUBMITTED order whose state is durable. */
  private async send(slot: AccountSlot, submitted: Order): Promise<Order> {
    const { broker } = slot.connection;
    const id = submitted.clientOrderId;
    const request = toRequest(submitted);
    const retries = this.options.rateLimitRetries ?? 3;
    for (let attempt = 0; ; attempt += 1) {
      const call = broker.placeOrder(request);
      try {
        const { brokerOrderId } = await this.withTimeout(call);
        return this.ledger.apply(id, { type: 'ACCEPT', time: this.now(), brokerOrderId });
      } catch (error) {
        const kind =
          error instanceof RequestTimeout ? 'timeout' : error instanceof BrokerError ? error.kind : 'network';
        if (PLACE_OUTCOME_BY_ERROR[kind] === 'unknown') {
          // A late reply still tells us the outcome; apply it if it comes.
          call.then(
            ({ brokerOrderId }) => this.ledger.apply(id, { type: 'ACCEPT', time: this.now(), brokerOrderId }),
            () => undefined,
          );
          const unknown = this.ledger.apply(id, {
            type: 'TIMEOUT',
            time: this.now(),
            reason: `${kind}: outcome unknown`,
          });
          this.resolver.resolve(broker, id);
          return unknown;
        }
        if (kind === 'rate_limited' && attempt < retries) {
          // Not placed, so sending again is safe; wait for our own limiter's next slot first.
          await slot.limiter.acquire().catch(() => undefined);
          continue;
        }
        const code = error instanceof BrokerError ? `${error.kind}/${error.code}` : kind;
        return this.ledger.apply(id, {
          type: 'REJECT',
          time: this.now(),
          reason: `${code}: ${(error as Error).message}`,
        });
      }
    }
  }

  /** Shared flow of cancel and modify. */
  private async amend(
    clientOrderId: string,
    request: OrderEvent,
    call: (broker: Broker, brokerOrderId: string) => Promise<void>,
    isModify = false,
  ): Promise<Order> {
    const order = this.ledger.get(clientOrderId);
    const slot = order && this.accounts.get(order.accountId);
    if (order === undefined || slot === undefined) throw new Error(`order ${clientOrderId} is not tracked`);
    if (order.brokerOrderId === undefined)
      throw new Error(`order ${clientOrderId} has no broker order id yet`);
    const pending = this.ledger.apply(clientOrderId, request);
    if (pending === order) return order; // refused by the state machine (reported on anomalies$)
    await slot.limiter.acquire();
    try {
      await this.withTimeout(call(slot.connection.broker, order.brokerOrderId));
      if (isModify) return this.ledger.apply(clientOrderId, { type: 'MODIFY_ACCEPT', time: this.now() });
      return this.ledger.get(clientOrderId) as Order;
    } catch (error) {
      const kind =
        error instanceof RequestTimeout ? 'timeout' : error instanceof BrokerError ? error.kind : 'network';
      if (PLACE_OUTCOME_BY_ERROR[kind] === 'unknown') {
        const unknown = this.ledger.apply(clientOrderId, {
          type: 'TIMEOUT',
          time: this.now(),
          reason: `${kind}: outcome unknown`,
        });
        this.resolver.resolve(slot.connection.broker, clientOrderId);
        return unknown;
      }
      const reason = `${kind}: ${(error as Error).message}`;
      return this.ledger.apply(clientOrderId, {
        type: isModify ? 'MODIFY_REJECT' : 'CANCEL_REJECT',
        time: this.now(),
        reason,
      });
    }
  }

  private withTimeout<T>(promise: Promise<T>): Promise<T> {
    return this.timeouts.race(promise);
  }
}

/** The broker request for an order as it stands (after protection). */
function toRequest(order: Order): OrderRequest {
  const request: { -readonly [K in keyof OrderRequest]: OrderRequest[K] } = {
    clientOrderId: order.clientOrderId,
    symbol: order.symbol,
    side: order.side,
    type: order.type,
    quantity: order.quantity,
    product: order.product,
    tag: order.tag,
  };
  if (order.price !== undefined) request.price = order.price;
  if (order.triggerPrice !== undefined) request.triggerPrice = order.triggerPrice;
  return request;
}
