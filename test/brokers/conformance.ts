// The broker conformance suite: one set of Vitest cases every live adapter must pass against its own fake. A
// broker's test file calls `brokerConformance(target)` with a target that starts its fake and builds its adapter;
// the cases drive the adapter through the engine's real OrderRouter (as the trading runtime does), so protection,
// freeze splitting, rate limiting and UNKNOWN resolution are checked end to end over loopback HTTP.
import { asyncScheduler } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  BrokerError,
  InMemoryOrderStore,
  OrderRouter,
  type Broker,
  type BrokerErrorKind,
  type BrokerOrderSnapshot,
  type Order,
} from '@optionpilot/engine';

/** Faults every fake can inject into its next order requests. */
export type BrokerFault =
  /** the broker refuses the order (margin, price band…) */
  | 'reject'
  /** the order is accepted and then only part of it fills */
  | 'partial_fill'
  /** HTTP 429 */
  | 'rate_limit'
  /** HTTP 5xx: the outcome is unknown to the caller (the fake does not place the order) */
  | 'server_error'
  /** the order is placed but no answer comes back before the client's timeout */
  | 'timeout_placed'
  /** the session token is no longer valid */
  | 'token_expired'
  /** the request comes from an IP address not whitelisted in the broker app */
  | 'ip_not_allowed'
  /** the market data / order update socket is closed by the broker */
  | 'drop_socket';

/** One order as the fake recorded it, in engine terms so the cases are broker-neutral. */
export interface FakeOrderView {
  readonly brokerOrderId: string;
  /** the tag the broker stores (as sent) */
  readonly tag: string;
  readonly side: 'BUY' | 'SELL';
  /** the order type as the broker holds it (a protected MARKET shows as LIMIT at most brokers) */
  readonly type: string;
  readonly quantity: number;
  readonly price: number;
  readonly triggerPrice: number;
  /** true when the order was sent with a protection (a limit through the LTP, or the broker's own field) */
  readonly protected: boolean;
}

/** The test-side control of a broker fake. */
export interface ConformanceFake {
  /**
   * The next `times` requests the fault concerns fail with it: `token_expired` any authenticated request,
   * `ip_not_allowed` place / modify / cancel, `drop_socket` the socket(s), every other fault a placement; with
   * `on: 'place'`, only a placement, and with `on: 'positions'`, only a positions read (a fake whose background
   * reads, such as an order-book poll, could otherwise take the fault honours it).
   */
  inject(fault: BrokerFault, times?: number, on?: 'place' | 'positions'): void;
  /** fills an open order (all of it, or `quantity` more) at `price`, and pushes the broker's order update */
  fill(brokerOrderId: string, price: number, quantity?: number): Promise<void>;
  /** orders the fake holds, in placement order */
  orders(): readonly FakeOrderView[];
  /** epoch ms (the fake's wall clock) of every order-mutating request the fake received, refused ones included */
  orderRequestTimes(): readonly number[];
  /** number of placement requests received (refused and timed-out ones included) */
  placeRequests(): number;
}

/** One running fake and an adapter for one logged-in account at it. */
export interface ConformanceSubject {
  readonly broker: Broker;
  readonly fake: ConformanceFake;
  /**
   * Delivers an order update for `brokerOrderId` through the broker's push channel with a forged signature /
   * checksum. Resolves with whether the receiving side accepted it. Brokers whose push channel is not signed omit it.
   */
  sendForgedUpdate?(brokerOrderId: string): Promise<{ readonly accepted: boolean }>;
  close(): Promise<void>;
}

/** What a broker's test file passes to the suite. */
export interface ConformanceTarget {
  readonly name: string;
  /** a canonical NIFTY option symbol the fake's instrument master lists */
  readonly symbol: string;
  readonly lotSize: number;
  /** the LTP the router protects MARKET orders with */
  readonly ltp: number;
  /** starts the fake and logs an account in (through the broker's own login flow) */
  setup(): Promise<ConformanceSubject>;
}

/**
 * The subject as the trading runtime starts a broker: positions read (the instrument master loaded) and the order
 * updates subscribed before the first order, then held until `ready()` says those start-up calls have reached the
 * fake, so no fault a case injects is spent on them. Closing ends the subscription and the fake.
 */
