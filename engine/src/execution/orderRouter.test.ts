import { describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { Subject } from 'rxjs';
import type { Quote } from '../core/types';
import { BrokerError } from './broker';
import type { Broker, BrokerCapabilities, BrokerOrderSnapshot, OrderRef } from './broker';
import { InMemoryOrderStore } from './orderStore';
import { intentKeyOf } from './orderIntent';
import type { OrderAim, OrderIntent } from './orderIntent';
import type { Order, OrderRequest } from './orderTypes';
import { OrderRouter } from './orderRouter';
import type { AccountRouteResult, OrderRouterOptions } from './orderRouter';
import { PAPER_CAPABILITIES, PaperBroker } from './paperBroker';
import type { QuoteSource } from './paperBroker';
import { VirtualTime } from './virtualTime';

const SYMBOL = 'NIFTY24NOV2624000CE';
const START = Date.UTC(2026, 10, 23, 4, 0);

class Quotes implements QuoteSource {
  private quote: Quote = { symbol: SYMBOL, time: START, bid: 100, ask: 100.5, ltp: 100 };
  set(bid: number, ask: number, ltp: number): void {
    this.quote = { symbol: SYMBOL, time: START, bid, ask, ltp };
  }
  getQuote(symbol: string): Quote | undefined {
    return symbol === SYMBOL ? this.quote : undefined;
  }
}

type PlaceBehaviour = 'ok' | 'slow' | 'hang' | 'dropAfter' | 'dropBefore' | 'rateLimited' | 'reject';

/**
 * A broker that misbehaves on purpose: some calls place the order and then time out or drop the connection,
 * others fail before placing. It records every order it really placed, and checks the order was persisted as
 * SUBMITTED before the call reached it.
 */
class FlakyBroker implements Broker {
  readonly capabilities: BrokerCapabilities = { ...PAPER_CAPABILITIES, name: 'flaky' };
  readonly updates = new Subject<BrokerOrderSnapshot>();
  readonly orderUpdates$ = this.updates.asObservable();
  readonly placed = new Map<string, number>();
  readonly requests: OrderRequest[] = [];
  readonly placeTimes: number[] = [];
  persistedBeforeCall = true;
  private calls = 0;
  private queries = 0;

  constructor(
    private readonly time: VirtualTime,
    private readonly store: InMemoryOrderStore,
    private readonly behaviours: readonly PlaceBehaviour[] = ['ok'],
    private readonly queryFails: readonly boolean[] = [false],
    private readonly reportAs: BrokerOrderSnapshot['status'] = 'ACCEPTED',
  ) {}

  async placeOrder(request: OrderRequest): Promise<{ brokerOrderId: string }> {
    const stored = await this.store.get(request.clientOrderId);
    if (stored?.state !== 'SUBMITTED') this.persistedBeforeCall = false;
    this.requests.push(request);
    this.placeTimes.push(this.time.now());
    const behaviour = this.behaviours[this.calls % this.behaviours.length] ?? 'ok';
    this.calls += 1;
    const place = (): { brokerOrderId: string } => {
      this.placed.set(request.clientOrderId, (this.placed.get(request.clientOrderId) ?? 0) + 1);
      return { brokerOrderId: `B-${request.clientOrderId}` };
    };
    switch (behaviour) {
      case 'ok':
        return place();
      case 'slow': {
        const reply = place();
        return new Promise((resolve) => this.time.scheduler.schedule(() => resolve(reply), 5_000));
      }
      case 'hang':
        place();
        return new Promise(() => undefined);
      case 'dropAfter':
        place();
        throw new BrokerError('network', 'ECONNRESET', 'socket hang up', 'flaky');
      case 'dropBefore':
        throw new BrokerError('network', 'ECONNREFUSED', 'refused', 'flaky');
      case 'rateLimited':
        throw new BrokerError('rate_limited', '429', 'too many requests', 'flaky');
      case 'reject':
        throw new BrokerError('rejected', 'InputException', 'bad order', 'flaky');
    }
  }

  async modifyOrder(): Promise<void> {}
  async cancelOrder(): Promise<void> {}

  async getOrder(ref: OrderRef): Promise<BrokerOrderSnapshot | undefined> {
    const fails = this.queryFails[this.queries % this.queryFails.length] ?? false;
    this.queries += 1;
    if (fails) throw new BrokerError('network', 'ECONNRESET', 'reset', 'flaky');
    const id = 'clientOrderId' in ref ? ref.clientOrderId : ref.brokerOrderId.slice(2);
    if (!this.placed.has(id)) return undefined;
    const filled = this.reportAs === 'FILLED';
    const quantity = this.requests.find((r) => r.clientOrderId === id)?.quantity ?? 0;
    return {
      clientOrderId: id,
      brokerOrderId: `B-${id}`,
      status: this.reportAs,
      filledQty: filled ? quantity : 0,
      avgPrice: filled ? 100.5 : 0,
      time: this.time.now(),
    };
  }

  async getPositions() {
    return [];
  }
}

/** The broker request of a one-lot MARKET buy with this client order id. */
const toRequestOf = (clientOrderId: string): OrderRequest => ({
  clientOrderId,
  symbol: SYMBOL,
  side: 'BUY',
  type: 'MARKET',
  quantity: 65,
  product: 'MIS',
  tag: 'OPALGO1',
});

/** A one-lot LIMIT buy of account a1 at 90 as a previous process left it in the store. */
const storedOrder = (clientOrderId: string, state: Order['state'], aim: OrderAim): Order => ({
  ...toRequestOf(clientOrderId),
  accountId: 'a1',
  purpose: aim.purpose,
  ...(aim.purpose === 'entry' ? { signalId: aim.signalId } : { positionId: aim.positionId }),
  sequence: aim.purpose === 'entry' ? 0 : aim.sequence,
  leg: 0,
  intentKey: intentKeyOf({ ...aim, accountId: 'a1' }, 0),
  type: 'LIMIT',
  price: 90,
  state,
  filledQty: 0,
  avgPrice: 0,
  fillIds: [],
  createdAt: START,
  updatedAt: START,
});

/** A signal's one-lot MARKET entry for one account, as the runtime's entry desk submits it. */
const entryOf = (
  signalId: string,
  accountId = 'a1',
  patch: Partial<Pick<OrderIntent, 'quantity' | 'type' | 'price'>> = {},
): OrderIntent => ({
  purpose: 'entry',
  signalId,
  accountId,
  symbol: SYMBOL,
  side: 'BUY',
  quantity: 65,
  type: 'MARKET',
  ...patch,
});

/** A signal's entry for every account at once, one order each (the runtime's fan-out does the same). */
const enterAll = (router: OrderRouter, signalId: string, accountIds: readonly string[]) =>
  Promise.all(accountIds.map((accountId) => router.submit(entryOf(signalId, accountId))));

/** A one-lot LIMIT buy of account a1 for a signal. */
const limitBuy = (signalId: string): OrderIntent => ({
  purpose: 'entry',
  signalId,
  accountId: 'a1',
  symbol: SYMBOL,
  side: 'BUY',
  quantity: 65,
  type: 'LIMIT',
  price: 90,
});

function makeRouter(
  time: VirtualTime,
  store: InMemoryOrderStore,
  overrides: Partial<OrderRouterOptions> = {},
) {
  let seq = 0;
  return new OrderRouter({
    scheduler: time.scheduler,
    store,
    quotes: new Quotes(),
    tag: 'OPALGO1',
    requestTimeoutMs: 1_000,
    resolveBackoffMs: [100, 200, 400, 800],
    newClientOrderId: () => `OP-${(seq += 1)}`,
    ...overrides,
  });
}

function paperSetup(
  accountIds: readonly string[],
  capabilities: Partial<BrokerCapabilities> = {},
  routerOptions: Partial<OrderRouterOptions> = {},
) {
  const time = new VirtualTime(START);
  const store = new InMemoryOrderStore();
  const quotes = new Quotes();
  const router = makeRouter(time, store, { quotes, ...routerOptions });
  const brokers = new Map<string, PaperBroker>();
  for (const accountId of accountIds) {
    const broker = new PaperBroker({
      quotes,
      scheduler: time.scheduler,
      capabilities,
      idPrefix: `${accountId}-`,
    });
    brokers.set(accountId, broker);
    router.addAccount({ accountId, broker });
  }
  router.start();
  return { time, store, quotes, router, brokers };
}

describe('OrderRouter with paper brokers', () => {
  it('fans a signal out to every account, persisting each order before its broker call, tagged', async () => {
    const { router, store, brokers } = paperSetup(['a1', 'a2', 'a3']);
    const results = await enterAll(router, 'S1', ['a1', 'a2', 'a3']);
    expect(results.map((r) => r.status)).toEqual(['placed', 'placed', 'placed']);
    for (const result of results) {
      const [order] = result.orders;
      expect(router.getOrder(order?.clientOrderId ?? '')).toMatchObject({
        state: 'FILLED',
        filledQty: 65,
        avgPrice: 100.5,
        tag: 'OPALGO1',
      });
      const versions = store.writes
        .filter((w) => w.clientOrderId === order?.clientOrderId)
        .map((w) => w.state);
      // Nothing held it back (a quote, a free rate-limit slot), so it was created already SUBMITTED: one write.
      expect(versions.slice(0, 2)).toEqual(['SUBMITTED', 'ACCEPTED']);
      expect(versions.at(-1)).toBe('FILLED');
    }
    for (const broker of brokers.values())
      expect(await broker.getPositions()).toMatchObject([{ quantity: 65 }]);
  });

  it('never places a second order for the same signal and account, sequential or concurrent', async () => {
    const { router, store } = paperSetup(['a1', 'a2']);
    const enter = () => enterAll(router, 'S1', ['a1', 'a2']);
    const [first, concurrent] = await Promise.all([enter(), enter()]);
    const again = await enter();
    expect(first.map((r) => r.status)).toEqual(['placed', 'placed']);
    expect(concurrent.map((r) => r.status)).toEqual(['duplicate', 'duplicate']);
    expect(again.map((r) => r.status)).toEqual(['duplicate', 'duplicate']);
    expect(store.all()).toHaveLength(2);
  });

  it('finds orders of a previous process in the store and does not place them again', async () => {
    const { router, store, time, quotes } = paperSetup(['a1']);
    await router.submit(entryOf('S1'));
    const restarted = makeRouter(time, store, { quotes });
    const broker = new PaperBroker({ quotes, scheduler: time.scheduler });
    restarted.addAccount({ accountId: 'a1', broker });
    const result = await restarted.submit(entryOf('S1'));
    expect(result.status).toBe('duplicate');
    expect(await broker.getPositions()).toEqual([]);
  });

  it('splits an order above the freeze quantity into whole-lot legs', async () => {
    const { router } = paperSetup(['a1'], {}, { lotSize: () => 65 });
    const result = await router.submit(entryOf('S1', 'a1', { quantity: 4_000 }));
    expect(result.orders.map((o) => [o.purpose, o.signalId, o.leg, o.quantity, o.intentKey])).toEqual([
      ['entry', 'S1', 0, 1_755, 'S1:a1:entry#0'],
      ['entry', 'S1', 1, 1_755, 'S1:a1:entry#1'],
      ['entry', 'S1', 2, 490, 'S1:a1:entry#2'],
    ]);
  });

  it('sends a protected limit instead of MARKET when the broker requires it', async () => {
    const { router, brokers } = paperSetup(['a1'], { requiresMarketProtection: true });
    const result = await router.submit(entryOf('S1'));
    const order = router.getOrder(result.orders[0]?.clientOrderId ?? '');
    expect(order).toMatchObject({
      type: 'LIMIT',
      price: 102,
      protectedFrom: 'MARKET',
      state: 'FILLED',
      avgPrice: 100.5,
    });
    expect(await brokers.get('a1')?.getPositions()).toMatchObject([{ quantity: 65 }]);
  });

  it('takes an account whose broker tag field is shorter than the algo tag (the adapter fits the tag)', async () => {
    const time = new VirtualTime(START);
    const quotes = new Quotes();
    const router = makeRouter(time, new InMemoryOrderStore(), { quotes });
    const paper = new PaperBroker({ quotes, scheduler: time.scheduler });
    // A live adapter cuts the algo tag to its broker's field itself (server/src/brokers/orderTag.ts).
    const placeOrder = (request: OrderRequest) =>
      paper.placeOrder({ ...request, tag: request.tag.slice(0, 4) });
    const broker: Broker = {
      capabilities: { ...paper.capabilities, tagMaxLength: 4 },
      orderUpdates$: paper.orderUpdates$,
      placeOrder,
      modifyOrder: (id, amendment) => paper.modifyOrder(id, amendment),
      cancelOrder: (id) => paper.cancelOrder(id),
      getOrder: (ref) => paper.getOrder(ref),
      getPositions: () => paper.getPositions(),
    };
    expect(() => router.addAccount({ accountId: 'a1', broker })).not.toThrow();
    router.start();
    const result = await router.submit(entryOf('S1'));
    expect(result.status).toBe('placed');
  });

  it('lets a market order wait for its first quote (quoteWaitMs), and refuses it as NO_QUOTE when none comes', async () => {
    const time = new VirtualTime(START);
    let quote: Quote | undefined;
    const quotes = { getQuote: (symbol: string) => (quote?.symbol === symbol ? quote : undefined) };
    const router = makeRouter(time, new InMemoryOrderStore(), { quotes, quoteWaitMs: 2_000 });
    // The paper broker fills at a quote of its own: the router's quote alone decides the protection.
    const fills = new Quotes();
    const broker = new PaperBroker({
      quotes: fills,
      scheduler: time.scheduler,
      capabilities: { requiresMarketProtection: true },
    });
    router.addAccount({ accountId: 'a1', broker });
    router.start();
    const entry = (signalId: string) => router.submit(entryOf(signalId));
    // The quote comes 300 ms after the entry was routed (the feed's first price of a newly subscribed option).
    const late = entry('S1');
    await time.advance(300);
    quote = { symbol: SYMBOL, time: START + 300, bid: 100, ask: 100.5, ltp: 100 };
    await time.advance(100);
    const placed = await late;
    expect(placed?.status).toBe('placed');
    expect(router.getOrder(placed?.orders[0]?.clientOrderId ?? '')).toMatchObject({
      type: 'LIMIT',
      protectedFrom: 'MARKET',
    });
    // No quote at all: refused once the wait is over, never sent.
    quote = undefined;
    const none = entry('S2');
    await time.advance(2_100);
    const refused = await none;
    expect(refused?.status).toBe('rejected');
    expect(refused?.orders[0]?.reason).toMatch(/^NO_QUOTE/);
    expect(await broker.getPositions()).toMatchObject([{ quantity: 65 }]);
  });

  it('cancels and modifies a resting order through the broker', async () => {
    const { router } = paperSetup(['a1']);
    const result = await router.submit(entryOf('S1', 'a1', { type: 'LIMIT', price: 95 }));
    const id = result.orders[0]?.clientOrderId ?? '';
    expect(router.getOrder(id)?.state).toBe('ACCEPTED');
    expect(await router.modify(id, { price: 96 })).toMatchObject({ state: 'ACCEPTED', price: 96 });
    await router.cancel(id);
    expect(router.getOrder(id)?.state).toBe('CANCELLED');
  });

  it('limits one account to 10 orders in any 1 s window, queueing the rest', async () => {
    const time = new VirtualTime(START);
    const store = new InMemoryOrderStore();
    const router = makeRouter(time, store);
    const broker = new FlakyBroker(time, store);
    router.addAccount({ accountId: 'a1', broker });
    const submissions = Array.from({ length: 25 }, (_, i) =>
      router.submit({
        purpose: 'exit',
        positionId: `T${i}`,
        sequence: 1,
        accountId: 'a1',
        symbol: SYMBOL,
        side: 'SELL',
        quantity: 65,
        type: 'LIMIT',
        price: 90,
      }),
    );
    let done = false;
    void Promise.all(submissions).then(() => {
      done = true;
    });
    await time.until(() => done, 10_000, 100);
    const times = broker.placeTimes;
    expect(times).toHaveLength(25);
    for (const start of times)
      expect(times.filter((t) => t >= start && t < start + 1_000).length).toBeLessThanOrEqual(10);
    expect((times.at(-1) ?? 0) - START).toBe(2_000);
  });

  it('caps an account lower when configured', async () => {
    const time = new VirtualTime(START);
    const store = new InMemoryOrderStore();
    const router = makeRouter(time, store);
    const broker = new FlakyBroker(time, store);
    router.addAccount({ accountId: 'a1', broker, maxOrdersPerSecond: 2 });
    for (let i = 0; i < 5; i += 1) {
      void router.submit(limitBuy(`x-${i}`));
    }
    await time.advance(2_500);
    expect(broker.placeTimes.map((t) => t - START)).toEqual([0, 0, 1_000, 1_000, 2_000]);
  });
});

describe('OrderRouter after a restart', () => {
  it('recovers open orders from the store and reconciles them with the broker', async () => {
    const time = new VirtualTime(START);
    const store = new InMemoryOrderStore();
    const quotes = new Quotes();
    const broker = new PaperBroker({ quotes, scheduler: time.scheduler });
    // The previous process placed a resting order, then died before hearing back: UNKNOWN in the store.
    const { brokerOrderId } = await broker.placeOrder({ ...toRequestOf('OP-old'), type: 'LIMIT', price: 90 });
    await store.create(storedOrder('OP-old', 'UNKNOWN', { purpose: 'entry', signalId: 'S0' }));
    const router = makeRouter(time, store, { quotes });
    router.addAccount({ accountId: 'a1', broker });
    router.start();
    expect((await router.recover()).map((o) => o.clientOrderId)).toEqual(['OP-old']);
    await router.reconcile();
    expect(router.getOrder('OP-old')).toMatchObject({ state: 'ACCEPTED', brokerOrderId });
    // its later fill arrives on the broker's update stream and is persisted
    quotes.set(89, 89.5, 89.2);
    broker.reevaluate();
    await time.advance(0);
    expect((await store.get('OP-old'))?.state).toBe('FILLED');
  });

  it('settles what a stopped process left half-way: never sent is rejected, the rest is asked about, nothing resent', async () => {
    const time = new VirtualTime(START);
    const store = new InMemoryOrderStore();
    const quotes = new Quotes();
    const broker = new PaperBroker({ quotes, scheduler: time.scheduler });
    // The previous process sent OP-sent (the broker has it) and OP-lost (the broker never got it) but recorded
    // neither answer, and stopped before sending OP-new.
    const { brokerOrderId } = await broker.placeOrder({
      ...toRequestOf('OP-sent'),
      type: 'LIMIT',
      price: 90,
    });
    await store.create(
      storedOrder('OP-sent', 'SUBMITTED', { purpose: 'exit', positionId: 'T1', sequence: 1 }),
    );
    await store.create(
      storedOrder('OP-lost', 'SUBMITTED', { purpose: 'exit', positionId: 'T2', sequence: 1 }),
    );
    await store.create(
      storedOrder('OP-new', 'INITIALIZED', { purpose: 'exit', positionId: 'T3', sequence: 1 }),
    );
    // And OP-gone, acknowledged, whose broker has since lost it (a paper broker's book dies with its process).
    await store.create({
      ...storedOrder('OP-gone', 'ACCEPTED', { purpose: 'exit', positionId: 'T4', sequence: 1 }),
      brokerOrderId: 'B-gone',
    });
    const router = makeRouter(time, store, { quotes });
    router.addAccount({ accountId: 'a1', broker });
    router.start();
    const place = vi.spyOn(broker, 'placeOrder');
    await router.recover();
    expect(router.getOrder('OP-new')).toMatchObject({
      state: 'REJECTED',
      reason: 'NOT_SENT: stopped before it was sent',
    });
    expect(router.getOrder('OP-lost')?.state).toBe('UNKNOWN');
    await time.advance(2_000);
    expect(router.getOrder('OP-sent')).toMatchObject({ state: 'ACCEPTED', brokerOrderId });
    await time.advance(60_000);
    expect(router.getOrder('OP-lost')).toMatchObject({
      state: 'REJECTED',
      reason: 'NOT_FOUND: the broker has no such order',
    });
    expect(router.getOrder('OP-gone')?.state).toBe('EXPIRED');
    expect(place).not.toHaveBeenCalled();
    await router.idle();
    expect((await store.get('OP-lost'))?.state).toBe('REJECTED');
    expect((await store.get('OP-new'))?.state).toBe('REJECTED');
  });
});

describe('OrderRouter after a restart, an account registered later', () => {
  it('resolves a recovered order once its account is registered, not before', async () => {
    const time = new VirtualTime(START);
    const store = new InMemoryOrderStore();
    const quotes = new Quotes();
    await store.create(storedOrder('OP-entry', 'SUBMITTED', { purpose: 'entry', signalId: 'S9' }));
    const router = makeRouter(time, store, { quotes });
    router.start();
    await router.recover();
    await time.advance(120_000);
    // Nobody to ask yet: its outcome stays unknown.
    expect(router.getOrder('OP-entry')?.state).toBe('UNKNOWN');
    router.addAccount({ accountId: 'a1', broker: new PaperBroker({ quotes, scheduler: time.scheduler }) });
    await time.advance(120_000);
    expect(router.getOrder('OP-entry')).toMatchObject({
      state: 'REJECTED',
      reason: 'NOT_FOUND: the broker has no such order',
    });
  });
});

describe('OrderRouter under broker failures', () => {
  async function run(
    behaviours: PlaceBehaviour[],
    reportAs: BrokerOrderSnapshot['status'] = 'ACCEPTED',
    queryFails = [false],
  ) {
    const time = new VirtualTime(START);
    const store = new InMemoryOrderStore();
    const router = makeRouter(time, store);
    const broker = new FlakyBroker(time, store, behaviours, queryFails, reportAs);
    router.addAccount({ accountId: 'a1', broker });
    router.start();
    let result: AccountRouteResult | undefined;
    void router.submit(entryOf('S1')).then((r) => {
      result = r;
    });
    await time.until(() => result !== undefined && router.pendingResolutions === 0, 60_000, 50);
    const order = router.getOrder(result?.orders[0]?.clientOrderId ?? '');
    return { broker, order, result, store };
  }

  it('resolves a timed-out placement by asking the broker, without resending', async () => {
    const { broker, order } = await run(['hang'], 'FILLED');
    expect(broker.requests).toHaveLength(1);
    expect(order).toMatchObject({ state: 'FILLED', filledQty: 65 });
  });

  it('uses a late reply to resolve a timed-out placement', async () => {
    const { broker, order } = await run(['slow']);
    expect(broker.requests).toHaveLength(1);
    expect(order).toMatchObject({ state: 'ACCEPTED', brokerOrderId: `B-${order?.clientOrderId}` });
  });

  it('marks an order REJECTED (NOT_FOUND) when the broker answers every query without knowing it', async () => {
    const { broker, order } = await run(['dropBefore']);
    expect(broker.requests).toHaveLength(1);
    expect(order?.state).toBe('REJECTED');
    expect(order?.reason).toMatch(/^NOT_FOUND/);
  });

  it('keeps an order UNKNOWN for reconciliation when status queries keep failing', async () => {
    const { order } = await run(['dropAfter'], 'ACCEPTED', [true]);
    expect(order?.state).toBe('UNKNOWN');
  });

  it('retries a rate-limited placement (it was not placed) and then succeeds', async () => {
    const { broker, order } = await run(['rateLimited', 'ok']);
    expect(broker.requests).toHaveLength(2);
    expect(broker.placed.size).toBe(1);
    expect(order?.state).toBe('ACCEPTED');
  });

  it('turns a broker rejection into REJECTED with its kind and code', async () => {
    const { order, result } = await run(['reject']);
    expect(result?.status).toBe('rejected');
    expect(order?.reason).toMatch(/^rejected\/InputException/);
  });

  it('never produces two broker orders per (signal, account) under random timeouts, drops and repeated calls', async () => {
    const behaviourArb = fc.constantFrom<PlaceBehaviour>(
      'ok',
      'slow',
      'hang',
      'dropAfter',
      'dropBefore',
      'rateLimited',
      'reject',
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(behaviourArb, { minLength: 1, maxLength: 8 }),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 1, max: 4 }),
        fc.array(fc.integer({ min: 0, max: 3_000 }), { minLength: 1, maxLength: 4 }),
        async (behaviours, queryFails, accounts, retryAt) => {
          const time = new VirtualTime(START);
          const store = new InMemoryOrderStore();
          const router = makeRouter(time, store);
          const accountIds = Array.from({ length: accounts }, (_, i) => `a${i}`);
          const brokers = accountIds.map((accountId) => {
            const broker = new FlakyBroker(time, store, behaviours, queryFails);
            router.addAccount({ accountId, broker });
            return broker;
          });
          router.start();
          // The caller re-sends the same signal at random moments (e.g. a retry after its own timeout).
          let pending = retryAt.length;
          const schedule = [...retryAt].sort((a, b) => a - b);
          let clock = 0;
          for (const at of schedule) {
            await time.advance(at - clock);
            clock = at;
            void enterAll(router, 'S1', accountIds).then(() => {
              pending -= 1;
            });
          }
          await time.until(() => pending === 0 && router.pendingResolutions === 0, 120_000, 100);
          for (const broker of brokers) {
            expect(broker.persistedBeforeCall).toBe(true);
            expect([...broker.placed.values()].every((count) => count === 1)).toBe(true);
            expect(broker.placed.size).toBeLessThanOrEqual(1);
            expect(new Set(broker.requests.map((r) => r.clientOrderId)).size).toBeLessThanOrEqual(1);
          }
          expect(store.all()).toHaveLength(accounts);
          for (const [i, broker] of brokers.entries()) {
            const order = store.all().find((o) => o.accountId === `a${i}`);
            const placed = order !== undefined && broker.placed.has(order.clientOrderId);
            // An order the broker holds is never reported rejected; one it never got is never reported accepted.
            expect(placed ? ['ACCEPTED', 'UNKNOWN'] : ['REJECTED', 'UNKNOWN']).toContain(order?.state);
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});

/** An in-memory store that fails chosen writes, to check what the router does when persistence fails. */
class FailingStore extends InMemoryOrderStore {
  constructor(private readonly failWrite: (order: Order) => boolean) {
    super();
  }
  override async create(order: Order): Promise<void> {
    if (this.failWrite(order)) throw new Error(`disk full at ${order.state}`);
    await super.create(order);
  }
  override async update(order: Order): Promise<void> {
    if (this.failWrite(order)) throw new Error(`disk full at ${order.state}`);
    await super.update(order);
  }
}

describe('OrderRouter fast path (zero-latency broker, free rate limit)', () => {
  it('persists SUBMITTED (created so), ACCEPTED, FILLED in order for every account, SUBMITTED durable before the call, and leaves no timer behind', async () => {
    const accountIds = Array.from({ length: 50 }, (_, i) => `a${i}`);
    const { router, store, brokers, time } = paperSetup(accountIds);
    const stateAtCall: string[] = [];
    for (const broker of brokers.values()) {
      const place = broker.placeOrder.bind(broker);
      broker.placeOrder = async (request) => {
        stateAtCall.push((await store.get(request.clientOrderId))?.state ?? 'missing');
        return place(request);
      };
    }
    const results = await enterAll(router, 'S1', accountIds);
    expect(results.every((r) => r.status === 'placed')).toBe(true);
    expect(stateAtCall).toEqual(accountIds.map(() => 'SUBMITTED'));
    for (const result of results) {
      const id = result.orders[0]?.clientOrderId;
      expect(store.writes.filter((w) => w.clientOrderId === id).map((w) => w.state)).toEqual([
        'SUBMITTED',
        'ACCEPTED',
        'FILLED',
      ]);
    }
    // The shared request timeout is cancelled once every call has answered.
    expect(time.scheduler.actions).toHaveLength(0);
  });

  it('never calls the broker when an order created SUBMITTED could not be written', async () => {
    const time = new VirtualTime(START);
    const store = new FailingStore((order) => order.state === 'SUBMITTED');
    const router = makeRouter(time, store);
    const broker = new FlakyBroker(time, store);
    router.addAccount({ accountId: 'a1', broker });
    const result = await router.submit(entryOf('S1'));
    expect(broker.requests).toHaveLength(0);
    expect(result).toMatchObject({
      status: 'failed',
      orders: [],
      error: 'store: Error: disk full at SUBMITTED',
    });
  });

  it('writes an order held by the rate limit twice (created, then SUBMITTED) and never sends it unless both are durable', async () => {
    const time = new VirtualTime(START);
    // The first order goes at once (created SUBMITTED); the second waits a second for the limiter, so it is
    // created INITIALIZED and its SUBMITTED version, written when its slot comes, fails.
    let creates = 0;
    const store = new FailingStore((order) => order.state === 'SUBMITTED' && creates > 1);
    const create = store.create.bind(store);
    store.create = (order) => {
      creates += 1;
      return create(order);
    };
    const router = makeRouter(time, store);
    const broker = new FlakyBroker(time, store);
    router.addAccount({ accountId: 'a1', broker, maxOrdersPerSecond: 1 });
    const anomalies: string[] = [];
    router.anomalies$.subscribe((a) => anomalies.push(a.message));
    const first = router.submit(limitBuy('x-1'));
    const second = router.submit(limitBuy('x-2'));
    await time.advance(1_500);
    expect((await first).status).toBe('placed');
    const held = await second;
    expect(broker.requests.map((r) => r.clientOrderId)).toEqual([(await first).orders[0]?.clientOrderId]);
    expect(held.status).toBe('rejected');
    expect(held.orders[0]?.reason).toMatch(/^NOT_SENT: disk full at SUBMITTED/);
    expect(
      store.writes.filter((w) => w.clientOrderId === held.orders[0]?.clientOrderId).map((w) => w.state),
    ).toEqual(['INITIALIZED', 'REJECTED']);
    expect(anomalies).toContain('store.update failed: Error: disk full at SUBMITTED');
  });

  it('keeps writing later versions in order after one write fails', async () => {
    const time = new VirtualTime(START);
    const store = new FailingStore((order) => order.state === 'ACCEPTED');
    const quotes = new Quotes();
    const router = makeRouter(time, store, { quotes });
    router.addAccount({ accountId: 'a1', broker: new PaperBroker({ quotes, scheduler: time.scheduler }) });
    router.start();
    const anomalies: string[] = [];
    router.anomalies$.subscribe((a) => anomalies.push(a.message));
    const result = await router.submit(entryOf('S1'));
    await time.advance(0);
    expect(store.writes.map((w) => w.state)).toEqual(['SUBMITTED', 'FILLED']);
    expect(result.orders[0]?.state).toBe('FILLED');
    expect(anomalies).toEqual(['store.update failed: Error: disk full at ACCEPTED']);
  });
});
