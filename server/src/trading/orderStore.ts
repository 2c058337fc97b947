// The engine's OrderStore port on the `orders` table. Every write also appends the order's audit trail
// (`order_events`, SEBI: kept 5 years) and a `logs` row in the same transaction; writes arriving together are
// committed together (group commit); `admin:log` is published only after the commit. A repeated intent key (unique index) is the engine's DuplicateIntentError, which is what
// makes an entry idempotent across restarts and processes.
import { DuplicateIntentError, type Order, type OrderState, type OrderStore } from '@optionpilot/engine';
import {
  appendLog,
  appendOrderEvent,
  findOrderByClientId,
  findOrderByIntentKey,
  insertOrder,
  isUniqueViolation,
  listOpenOrders,
  updateOrderByClientId,
  type Database,
  type Db,
  type LogRow,
  type OrderRow,
} from '../db';
import { createGroupCommit } from '../db/groupCommit';
import { presentLog } from '../presenters/log';
import type { Realtime } from '../realtime/publisher';

/** Integer paise of a rupee price (premiums are ₹0.05 multiples; rounding removes binary noise). */
export function toPaise(rupees: number): number {
  return Math.round(rupees * 100);
}

/**
 * What an intent key says about an order. Keys are `<signalId>:<userId>:entry#<leg>` for entries,
 * `<tradeId>:exit:<n>#<leg>` for exits and `<tradeId>:stop:<n>#<leg>` for a live position's stop resting at the
 * broker (an exit order too; the router appends `#<leg>`), so the row's purpose and trade are known without a side
 * table.
 */
