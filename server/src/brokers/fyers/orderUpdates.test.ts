// The polling half of the order updates, with the order socket down; the socket half runs against the fake in
// test/brokers/fyers.conformance.test.ts.
import { describe, expect, it } from 'vitest';
import { NEVER, startWith, VirtualTimeScheduler } from 'rxjs';
import { BrokerError } from '@optionpilot/engine';
import type { BrokerOrderSnapshot } from '@optionpilot/engine';
import type { OrderSocketEvent } from './orderSocket';
import { fyersOrderUpdates$ } from './orderUpdates';
import type { FyersOrderRow } from './wire';

const TAG = 'OPALGOOPmis0a1b2001x7k';

function row(status: number, filled: number, tag: string | null = TAG): FyersOrderRow {
  return {
    id: tag === TAG ? '1' : '2',
    status,
    qty: 65,
    filledQty: filled,
    limitPrice: 120,
    stopPrice: 0,
    tradedPrice: filled ? 120 : 0,
    type: 1,
    side: 1,
    symbol: 'NSE:NIFTY26D0124000CE',
    orderTag: tag,
  };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

async function run(books: Array<FyersOrderRow[] | Error>, polls: number) {
  const scheduler = new VirtualTimeScheduler();
  let calls = 0;
  const updates: BrokerOrderSnapshot[] = [];
  const down: OrderSocketEvent = { type: 'down' };
  const subscription = fyersOrderUpdates$({
    socket$: NEVER.pipe(startWith(down)),
    orderBook: async () => {
      const next = books[Math.min(calls, books.length - 1)] as FyersOrderRow[] | Error;
      calls += 1;
      if (next instanceof Error) throw next;
      return next;
    },
    now: () => 0,
    scheduler,
    pollIntervalMs: 100,
  }).subscribe((u) => updates.push(u));
  for (let i = 0; i < polls; i += 1) {
    await settle();
    scheduler.schedule(() => undefined, 100);
    scheduler.maxFrames = scheduler.now() + 100;
    scheduler.flush();
  }
  await settle();
  subscription.unsubscribe();
  return { updates, calls };
}

describe('fyersOrderUpdates$ while the order socket is down', () => {
  it('polls the order book, passes our orders only, and each change once', async () => {
    const { updates } = await run([[row(6, 0), row(6, 0, null)], [row(6, 0)], [row(6, 30)], [row(2, 65)]], 6);
    expect(updates.map((u) => [u.status, u.filledQty, u.clientOrderId])).toEqual([
      ['ACCEPTED', 0, 'OP-mis0a1b2-001-x7k'],
      ['PARTIALLY_FILLED', 30, 'OP-mis0a1b2-001-x7k'],
      ['FILLED', 65, 'OP-mis0a1b2-001-x7k'],
    ]);
  });

  it('keeps polling after a failed poll, and stops for good once the session has ended', async () => {
    const flaky = await run([new BrokerError('network', 'ECONNRESET', 'reset', 'fyers'), [row(6, 0)]], 3);
    expect(flaky.updates).toHaveLength(1);
    const expired = new BrokerError('auth_expired', '-8', 'expired', 'fyers');
    const ended = await run([[row(6, 0)], expired, [row(2, 65)]], 6);
    expect(ended.calls).toBe(2);
    expect(ended.updates.map((u) => u.status)).toEqual(['ACCEPTED']);
  });
});
