import type { SchedulerLike } from 'rxjs';
import type { OrderRouter } from '../execution/orderRouter';
import { isTerminal } from '../execution/orderStateMachine';
import type { Order } from '../execution/orderTypes';
import { roundToPaisa } from '../money';

/**
 * Waits until every order is terminal (a paper order already is), or until `timeoutMs` of engine time has passed:
 * then the orders as they stand (`Infinity`: no timeout). Each caller has its own timeout, so one account's silent broker holds up nobody else.
 */
export function settledOrders(
  router: OrderRouter,
  clientOrderIds: readonly string[],
  scheduler: SchedulerLike,
  timeoutMs: number,
): Promise<Order[]> {
  const current = (): Order[] =>
    clientOrderIds.map((id) => router.getOrder(id)).filter((o): o is Order => o !== undefined);
  const done = (): boolean => {
    const orders = current();
    return orders.length === clientOrderIds.length && orders.every((o) => isTerminal(o.state));
  };
  if (done()) return Promise.resolve(current());
  return new Promise((resolve) => {
    let finished = false;
    const finish = (): void => {
      if (finished) return;
      finished = true;
      for (const stop of watches) stop();
      timer?.unsubscribe();
      resolve(current());
    };
    // Each waiter hears only its own orders: a fan-out's 1,000 waiters are not each told of every other change.
    const watches = clientOrderIds.map((id) =>
      router.watchOrder(id, () => {
        if (done()) finish();
      }),
    );
    // An infinite wait has no timer (a timer of Infinity ms would fire at once on a real clock).
    const timer = Number.isFinite(timeoutMs) ? scheduler.schedule(finish, timeoutMs) : undefined;
  });
}

/** Filled quantity and its volume-weighted price (rounded to the paisa) over an order's legs. */
export function averageFill(orders: readonly Pick<Order, 'filledQty' | 'avgPrice'>[]): {
  quantity: number;
  price: number;
} {
  let quantity = 0;
  let value = 0;
  for (const order of orders) {
    quantity += order.filledQty;
    value += order.filledQty * order.avgPrice;
  }
  return { quantity, price: quantity > 0 ? roundToPaisa(value / quantity) : 0 };
}

/**
 * Takes orders off the broker: cancels each one still open and waits (up to `timeoutMs`) for the broker's word.
 * Resolves with the orders as they settled (any filled part counts), or undefined while any outcome is still
 * unknown — then nothing may be sold in their place.
 */
export async function cancelAndSettle(
  router: OrderRouter,
  clientOrderIds: readonly string[],
  scheduler: SchedulerLike,
  timeoutMs: number,
): Promise<Order[] | undefined> {
  for (const id of clientOrderIds) {
    const order = router.getOrder(id);
    if (order === undefined || isTerminal(order.state) || order.state === 'CANCEL_PENDING') continue;
    if (order.brokerOrderId === undefined) continue; // unknown to the broker yet: its resolution will tell
    try {
      await router.cancel(id);
    } catch {
      // Refused (it filled meanwhile) or unanswered: the settled states below tell.
    }
  }
  const legs = await settledOrders(router, clientOrderIds, scheduler, timeoutMs);
  const settled = legs.length === clientOrderIds.length && legs.every((o) => isTerminal(o.state));
  return settled ? legs : undefined;
}
