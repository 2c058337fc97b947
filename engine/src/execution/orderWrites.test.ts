import { describe, expect, it } from 'vitest';
import type { Order } from './orderTypes';
import { OrderWrites } from './orderWrites';

const version = (clientOrderId: string, state: Order['state']): Order =>
  ({ clientOrderId, accountId: 'a1', state }) as Order;

/** A store whose writes finish only when released, in any order the test chooses. */
function gatedStore(fail: (order: Order) => boolean = () => false) {
  const started: string[] = [];
  const written: string[] = [];
  const gates: Array<() => void> = [];
  return {
    started,
    written,
    release: () => gates.shift()?.(),
    update(order: Order): Promise<void> {
      started.push(`${order.clientOrderId}:${order.state}`);
      return new Promise<void>((resolve, reject) => {
        gates.push(() => {
          if (fail(order)) reject(new Error(`no room for ${order.state}`));
          else {
            written.push(`${order.clientOrderId}:${order.state}`);
            resolve();
          }
        });
      });
    },
  };
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('OrderWrites', () => {
  it("writes one order's versions one after another, in order, while other orders' writes go ahead", async () => {
    const store = gatedStore();
    const writes = new OrderWrites(store, () => undefined);
    writes.queue(version('a', 'SUBMITTED'));
    writes.queue(version('a', 'ACCEPTED'));
    writes.queue(version('b', 'SUBMITTED'));
    // Nothing starts inside the caller's turn.
    expect(store.started).toEqual([]);
    await turn();
    expect(store.started).toEqual(['a:SUBMITTED', 'b:SUBMITTED']);
    store.release();
    await turn();
    expect(store.started).toEqual(['a:SUBMITTED', 'b:SUBMITTED', 'a:ACCEPTED']);
    const all = writes.written();
    store.release();
    store.release();
    await all;
    expect(store.written).toEqual(['a:SUBMITTED', 'b:SUBMITTED', 'a:ACCEPTED']);
  });

  it('reports a failed write, still writes the later versions, and makes the failure visible to a waiting sender', async () => {
    const failures: string[] = [];
    const store = gatedStore((order) => order.state === 'SUBMITTED');
    const writes = new OrderWrites(store, (order, error) =>
      failures.push(`${order.state}: ${(error as Error).message}`),
    );
    writes.queue(version('a', 'SUBMITTED'));
    const durable = writes.durable('a');
    writes.queue(version('a', 'REJECTED'));
    await turn();
    store.release();
    await expect(durable).rejects.toThrow('no room for SUBMITTED');
    await turn();
    store.release();
    await writes.written(['a']);
    expect(store.written).toEqual(['a:REJECTED']);
    expect(failures).toEqual(['SUBMITTED: no room for SUBMITTED']);
    // Settled chains are forgotten.
    expect(writes.durable('a')).toBeUndefined();
  });
});
