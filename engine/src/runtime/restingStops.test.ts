// Resting stops against the paper broker (which holds SL orders until a quote crosses the trigger): placed as a
// protected SELL stop-limit, moved by a trailing stop (trigger and limit), released before an exit (cancelled, or
// reported filled when it filled first), a fill at the broker reported once, and found again after a restart.
import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { Quote } from '../core/types';
import { BrokerError, type Broker } from '../execution/broker';
import { InMemoryOrderStore } from '../execution/orderStore';
import { OrderRouter } from '../execution/orderRouter';
import { PAPER_CAPABILITIES, PaperBroker } from '../execution/paperBroker';
import { VirtualTime } from '../execution/virtualTime';
import { RestingStops, type ProtectedPosition } from './restingStops';

const SYMBOL = 'NIFTY06JAN2624000CE';
const POSITION = { positionId: 'T1', accountId: 'A1', symbol: SYMBOL, quantity: 65 };

function setup(store = new InMemoryOrderStore()) {
  const time = new VirtualTime(Date.UTC(2026, 0, 5, 4, 30));
  let quote: Quote = { symbol: SYMBOL, time: time.now(), bid: 100, ask: 100.1, ltp: 100 };
  const quotes = { getQuote: (s: string) => (s === SYMBOL ? quote : undefined) };
  // Requires protection, as live brokers do: SL-M goes out as SL with a limit through the trigger.
  const broker = new PaperBroker({
    quotes,
    scheduler: time.scheduler,
    capabilities: { requiresMarketProtection: true },
  });
  let seq = 0;
  const router = new OrderRouter({
    scheduler: time.scheduler,
    store,
    quotes,
    tag: 'OPALGO',
    newClientOrderId: () => `C${(seq += 1)}`,
  });
  router.addAccount({ accountId: 'A1', broker });
  router.start();
  const filled: string[] = [];
  const warnings: string[] = [];
  // The position holds its resting stop; the stops find it by id when a stop order fills.
  const position: ProtectedPosition = { ...POSITION, restingStop: undefined };
  const stops = new RestingStops({
    router,
    scheduler: time.scheduler,
    tickSize: 0.05,
    settleTimeoutMs: 5_000,
    positionOf: (id) => (id === position.positionId ? position : undefined),
    onFilled: (id) => filled.push(id),
    warn: (_id, _account, message) => warnings.push(message),
  });
  const setQuote = (ltp: number) => {
    quote = { symbol: SYMBOL, time: time.now(), bid: ltp, ask: ltp + 0.1, ltp };
    broker.reevaluate(SYMBOL);
  };
  return { time, router, broker, stops, filled, warnings, setQuote, store, position };
}

describe('RestingStops', () => {
  it('rests the stop as a protected SELL stop-limit on the tick grid', async () => {
    const { router, stops, position } = setup();
    await stops.place(position, 80.03);
    const [order] = router.listOrders();
    expect(order).toMatchObject({
      purpose: 'stop',
      positionId: 'T1',
      sequence: 1,
      leg: 0,
      intentKey: 'T1:stop:1#0',
      side: 'SELL',
      type: 'SL',
      protectedFrom: 'SL-M',
      triggerPrice: 80,
      state: 'ACCEPTED',
      quantity: 65,
    });
    expect(order!.price).toBeLessThan(80);
    expect(stops.has(position)).toBe(true);
  });

  it('follows a trailing stop with trigger and limit, and ignores moves under a tick', async () => {
    const { router, stops, position } = setup();
    await stops.place(position, 80);
    const before = router.listOrders()[0]!;
    await stops.move(position, 80.02);
    expect(router.getOrder(before.clientOrderId)?.triggerPrice).toBe(80);
    await stops.move(position, 90);
    const after = router.getOrder(before.clientOrderId)!;
    expect(after.triggerPrice).toBe(90);
    expect(after.price).toBeGreaterThan(before.price!);
    expect(after.price).toBeLessThan(90);
  });

  it('runs moves of one stop in order, and an exit waits for a move in flight before it cancels', async () => {
    const { router, stops, position } = setup();
    await stops.place(position, 80);
    const id = router.listOrders()[0]!.clientOrderId;
    const first = stops.move(position, 85);
    const second = stops.move(position, 90);
    const legs = await stops.release(position);
    await Promise.all([first, second]);
    expect(router.getOrder(id)?.triggerPrice).toBe(90);
    expect(legs?.map((o) => o.state)).toEqual(['CANCELLED']);
  });

  it('releases before an exit: an untouched stop is cancelled and nothing filled', async () => {
    const { stops, filled, position } = setup();
    await stops.place(position, 80);
    const legs = await stops.release(position);
    expect(legs?.map((o) => o.state)).toEqual(['CANCELLED']);
    expect(legs?.[0]?.filledQty).toBe(0);
    expect(stops.has(position)).toBe(false);
    expect(filled).toEqual([]);
  });

  it('an exit during the placement waits for it, so no stop is left resting after the position is sold', async () => {
    const { router, stops, position } = setup();
    const placing = stops.place(position, 80);
    expect(stops.has(position)).toBe(true);
    const legs = await stops.release(position);
    await placing;
    expect(legs?.map((o) => o.state)).toEqual(['CANCELLED']);
    expect(router.listOrders().filter((o) => o.state === 'ACCEPTED')).toEqual([]);
  });

  it('reports a stop the broker filled by itself once, and release then returns its fill', async () => {
    const { stops, filled, setQuote, position } = setup();
    await stops.place(position, 80);
    setQuote(79.5);
    expect(filled).toEqual(['T1']);
    const legs = await stops.release(position);
    expect(legs?.[0]).toMatchObject({ state: 'FILLED', filledQty: 65 });
    setQuote(79);
    expect(filled).toEqual(['T1']);
  });

  it('finds the resting stop again after a restart instead of placing another', async () => {
    const first = setup();
    await first.stops.place(first.position, 80);
    // A new process on the same store: the router recovers the open stop.
    const second = setup(first.store);
    await second.router.recover();
    await second.stops.restore(second.position, 80, true);
    expect(second.router.listOrders()).toHaveLength(1);
    expect(second.stops.has(second.position)).toBe(true);
  });

  it('places the stop again after a restart when none was resting, but not under an exit in flight', async () => {
    const { router, stops, position } = setup();
    await stops.restore(position, 80, false);
    expect(router.listOrders()).toHaveLength(0);
    await stops.restore(position, 80, true);
    expect(router.listOrders().map((o) => [o.purpose, o.positionId, o.sequence])).toEqual([
      ['stop', 'T1', 1],
    ]);
  });

  it('warns when the broker refuses the stop, and the engine keeps watching it', async () => {
    const { router, stops, warnings } = setup();
    const refusing: Broker = {
      capabilities: { ...PAPER_CAPABILITIES, name: 'refusing' },
      orderUpdates$: new Subject(),
      placeOrder: () =>
        Promise.reject(new BrokerError('rejected', 'NO_STOPS', 'stops not allowed', 'refusing')),
      modifyOrder: () => Promise.resolve(),
      cancelOrder: () => Promise.resolve(),
      getOrder: () => Promise.resolve(undefined),
      getPositions: () => Promise.resolve([]),
    };
    router.addAccount({ accountId: 'A2', broker: refusing });
    const elsewhere: ProtectedPosition = { ...POSITION, accountId: 'A2', restingStop: undefined };
    await stops.place(elsewhere, 80);
    expect(stops.has(elsewhere)).toBe(false);
    expect(warnings[0]).toMatch(/could not rest at the broker/);
  });
});