export async function startedLikeTheRuntime(props: {
  readonly broker: Broker;
  readonly fake: ConformanceFake;
  readonly ready: () => boolean;
  readonly closeFake: () => Promise<void>;
}): Promise<ConformanceSubject> {
  const { broker, fake, ready, closeFake } = props;
  await broker.getPositions();
  const warm = broker.orderUpdates$.subscribe();
  await new Promise<void>((resolve) => {
    const check = () => (ready() ? resolve() : setTimeout(check, 10));
    check();
  });
  return {
    broker,
    fake,
    async close() {
      warm.unsubscribe();
      await closeFake();
    },
  };
}

/** How long the router waits before an order counts as UNKNOWN; a fake's `timeout_placed` must wait longer. */
// Generous, because an ordinary answer that took longer on a loaded machine would turn a case's order UNKNOWN.
export const CONFORMANCE_REQUEST_TIMEOUT_MS = 1_500;

/** Which `BrokerErrorKind` each fault must surface as, when the adapter is called directly. */
const FAULT_KINDS: readonly [BrokerFault, BrokerErrorKind][] = [
  ['reject', 'rejected'],
  ['rate_limit', 'rate_limited'],
  ['token_expired', 'auth_expired'],
  ['ip_not_allowed', 'ip_not_allowed'],
  ['server_error', 'network'],
];

function waitFor<T>(probe: () => T | undefined, what: string, timeoutMs = 5_000): Promise<T> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const check = (): void => {
      const value = probe();
      if (value !== undefined) return resolve(value);
      if (Date.now() - started > timeoutMs) return reject(new Error(`timed out waiting for ${what}`));
      setTimeout(check, 10);
    };
    check();
  });
}

