// The polling half of the order updates, with the stream never coming up (its authorization always fails);
// the stream half runs against the fake in orders.test.ts.
import { describe, expect, it } from 'vitest';
import { VirtualTimeScheduler } from 'rxjs';
import { BrokerError } from '@optionpilot/engine';
import type { BrokerOrderSnapshot } from '@optionpilot/engine';
import { createOrderUpdates$ } from './orderUpdates';
import type { UpstoxOrderRow } from './orderStatus';

const TAG = 'OPTIONPILOT-OPmis0a1b2001x7k';

function row(status: string, filled: number, tag: string | null = TAG): UpstoxOrderRow {
  return {
    order_id: tag === TAG ? '1' : '2',
    status,
    filled_quantity: filled,
    average_price: filled ? 120 : 0,
    tag,
  };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

async function run(books: Array<UpstoxOrderRow[] | Error>, polls: number) {
  const scheduler = new VirtualTimeScheduler();
  let calls = 0;
  const updates: BrokerOrderSnapshot[] = [];
  const subscription = createOrderUpdates$({
    authorize: () => Promise.reject(new Error('no stream')),
    orderBook: async () => {
      const next = books[Math.min(calls, books.length - 1)] as UpstoxOrderRow[] | Error;
      calls += 1;
      if (next instanceof Error) throw next;
      return next;
    },
    now: () => 0,
    scheduler,
    pollIntervalMs: 100,
    reconnectBackoffMs: [60_000],
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

describe('createOrderUpdates$ while the stream is down', () => {
  it('polls the order book, passes our orders only, and each change once', async () => {
    const { updates } = await run(
      [[row('open', 0), row('open', 0, null)], [row('open', 0)], [row('open', 30)], [row('complete', 65)]],
      6,
    );
    expect(updates.map((u) => [u.status, u.filledQty, u.clientOrderId])).toEqual([
      ['ACCEPTED', 0, 'OP-mis0a1b2-001-x7k'],
      ['PARTIALLY_FILLED', 30, 'OP-mis0a1b2-001-x7k'],
      ['FILLED', 65, 'OP-mis0a1b2-001-x7k'],
    ]);
  });

  it('keeps polling after a failed poll, and stops for good once the session has ended', async () => {
    const expired = new BrokerError('auth_expired', 'UDAPI100050', 'expired', 'upstox');
    const flaky = await run(
      [new BrokerError('network', 'ECONNRESET', 'reset', 'upstox'), [row('open', 0)]],
      3,
    );
    expect(flaky.updates).toHaveLength(1);
    const ended = await run([[row('open', 0)], expired, [row('complete', 65)]], 6);
    expect(ended.calls).toBe(2);
    expect(ended.updates.map((u) => u.status)).toEqual(['ACCEPTED']);
  });
});
