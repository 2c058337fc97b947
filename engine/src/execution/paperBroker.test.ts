import { describe, expect, it } from 'vitest';
import type { Quote } from '../core/types';
import { BrokerError } from './broker';
import type { BrokerOrderSnapshot } from './broker';
import type { OrderRequest } from './orderTypes';
import { PaperBroker } from './paperBroker';
import type { PaperBrokerOptions, QuoteSource } from './paperBroker';
import { VirtualTime } from './virtualTime';

const SYMBOL = 'NIFTY24NOV2624000CE';

class Quotes implements QuoteSource {
  private readonly quotes = new Map<string, Quote>();
  set(bid: number, ask: number, ltp = (bid + ask) / 2): void {
    this.quotes.set(SYMBOL, { symbol: SYMBOL, time: 0, bid, ask, ltp });
  }
  getQuote(symbol: string): Quote | undefined {
    return this.quotes.get(symbol);
  }
}

let seq = 0;
function request(overrides: Partial<OrderRequest> = {}): OrderRequest {
  seq += 1;
  return {
    clientOrderId: `OP-test-${seq}`,
    symbol: SYMBOL,
    side: 'BUY',
    type: 'MARKET',
    quantity: 65,
    product: 'MIS',
    tag: 'OPALGO',
    ...overrides,
  };
}

function setup(options: Partial<PaperBrokerOptions> = {}) {
  const time = new VirtualTime(0);
  const quotes = new Quotes();
  quotes.set(100, 100.5, 100.25);
  const broker = new PaperBroker({ quotes, scheduler: time.scheduler, ...options });
  const updates: BrokerOrderSnapshot[] = [];
  broker.orderUpdates$.subscribe((u) => updates.push(u));
  return { time, quotes, broker, updates };
}

describe('PaperBroker', () => {
  it('fills BUY at the ask and SELL at the bid, and keeps the position', async () => {
    const { broker, updates, quotes } = setup();
    const buy = await broker.placeOrder(request());
    expect(await broker.getOrder(buy)).toMatchObject({ status: 'FILLED', filledQty: 65, avgPrice: 100.5 });
    quotes.set(110, 110.5);
    await broker.placeOrder(request({ side: 'SELL' }));
    expect(updates.filter((u) => u.status === 'FILLED').map((u) => u.avgPrice)).toEqual([100.5, 110]);
    expect(await broker.getPositions()).toEqual([
      { symbol: SYMBOL, quantity: 0, avgPrice: 0, realisedPnl: 617.5 },
    ]);
  });

  it.each([
    [{ ticks: 2 }, 'BUY', 100.6],
    [{ ticks: 2 }, 'SELL', 99.9],
    [{ bps: 50 }, 'BUY', 101.05],
    [{ bps: 50 }, 'SELL', 99.5],
  ] as const)('applies adverse slippage %o on a %s', async (slippage, side, price) => {
    const { broker } = setup({ slippage });
    const placed = await broker.placeOrder(request({ side }));
    expect((await broker.getOrder(placed))?.avgPrice).toBe(price);
  });

  it('rests a LIMIT until marketable and fills it at the better of touch and limit', async () => {
    const { broker, quotes } = setup();
    const placed = await broker.placeOrder(request({ type: 'LIMIT', price: 99 }));
    expect((await broker.getOrder(placed))?.status).toBe('ACCEPTED');
    quotes.set(98, 98.5);
    broker.reevaluate(SYMBOL);
    expect(await broker.getOrder(placed)).toMatchObject({ status: 'FILLED', avgPrice: 98.5 });
  });

  it('triggers a SELL SL-M on the LTP and fills it at the bid', async () => {
    const { broker, quotes } = setup();
    const placed = await broker.placeOrder(request({ side: 'SELL', type: 'SL-M', triggerPrice: 90 }));
    quotes.set(91, 91.5, 91.2);
    broker.reevaluate();
    expect((await broker.getOrder(placed))?.status).toBe('ACCEPTED');
    quotes.set(89.5, 90, 89.8);
    broker.reevaluate();
    expect(await broker.getOrder(placed)).toMatchObject({ status: 'FILLED', avgPrice: 89.5 });
  });

  it('takes latencyMs of virtual time per call', async () => {
    const { broker, time } = setup({ latencyMs: 250 });
    let placed = false;
    void broker.placeOrder(request()).then(() => {
      placed = true;
    });
    await time.advance(249);
    expect(placed).toBe(false);
    await time.advance(1);
    expect(placed).toBe(true);
  });

  it('acts within the call at latency 0: updates are out before the reply, refusals still reject', async () => {
    const { broker, updates, time } = setup();
    const reply = broker.placeOrder(request());
    expect(updates.map((u) => u.status)).toEqual(['ACCEPTED', 'FILLED']);
    expect(time.scheduler.actions).toHaveLength(0);
    await expect(reply).resolves.toEqual({ brokerOrderId: updates[0]?.brokerOrderId });
    await expect(broker.placeOrder(request({ quantity: 0 }))).rejects.toMatchObject({ code: 'BAD_QTY' });
  });

  it('cancels a resting order and refuses to cancel it twice', async () => {
    const { broker, updates } = setup();
    const { brokerOrderId } = await broker.placeOrder(request({ type: 'LIMIT', price: 90 }));
    await broker.cancelOrder(brokerOrderId);
    expect(updates.at(-1)).toMatchObject({ brokerOrderId, status: 'CANCELLED' });
    await expect(broker.cancelOrder(brokerOrderId)).rejects.toMatchObject({
      kind: 'rejected',
      code: 'NOT_OPEN',
    });
  });

  it('refuses orders above the freeze quantity as a typed rejection', async () => {
    const { broker } = setup();
    const error = await broker.placeOrder(request({ quantity: 1_820 })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BrokerError);
    expect(error).toMatchObject({ kind: 'rejected', code: 'FREEZE_QTY' });
  });

  it('is deterministic: the same calls give the same updates', async () => {
    const run = async () => {
      const { broker, updates, quotes } = setup({ slippage: { ticks: 1 } });
      await broker.placeOrder(request({ clientOrderId: 'A' }));
      await broker.placeOrder(request({ clientOrderId: 'B', type: 'LIMIT', price: 99 }));
      quotes.set(98, 98.5);
      broker.reevaluate();
      return updates;
    };
    expect(await run()).toEqual(await run());
  });
});
