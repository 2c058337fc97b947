import { merge, Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { BrokerError } from '../execution/broker';
import { DisconnectedBroker } from '../execution/disconnectedBroker';
import type { Broker, BrokerOrderSnapshot, OrderRef } from '../execution/broker';
import type { PaperBroker } from '../execution/paperBroker';
import type { OrderRequest } from '../execution/orderTypes';
import { account, at, harness, signalDay } from './testHarness';
import type { RuntimeEvent } from './types';

interface Held {
  readonly request: OrderRequest;
  status: 'ACCEPTED' | 'FILLED' | 'CANCELLED';
  filledQty: number;
  avgPrice: number;
}

/**
 * A live broker (a paper book named `zerodha`) that accepts the first exit SELL and then leaves it working, as an
 * exchange does with an order nobody takes: the exit's fill times out while the order is still open. A cancel of
 * it either succeeds or, with `fillOnCancel`, finds it filled meanwhile.
 */
class SlowExitBroker implements Broker {
  readonly held = new Map<string, Held>();
  private readonly updates = new Subject<BrokerOrderSnapshot>();
  readonly orderUpdates$;
  private holding = true;

  constructor(
    private readonly paper: PaperBroker,
    private readonly now: () => number,
    private readonly fillOnCancel = false,
  ) {
    this.orderUpdates$ = merge(paper.orderUpdates$, this.updates);
  }

  get capabilities() {
    return this.paper.capabilities;
  }

  async placeOrder(request: OrderRequest) {
    if (!(this.holding && request.side === 'SELL' && request.type === 'MARKET')) {
      return this.paper.placeOrder(request);
    }
    this.holding = false;
    const brokerOrderId = `SLOW${this.held.size + 1}`;
    this.held.set(brokerOrderId, { request, status: 'ACCEPTED', filledQty: 0, avgPrice: 0 });
    return { brokerOrderId };
  }

  modifyOrder(brokerOrderId: string, amendment: Parameters<Broker['modifyOrder']>[1]) {
    return this.paper.modifyOrder(brokerOrderId, amendment);
  }

  async cancelOrder(brokerOrderId: string) {
    const held = this.held.get(brokerOrderId);
    if (held === undefined) return this.paper.cancelOrder(brokerOrderId);
    if (this.fillOnCancel) {
      this.fill(brokerOrderId, 88);
      throw new BrokerError('rejected', 'OrderException', 'order already complete', 'zerodha');
    }
    held.status = 'CANCELLED';
    this.updates.next(this.snapshot(brokerOrderId, held));
  }

  async getOrder(ref: OrderRef) {
    const id = 'brokerOrderId' in ref ? ref.brokerOrderId : undefined;
    const held = id === undefined ? undefined : this.held.get(id);
    return held === undefined ? this.paper.getOrder(ref) : this.snapshot(id as string, held);
  }

  getPositions() {
    return this.paper.getPositions();
  }

  /** The exchange fills every held order still working. */
  fillWorking(price: number): void {
    for (const [id, held] of this.held) if (held.status === 'ACCEPTED') this.fill(id, price);
  }

  /** The account's net position in a contract at the broker: the paper book's, less what held orders sold. */
  async netPosition(symbol: string): Promise<number> {
    const held = [...this.held.values()].reduce((sum, h) => sum + h.filledQty, 0);
    const paper = (await this.paper.getPositions()).find((p) => p.symbol === symbol)?.quantity ?? 0;
    return paper - held;
  }

  private fill(id: string, price: number): void {
    const held = this.held.get(id) as Held;
    held.status = 'FILLED';
    held.filledQty = held.request.quantity;
    held.avgPrice = price;
    this.updates.next(this.snapshot(id, held));
  }

  private snapshot(brokerOrderId: string, held: Held): BrokerOrderSnapshot {
    return {
      clientOrderId: held.request.clientOrderId,
      brokerOrderId,
      status: held.status,
      filledQty: held.filledQty,
      avgPrice: held.avgPrice,
      time: this.now(),
    };
  }
}

type Closed = Extract<RuntimeEvent, { kind: 'trade-closed' }>;

function liveWithSlowExit(fillOnCancel: boolean) {
  let broker: SlowExitBroker | undefined;
  const h = harness({
    accounts: [{ ...account('live'), paper: false, brokerKey: 'zerodha:AB1234:1' }],
    brokers: (_id, paper, now) => {
      broker ??= new SlowExitBroker(paper({ name: 'zerodha' }) as PaperBroker, now, fillOnCancel);
      return broker;
    },
  });
  return { h, broker: () => broker as SlowExitBroker };
}

describe('ExitDesk: an exit order still working when its fill times out', () => {
  it('is cancelled before the exit is sent again, so the position is sold once, never twice', async () => {
    const { h, broker } = liveWithSlowExit(false);
    for (const tick of signalDay().filter((t) => t.time <= at('09:17:30'))) await h.push(tick);
    await h.runtime.idle();
    const [position] = h.runtime.positions('live');
    expect(position).toBeDefined();

    h.runtime.flattenAll();
    // The first SELL works unfilled past the 10 s fill timeout; the retry a second later takes it off first.
    await h.wait(h.now() + 15_000);
    await h.runtime.idle();

    const exits = h.runtime.router.listOrders().filter((o) => o.purpose === 'exit');
    expect(exits.map((o) => o.state)).toEqual(['CANCELLED', 'FILLED']);
    expect(h.events.filter((e): e is Closed => e.kind === 'trade-closed')).toHaveLength(1);
    // Whatever the exchange does later, the cancelled order cannot sell: the account is flat, not short.
    broker().fillWorking(90);
    expect(await broker().netPosition(position!.symbol)).toBe(0);
  });

  it('counts the fill a cancel finds instead of selling again', async () => {
    const { h, broker } = liveWithSlowExit(true);
    for (const tick of signalDay().filter((t) => t.time <= at('09:17:30'))) await h.push(tick);
    await h.runtime.idle();
    const [position] = h.runtime.positions('live');

    h.runtime.flattenAll();
    await h.wait(h.now() + 15_000);
    await h.runtime.idle();

    const exits = h.runtime.router.listOrders().filter((o) => o.purpose === 'exit');
    expect(exits.map((o) => o.state)).toEqual(['FILLED']);
    const [closed] = h.events.filter((e): e is Closed => e.kind === 'trade-closed');
    expect(closed?.close).toMatchObject({ exitPremium: 88, orderIds: [exits[0]?.clientOrderId] });
    expect(await broker().netPosition(position!.symbol)).toBe(0);
  });
});

describe('ExitDesk: a live account whose broker session ended', () => {
  it('holds its exits (nothing sent anywhere) until the trader reconnects, then exits at the broker once', async () => {
    let book: PaperBroker | undefined;
    let connected = true;
    const h = harness({
      accounts: [{ ...account('live'), paper: false, brokerKey: 'zerodha:AB1234:1' }],
      brokers: (_id, paper) => {
        book ??= paper({ name: 'zerodha' }) as PaperBroker;
        return connected ? book : new DisconnectedBroker('zerodha');
      },
    });
    for (const tick of signalDay().filter((t) => t.time <= at('09:17:30'))) await h.push(tick);
    await h.runtime.idle();
    const [position] = h.runtime.positions('live');
    expect(position).toBeDefined();

    // Kite's nightly logout: the account's broker refuses everything; the operator flattens everything.
    connected = false;
    await h.runtime.sessionChanged('live');
    h.runtime.flattenAll();
    await h.wait(h.now() + 5_000);
    const exitsOf = () => h.runtime.router.listOrders().filter((o) => o.purpose === 'exit');
    expect(exitsOf()).toEqual([]);
    expect(h.runtime.positions('live')).toHaveLength(1);
    const waits = h.events.filter(
      (e) => e.kind === 'log' && e.message.includes('waits for the broker session'),
    );
    expect(waits).toHaveLength(1);

    // The trader reconnects: the held exit goes to the broker, once, after the resting stop comes off.
    connected = true;
    await h.runtime.sessionChanged('live');
    await h.wait(h.now() + 3_000);
    await h.runtime.idle();
    expect(h.runtime.positions('live')).toEqual([]);
    expect(exitsOf().map((o) => o.state)).toEqual(['FILLED']);
    expect((await book!.getPositions()).every((p) => p.quantity === 0)).toBe(true);
  });
});
