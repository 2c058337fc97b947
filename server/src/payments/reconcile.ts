// Orders a buyer paid but nobody told us about: the browser closed before verify and the webhook never came (not
// configured, or lost). Every few minutes, each Razorpay order still `created` after RECONCILE_AFTER_MS is asked
// about at Razorpay; a captured payment for the order's amount activates it through the same path as the webhook
// (so a verify or webhook arriving later adds nothing), and an order with no capture after ORDER_ABANDONED_MS is
// marked expired so it is not asked about forever. Runs at start too: work missed while the server was down is done.
import type { Deps } from '../deps';
import { settlePaymentOrder, type LogRow, type PaymentOrderRow } from '../db';
import { announceAudit } from '../services/audit';
import { RazorpayError } from './razorpayApi';
import type { PaymentGateway } from './gateway';
import { settleCaptured } from './webhook';

export const RECONCILE_AFTER_MS = 15 * 60_000;
export const ORDER_ABANDONED_MS = 24 * 3_600_000;
export const RECONCILE_EVERY_MS = 5 * 60_000;

type ReconcileDeps = Pick<Deps, 'db' | 'clock' | 'logger' | 'realtime' | 'config'>;

export interface ReconcileResult {
  checked: number;
  activatedUserIds: number[];
  expired: number;
}

/** One pass over the Razorpay orders left `created` for over 15 minutes. */
export async function reconcileOrders(props: {
  deps: ReconcileDeps;
  gateway: PaymentGateway;
  onUserChanged: (userId: number) => Promise<void>;
}): Promise<ReconcileResult> {
  const { deps, gateway } = props;
  const result: ReconcileResult = { checked: 0, activatedUserIds: [], expired: 0 };
  if (gateway.testMode) return result;
  const now = deps.clock.now();
  const due = (await deps.db
    .knex('payment_orders')
    .where({ status: 'created', provider: 'razorpay' })
    .where('created_at', '<=', now - RECONCILE_AFTER_MS)
    .orderBy('id')
    .select('id', 'provider_order_id', 'created_at')) as Array<
    Pick<PaymentOrderRow, 'id' | 'provider_order_id'> & { created_at: number | string }
  >;
  const logs: LogRow[] = [];
  for (const order of due) {
    result.checked += 1;
    let payments;
    try {
      payments = await gateway.orderPayments(order.provider_order_id);
    } catch (err) {
      if (!(err instanceof RazorpayError)) throw err;
      deps.logger.warn(
        { orderId: order.provider_order_id, status: err.status },
        'reconciliation: Razorpay failed',
      );
      continue;
    }
    const captured = payments.find((p) => p.status === 'captured');
    if (captured) {
      const acted = await deps.db.knex.transaction((trx) =>
        settleCaptured({ trx, deps, payment: captured, source: 'reconciliation' }),
      );
      if (acted.log) logs.push(acted.log);
      if (acted.activatedUserId !== null) result.activatedUserIds.push(acted.activatedUserId);
      else if (acted.note)
        deps.logger.warn({ orderId: order.provider_order_id, note: acted.note }, 'reconciliation');
    } else if (Number(order.created_at) <= now - ORDER_ABANDONED_MS) {
      if (await settlePaymentOrder(deps.db.knex, order.id, 'expired', now)) result.expired += 1;
    }
  }
  announceAudit({ deps, rows: logs });
  for (const userId of result.activatedUserIds) {
    try {
      await props.onUserChanged(userId);
    } catch (err) {
      deps.logger.error({ err, userId }, 'trading refresh after reconciliation failed');
    }
  }
  return result;
}

/** Reconciles now and then every RECONCILE_EVERY_MS; returns a stop function for shutdown. */
export function startOrderReconciliation(props: {
  deps: ReconcileDeps;
  gateway: PaymentGateway;
  onUserChanged: (userId: number) => Promise<void>;
  intervalMs?: number;
}): { ready: Promise<void>; stop: () => void } {
  const run = async () => {
    try {
      await reconcileOrders(props);
    } catch (err) {
      props.deps.logger.error({ err }, 'order reconciliation failed');
    }
  };
  const ready = run();
  const timer = setInterval(() => void run(), props.intervalMs ?? RECONCILE_EVERY_MS);
  timer.unref();
  return { ready, stop: () => clearInterval(timer) };
}