export function parseIntentKey(intentKey: string): { purpose: 'entry' | 'exit'; tradeId: number | null } {
  const exit = /^(\d+):(?:exit|stop):\d+(#\d+)?$/.exec(intentKey);
  if (exit) return { purpose: 'exit', tradeId: Number(exit[1]) };
  return { purpose: 'entry', tradeId: null };
}

function toOrder(row: OrderRow): Order {
  return {
    clientOrderId: row.client_order_id,
    ...(row.broker_order_id === null ? {} : { brokerOrderId: row.broker_order_id }),
    accountId: String(row.user_id),
    intentKey: row.intent_key,
    ...(row.signal_id === null ? {} : { signalId: String(row.signal_id) }),
    symbol: row.symbol,
    side: row.side,
    type: row.order_type,
    quantity: row.quantity,
    ...(row.price_paise === null ? {} : { price: row.price_paise / 100 }),
    ...(row.trigger_price_paise === null ? {} : { triggerPrice: row.trigger_price_paise / 100 }),
    product: row.product,
    tag: row.tag,
    state: row.status,
    filledQty: row.filled_quantity,
    avgPrice: row.average_price_paise / 100,
    fillIds: JSON.parse(row.fill_ids) as string[],
    ...(row.pending_amendment === null
      ? {}
      : { pendingAmendment: JSON.parse(row.pending_amendment) as Order['pendingAmendment'] }),
    ...(row.protected_from === null ? {} : { protectedFrom: row.protected_from as Order['type'] }),
    ...(row.reject_reason === null ? {} : { reason: row.reject_reason }),
    ...(row.late_fill ? { lateFill: true } : {}),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The columns of an order that change with its state. */
function mutableColumns(order: Order) {
  return {
    broker_order_id: order.brokerOrderId ?? null,
    order_type: order.type,
    quantity: order.quantity,
    price_paise: order.price === undefined ? null : toPaise(order.price),
    trigger_price_paise: order.triggerPrice === undefined ? null : toPaise(order.triggerPrice),
    status: order.state,
    filled_quantity: order.filledQty,
    average_price_paise: toPaise(order.avgPrice),
    fill_ids: JSON.stringify(order.fillIds),
    pending_amendment: order.pendingAmendment === undefined ? null : JSON.stringify(order.pendingAmendment),
    protected_from: order.protectedFrom ?? null,
    late_fill: order.lateFill === true,
    reject_reason: order.reason ?? null,
  };
}

function describe(order: Order, event: string): string {
  const price = order.filledQty > 0 ? ` @ ₹${order.avgPrice.toFixed(2)}` : '';
  const reason = order.reason !== undefined && event !== 'FILLED' ? ` (${order.reason})` : '';
  return `Order ${order.side} ${order.quantity} ${order.symbol} ${event}${price}${reason} [${order.clientOrderId}]`;
}

export interface DbOrderStoreOptions {
  db: Database;
  publisher: Realtime;
  /** the broker an account trades through ('paper' until live brokers are connected) */
  brokerOf: (accountId: string) => string;
}

type OrderWrite =
  { kind: 'create'; order: Order } | { kind: 'update'; order: Order; from: OrderState | null };

/** One order write (the row, its audit event and its log line) inside the batch's transaction. */
async function writeOrder(
  trx: Db,
  write: OrderWrite,
  brokerOf: (accountId: string) => string,
): Promise<LogRow> {
  const { order } = write;
  if (write.kind === 'create') {
    const { purpose, tradeId } = parseIntentKey(order.intentKey);
    const userId = Number(order.accountId);
    const row = await insertOrder(
      trx,
      {
        client_order_id: order.clientOrderId,
        intent_key: order.intentKey,
        user_id: userId,
        trade_id: tradeId,
        signal_id: order.signalId === undefined ? null : Number(order.signalId),
        broker: brokerOf(order.accountId),
        symbol: order.symbol,
        side: order.side,
        order_type: order.type,
        product: order.product,
        quantity: order.quantity,
        price_paise: order.price === undefined ? null : toPaise(order.price),
        trigger_price_paise: order.triggerPrice === undefined ? null : toPaise(order.triggerPrice),
        status: order.state,
        tag: order.tag,
        purpose,
      },
      order.createdAt,
    );
    await appendOrderEvent(trx, {
      order_id: row.id,
      at: order.createdAt,
      event_type: 'CREATED',
      from_status: null,
      to_status: order.state,
      data: { intentKey: order.intentKey, quantity: order.quantity, type: order.type },
    });
    return appendLog(trx, {
      event_type: 'order',
      description: describe(order, 'created'),
      user_id: userId,
      data: { clientOrderId: order.clientOrderId, purpose, tradeId, signalId: order.signalId ?? null },
    });
  }
  const { from } = write;
  const eventType = from === order.state ? 'UPDATED' : order.state;
  const row = await updateOrderByClientId(trx, order.clientOrderId, mutableColumns(order), order.updatedAt);
  if (row === undefined) throw new Error(`order ${order.clientOrderId} is not in the database`);
  await appendOrderEvent(trx, {
    order_id: row.id,
    at: order.updatedAt,
    event_type: eventType,
    from_status: from,
    to_status: order.state,
    data: {
      filledQty: order.filledQty,
      avgPrice: order.avgPrice,
      brokerOrderId: order.brokerOrderId ?? null,
      reason: order.reason ?? null,
    },
  });
  return appendLog(trx, {
    event_type: 'order',
    description: describe(order, eventType),
    user_id: row.user_id,
    data: { clientOrderId: order.clientOrderId, from, to: order.state },
  });
}

/**
 * An OrderStore on the database; publishes each order event to admins after it is committed. Writes arriving
 * together (a signal's fan-out) share one transaction (db/groupCommit.ts); each still resolves only after its
 * commit, so an order is durable before its broker call.
 */
export function createDbOrderStore(options: DbOrderStoreOptions): OrderStore {
  const { db, publisher } = options;
  // The last state queued per order, to name each audit event by the transition it records.
  const lastState = new Map<string, OrderState>();
  const writes = createGroupCommit<OrderWrite, LogRow>({
    knex: db.knex,
    work: (trx, write) => writeOrder(trx, write, options.brokerOf),
  });

  return {
    async create(order) {
      let log;
      try {
        log = await writes.write({ kind: 'create', order });
      } catch (error) {
        if (isUniqueViolation(error)) throw new DuplicateIntentError(order.intentKey);
        throw error;
      }
      lastState.set(order.clientOrderId, order.state);
      publisher.toAdmins('admin:log', presentLog(log));
    },

    async update(order) {
      // Taken when queued: two updates of one order in a batch each name their own transition.
      const from = lastState.get(order.clientOrderId) ?? null;
      lastState.set(order.clientOrderId, order.state);
      const log = await writes.write({ kind: 'update', order, from });
      publisher.toAdmins('admin:log', presentLog(log));
    },

    async get(clientOrderId) {
      const row = await findOrderByClientId(db.knex, clientOrderId);
      return row && toOrder(row);
    },

    async findByIntentKey(intentKey) {
      const row = await findOrderByIntentKey(db.knex, intentKey);
      return row && toOrder(row);
    },

    async listOpen(accountId) {
      const rows = await listOpenOrders(db.knex, accountId === undefined ? undefined : Number(accountId));
      return rows.map(toOrder);
    },
  };
}