/** Registers the conformance cases for one broker. */
export function brokerConformance(target: ConformanceTarget): void {
  describe(`${target.name} broker conformance`, () => {
    let subject: ConformanceSubject;
    let router: OrderRouter;
    let store: InMemoryOrderStore;

    /** A signal's entry for the one account, as the runtime's entry desk submits it. */
    const route = (signalId: string, quantity: number, type: 'MARKET' | 'LIMIT' = 'MARKET', price?: number) =>
      router.submit({
        purpose: 'entry',
        signalId,
        accountId: 'acc',
        symbol: target.symbol,
        side: 'BUY',
        quantity,
        type,
        ...(price === undefined ? {} : { price }),
      });

    const orderWhere = (clientOrderId: string, test: (o: Order) => boolean): Promise<Order> =>
      waitFor(() => {
        const order = router.getOrder(clientOrderId);
        return order !== undefined && test(order) ? order : undefined;
      }, `order ${clientOrderId} to change`);

    beforeEach(async () => {
      subject = await target.setup();
      store = new InMemoryOrderStore();
      router = new OrderRouter({
        scheduler: asyncScheduler,
        store,
        quotes: {
          getQuote: (symbol) => ({
            symbol,
            time: Date.now(),
            bid: target.ltp,
            ask: target.ltp,
            ltp: target.ltp,
          }),
        },
        tag: 'OPALGO',
        lotSize: () => target.lotSize,
        requestTimeoutMs: CONFORMANCE_REQUEST_TIMEOUT_MS,
        resolveBackoffMs: [200, 400, 800],
      });
      router.addAccount({ accountId: 'acc', broker: subject.broker });
      router.start();
    });
    afterEach(async () => {
      router.stop();
      router.removeAccount('acc');
      await subject.close();
    });

    it('places a MARKET entry as a protected order carrying the client order id, and follows it to FILLED', async () => {
      const result = await route('sig-fill', target.lotSize);
      const order = result?.orders[0];
      expect(result?.status).toBe('placed');
      expect(order?.brokerOrderId).toBeDefined();
      const [atFake] = subject.fake.orders();
      expect(atFake?.protected).toBe(true);
      expect(atFake?.side).toBe('BUY');
      expect(atFake?.quantity).toBe(target.lotSize);
      // A protected BUY never goes out at or below the LTP, and never as an unbounded market order.
      expect(atFake?.price).toBeGreaterThan(target.ltp);
      expect(atFake?.tag.length).toBeGreaterThan(0);
      const snapshot = await subject.broker.getOrder({ clientOrderId: order?.clientOrderId ?? '' });
      expect(snapshot?.brokerOrderId).toBe(order?.brokerOrderId);
      expect(snapshot?.clientOrderId).toBe(order?.clientOrderId);
      expect(snapshot?.status).toBe('ACCEPTED');

      await subject.fake.fill(order?.brokerOrderId ?? '', target.ltp);
      const filled = await orderWhere(order?.clientOrderId ?? '', (o) => o.state === 'FILLED');
      expect(filled.filledQty).toBe(target.lotSize);
      expect(filled.avgPrice).toBeCloseTo(target.ltp, 2);
      const after = await subject.broker.getOrder({ brokerOrderId: order?.brokerOrderId ?? '' });
      expect(after).toMatchObject({ status: 'FILLED', filledQty: target.lotSize });
    });

    it('reports a partial fill as PARTIALLY_FILLED with the filled quantity', async () => {
      subject.fake.inject('partial_fill');
      const result = await route('sig-partial', target.lotSize * 2);
      const id = result?.orders[0]?.clientOrderId ?? '';
      const partial = await orderWhere(id, (o) => o.state === 'PARTIALLY_FILLED');
      expect(partial.filledQty).toBeGreaterThan(0);
      expect(partial.filledQty).toBeLessThan(target.lotSize * 2);
    });

    it('modifies an open order and cancels it', async () => {
      const result = await route('sig-mod', target.lotSize, 'LIMIT', target.ltp - 10);
      const id = result?.orders[0]?.clientOrderId ?? '';
      const modified = await router.modify(id, { price: target.ltp - 5 });
      expect(modified.state).toBe('ACCEPTED');
      expect(modified.price).toBe(target.ltp - 5);
      expect(subject.fake.orders()[0]?.price).toBe(target.ltp - 5);
      await router.cancel(id);
      const cancelled = await orderWhere(id, (o) => o.state === 'CANCELLED');
      expect(cancelled.state).toBe('CANCELLED');
      const snapshot = await subject.broker.getOrder({ clientOrderId: id });
      expect(snapshot?.status).toBe('CANCELLED');
    });

    it.each(FAULT_KINDS)('maps the %s fault to the %s error kind', async (fault, kind) => {
      // The placement's fault: an order-book read in the background (a socket reconnecting under load) cannot take it.
      subject.fake.inject(fault, 1, 'place');
      const error = await subject.broker
        .placeOrder({
          clientOrderId: 'OP-mhx0z2k1-001-abc',
          symbol: target.symbol,
          side: 'BUY',
          type: 'LIMIT',
          price: target.ltp,
          quantity: target.lotSize,
          product: 'MIS',
          tag: 'OPALGO',
        })
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(error).toBeInstanceOf(BrokerError);
      expect((error as BrokerError).kind).toBe(kind);
    });

    it('maps an expired session on a read (positions) to auth_expired', async () => {
      subject.fake.inject('token_expired', 1, 'positions');
      const error = await subject.broker.getPositions().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(BrokerError);
      expect((error as BrokerError).kind).toBe('auth_expired');
    });

    it('rejects an order the broker refuses, without sending it again', async () => {
      subject.fake.inject('reject');
      const result = await route('sig-rej', target.lotSize);
      expect(result?.status).toBe('rejected');
      expect(result?.orders[0]?.reason).toMatch(/^rejected\//);
      expect(subject.fake.placeRequests()).toBe(1);
    });

    it('retries a rate-limited placement (it was not placed) and places it once', async () => {
      subject.fake.inject('rate_limit');
      const result = await route('sig-429', target.lotSize);
      expect(result?.status).toBe('placed');
      expect(subject.fake.placeRequests()).toBe(2);
      expect(subject.fake.orders()).toHaveLength(1);
    });

    it('resolves a timed-out placement (placed anyway) by asking the broker, never sending it twice', async () => {
      subject.fake.inject('timeout_placed');
      const result = await route('sig-timeout', target.lotSize);
      expect(result?.status).toBe('unknown');
      const id = result?.orders[0]?.clientOrderId ?? '';
      const resolved = await orderWhere(id, (o) => o.state !== 'UNKNOWN');
      await router.idle();
      expect(resolved.state).toBe('ACCEPTED');
      expect(resolved.brokerOrderId).toBe(subject.fake.orders()[0]?.brokerOrderId);
      expect(subject.fake.placeRequests()).toBe(1);
      expect(subject.fake.orders()).toHaveLength(1);
      // The same signal routed again is a duplicate: still one order at the broker.
      const again = await route('sig-timeout', target.lotSize);
      expect(again?.status).toBe('duplicate');
      expect(subject.fake.placeRequests()).toBe(1);
    });

    it('resolves a 5xx placement the broker never recorded as REJECTED (not found), sending it once', async () => {
      subject.fake.inject('server_error');
      const result = await route('sig-5xx', target.lotSize);
      expect(result?.status).toBe('unknown');
      await router.idle();
      const order = router.getOrder(result?.orders[0]?.clientOrderId ?? '');
      expect(order?.state).toBe('REJECTED');
      expect(order?.reason).toMatch(/NOT_FOUND/);
      expect(subject.fake.placeRequests()).toBe(1);
    });

    it('splits an order above the freeze quantity into whole-lot legs', async () => {
      const freezeQty = subject.broker.capabilities.freezeQty;
      expect(freezeQty).toBeDefined();
      const total = (Math.floor((freezeQty ?? 0) / target.lotSize) + 2) * target.lotSize;
      const result = await route('sig-freeze', total);
      expect(result?.status).toBe('placed');
      const legs = subject.fake.orders().map((o) => o.quantity);
      expect(legs.length).toBeGreaterThan(1);
      expect(legs.reduce((a, b) => a + b, 0)).toBe(total);
      for (const leg of legs) {
        expect(leg).toBeLessThanOrEqual(freezeQty ?? 0);
        expect(leg % target.lotSize).toBe(0);
      }
      // Each leg carries its own client order id in the tag.
      expect(new Set(subject.fake.orders().map((o) => o.tag)).size).toBe(legs.length);
    });

    it('holds the per-account order rate (≤ 10 per second, by the fake’s request times)', async () => {
      const signals = Array.from({ length: 25 }, (_, i) => `sig-rate-${i}`);
      const perSecond = Math.min(10, subject.broker.capabilities.rateLimits.perSecond);
      // Nothing can be sent before `start`, so the kth request (0-based) cannot reach the broker before
      // start + floor(k / perSecond) seconds. Arrival jitter only delays requests, so this bound never flakes,
      // and without a limiter all 25 would arrive within milliseconds of `start`.
      const start = Date.now();
      await Promise.all(signals.map((s) => route(s, target.lotSize, 'LIMIT', target.ltp)));
      const times = [...subject.fake.orderRequestTimes()].sort((a, b) => a - b);
      expect(times).toHaveLength(25);
      times.forEach((at, k) => {
        expect(at - start).toBeGreaterThanOrEqual(Math.floor(k / perSecond) * 1_000);
      });
    }, 20_000);

    it('pushes the broker’s order updates to orderUpdates$ and refuses forged ones', async () => {
      const seen: BrokerOrderSnapshot[] = [];
      const subscription = subject.broker.orderUpdates$.subscribe((s) => seen.push(s));
      try {
        const result = await route('sig-push', target.lotSize, 'LIMIT', target.ltp);
        const brokerOrderId = result?.orders[0]?.brokerOrderId ?? '';
        if (subject.sendForgedUpdate !== undefined) {
          const forged = await subject.sendForgedUpdate(brokerOrderId);
          expect(forged.accepted).toBe(false);
          expect(seen.filter((s) => s.brokerOrderId === brokerOrderId && s.status === 'FILLED')).toEqual([]);
        }
        await subject.fake.fill(brokerOrderId, target.ltp);
        const update = await waitFor(
          () => seen.find((s) => s.brokerOrderId === brokerOrderId && s.status === 'FILLED'),
          'a FILLED update',
        );
        expect(update.filledQty).toBe(target.lotSize);
        expect(update.clientOrderId).toBe(result?.orders[0]?.clientOrderId);
      } finally {
        subscription.unsubscribe();
      }
    });

    it('reports net positions', async () => {
      const result = await route('sig-pos', target.lotSize);
      await subject.fake.fill(result?.orders[0]?.brokerOrderId ?? '', target.ltp);
      await orderWhere(result?.orders[0]?.clientOrderId ?? '', (o) => o.state === 'FILLED');
      const positions = await subject.broker.getPositions();
      const position = positions.find((p) => p.symbol === target.symbol);
      expect(position?.quantity).toBe(target.lotSize);
      expect(position?.avgPrice).toBeCloseTo(target.ltp, 2);
    });
  });
}
