// Waiting for orders to settle: a waiter hears only its own orders' changes (a fan-out's waiters are not each told
// of every other order), resolves once all of them are terminal, and stops listening when it does.
import { describe, expect, it } from 'vitest';
import type { Quote } from '../core/types';
import { InMemoryOrderStore } from '../execution/orderStore';
import { OrderRouter } from '../execution/orderRouter';
import { PaperBroker } from '../execution/paperBroker';
import { VirtualTime } from '../execution/virtualTime';
import type { Order } from '../execution/orderTypes';
import { settledOrders } from './orderFills';

const SYMBOL = 'NIFTY06JAN2624000CE';

describe('settledOrders', () => {
  it('resolves on its own orders only, and leaves no listener behind', async () => {
    const time = new VirtualTime(Date.UTC(2026, 0, 5, 4, 30));
    let quote: Quote = { symbol: SYMBOL, time: time.now(), bid: 100, ask: 100.1, ltp: 100 };
    const quotes = { getQuote: (s: string) => (s === SYMBOL ? quote : undefined) };
    const broker = new PaperBroker({ quotes, scheduler: time.scheduler });
    let seq = 0;
    const router = new OrderRouter({
      scheduler: time.scheduler,
      store: new InMemoryOrderStore(),
      quotes,
      tag: 'OPALGO',
      newClientOrderId: () => `C${(seq += 1)}`,
    });
    router.addAccount({ accountId: 'A1', broker });
    router.start();
    const stop = (positionId: string, triggerPrice: number) =>
      router.submit({
        purpose: 'stop',
        positionId,
        sequence: 1,
        accountId: 'A1',
        symbol: SYMBOL,
        side: 'SELL',
        quantity: 65,
        type: 'SL-M',
        triggerPrice,
      });
    const high = (await stop('T1', 80)).orders[0]!.clientOrderId;
    const low = (await stop('T2', 70)).orders[0]!.clientOrderId;

    const heardByLow: Order[] = [];
    const stopWatching = router.watchOrder(low, (order) => heardByLow.push(order));
    const settled = settledOrders(router, [high], time.scheduler, Number.POSITIVE_INFINITY);

    // Only the higher stop is crossed: its waiter resolves; the lower stop's watcher heard nothing.
    quote = { symbol: SYMBOL, time: time.now(), bid: 79.5, ask: 79.6, ltp: 79.5 };
    broker.reevaluate(SYMBOL);
    const [order] = await settled;
    expect(order).toMatchObject({ clientOrderId: high, state: 'FILLED' });
    expect(heardByLow).toEqual([]);

    // The lower stop's change reaches its watcher; a watcher stopped before it hears nothing.
    const heardByStopped: Order[] = [];
    router.watchOrder(low, (order) => heardByStopped.push(order))();
    quote = { symbol: SYMBOL, time: time.now(), bid: 69.5, ask: 69.6, ltp: 69.5 };
    broker.reevaluate(SYMBOL);
    expect(heardByLow.map((o) => o.state)).toContain('FILLED');
    expect(heardByStopped).toEqual([]);
    stopWatching();
  });
});
