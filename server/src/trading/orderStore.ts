// The engine's OrderStore port on the `orders` table. Every write also appends the order's audit trail
// (`order_events`, SEBI: kept 5 years) and a `logs` row in the same transaction; writes arriving together are
// committed together (group commit); `admin:log` is published only after the commit. A repeated intent key (unique index) is the engine's DuplicateIntentError, which is what
// makes an entry idempotent across restarts and processes.
import { rupeesToPaise } from '@optionpilot/engine/money';
import { DuplicateIntentError, type Order, type OrderState, type OrderStore } from '@optionpilot/engine';
import {
  appendLog,
  appendLogs,
  appendOrderEvent,
  appendOrderEvents,
  findOrderByClientId,
  findOrderByIntentKey,
  insertOrder,
  insertRows,
  isUniqueViolation,
  listOpenOrders,
  toNumber,
  updateOrderByClientId,
  type Database,
  type Db,
  type LogRow,
  type NewLog,
  type NewOrderEvent,
  type OrderRow,
} from '../db';
import { createGroupCommit } from '../db/groupCommit';
import { recordNotice } from '../notifications/outbox';
import { presentLog } from '../presenters/log';
import type { Realtime } from '../realtime/publisher';

/** The trade row of an order's position (the server's position ids are trade ids); null for an entry not yet linked. */
function tradeIdOf(order: Order): number | null {
  return order.positionId === undefined ? null : Number(order.positionId);
}

function toOrder(row: OrderRow): Order {
  return {
    clientOrderId: row.client_order_id,
    ...(row.broker_order_id === null ? {} : { brokerOrderId: row.broker_order_id }),
    accountId: String(row.user_id),
    purpose: row.purpose,
    ...(row.signal_id === null ? {} : { signalId: String(row.signal_id) }),
    ...(row.trade_id === null ? {} : { positionId: String(row.trade_id) }),
    sequence: row.sequence,
    leg: row.leg,
    intentKey: row.intent_key,
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
    price_paise: order.price === undefined ? null : rupeesToPaise(order.price),
    trigger_price_paise: order.triggerPrice === undefined ? null : rupeesToPaise(order.triggerPrice),
    status: order.state,
    filled_quantity: order.filledQty,
    average_price_paise: rupeesToPaise(order.avgPrice),
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

/** The whole row of an order as it stands (a create's row; for an update only the mutable columns are applied). */
function fullRow(order: Order, brokerOf: (accountId: string) => string) {
  return {
    client_order_id: order.clientOrderId,
    intent_key: order.intentKey,
    user_id: Number(order.accountId),
    trade_id: tradeIdOf(order),
    signal_id: order.signalId === undefined ? null : Number(order.signalId),
    broker: brokerOf(order.accountId),
    symbol: order.symbol,
    side: order.side,
    product: order.product,
    tag: order.tag,
    purpose: order.purpose,
    sequence: order.sequence,
    leg: order.leg,
    ...mutableColumns(order),
    created_at: order.createdAt,
    updated_at: order.updatedAt,
  };
}

/**
 * What an update changes: every column that moves with the order's state. A record over `mutableColumns`' keys, so
 * a column added there and not here fails to compile instead of silently never being updated.
 */
const MUTABLE_COLUMNS: Record<keyof ReturnType<typeof mutableColumns>, true> = {
  broker_order_id: true,
  order_type: true,
  quantity: true,
  price_paise: true,
  trigger_price_paise: true,
  status: true,
  filled_quantity: true,
  average_price_paise: true,
  fill_ids: true,
  pending_amendment: true,
  protected_from: true,
  late_fill: true,
  reject_reason: true,
};
const MUTABLE = [...Object.keys(MUTABLE_COLUMNS), 'updated_at'];
/** A batch's rows go in as an upsert on the client order id: a create inserts, an update sets `MUTABLE`. */
const UPSERT_TAIL = `on conflict ("client_order_id") do update set ${MUTABLE.map((c) => `"${c}" = excluded."${c}"`).join(', ')} returning "id", "client_order_id", "user_id"`;

/** How the audit trail names a write: the state it reached, or UPDATED when the state stayed. */
function eventTypeOf(write: OrderWrite): string {
  if (write.kind === 'create') return 'CREATED';
  return write.from === write.order.state ? 'UPDATED' : write.order.state;
}

/**
 * The audit events of a write (`order_events`, SEBI: kept 5 years). An order the router creates already SUBMITTED
 * (it could be sent at once: one write before the broker call instead of two) gets the two events its two writes
 * would have had, CREATED then SUBMITTED, so the trail reads the same either way.
 */
function eventsOf(write: OrderWrite, orderId: number): NewOrderEvent[] {
  if (write.kind === 'create' && write.order.state === 'SUBMITTED') {
    return [
      { ...eventOf(write, orderId), to_status: 'INITIALIZED' },
      eventOf({ kind: 'update', order: write.order, from: 'INITIALIZED' }, orderId),
    ];
  }
  return [eventOf(write, orderId)];
}

function eventOf(write: OrderWrite, orderId: number): NewOrderEvent {
  const { order } = write;
  if (write.kind === 'create') {
    return {
      order_id: orderId,
      at: order.createdAt,
      event_type: 'CREATED',
      from_status: null,
      to_status: order.state,
      data: { intentKey: order.intentKey, quantity: order.quantity, type: order.type },
    };
  }
  return {
    order_id: orderId,
    at: order.updatedAt,
    event_type: eventTypeOf(write),
    from_status: write.from,
    to_status: order.state,
    data: {
      filledQty: order.filledQty,
      avgPrice: order.avgPrice,
      brokerOrderId: order.brokerOrderId ?? null,
      reason: order.reason ?? null,
    },
  };
}

/** The `logs` line of a write. */
function logOf(write: OrderWrite, userId: number): NewLog {
  const { order } = write;
  if (write.kind === 'create') {
    return {
      event_type: 'order',
      // An order created already SUBMITTED (sent at once) says so: its log line stands for both steps.
      description: describe(order, order.state === 'SUBMITTED' ? 'created, SUBMITTED' : 'created'),
      user_id: userId,
      data: {
        clientOrderId: order.clientOrderId,
        purpose: order.purpose,
        tradeId: tradeIdOf(order),
        signalId: order.signalId ?? null,
      },
    };
  }
  return {
    event_type: 'order',
    description: describe(order, eventTypeOf(write)),
    user_id: userId,
    data: { clientOrderId: order.clientOrderId, from: write.from, to: order.state },
  };
}

/**
 * A rejected order's notice for its trader, in the write's transaction; one per order (the client order id is the
 * fact key, so a second write of the rejection records nothing). Only rejections pay for the extra insert.
 */
async function recordRejection(trx: Db, write: OrderWrite, userId: number, broker: string): Promise<void> {
  const { order } = write;
  if (order.state !== 'REJECTED' || (write.kind === 'update' && write.from === 'REJECTED')) return;
  await recordNotice(
    trx,
    {
      event: 'order_rejected',
      userId,
      factKey: order.clientOrderId,
      payload: {
        kind: 'rejected',
        clientOrderId: order.clientOrderId,
        broker,
        symbol: order.symbol,
        side: order.side,
        quantity: order.quantity,
        reason: order.reason ?? null,
        at: order.updatedAt,
      },
    },
    order.updatedAt,
  );
}

/** One order write (the row, its audit event and its log line) inside the batch's transaction. */
async function writeOrder(
  trx: Db,
  write: OrderWrite,
  brokerOf: (accountId: string) => string,
): Promise<LogRow> {
  const { order } = write;
  if (write.kind === 'create') {
    const { created_at: createdAt, updated_at: _updatedAt, ...row } = fullRow(order, brokerOf);
    const saved = await insertOrder(trx, row, createdAt);
    await appendOrderEvents(trx, eventsOf(write, saved.id));
    await recordRejection(trx, write, saved.user_id, saved.broker);
    return appendLog(trx, logOf(write, saved.user_id));
  }
  const row = await updateOrderByClientId(trx, order.clientOrderId, mutableColumns(order), order.updatedAt);
  if (row === undefined) throw new Error(`order ${order.clientOrderId} is not in the database`);
  await appendOrderEvent(trx, eventOf(write, row.id));
  await recordRejection(trx, write, row.user_id, row.broker);
  return appendLog(trx, logOf(write, row.user_id));
}

/** Splits writes into runs in which no order appears twice (one multi-row statement may touch a row once). */
function runsOfDistinctOrders(writes: readonly OrderWrite[]): OrderWrite[][] {
  const runs: OrderWrite[][] = [];
  let run: OrderWrite[] = [];
  let seen = new Set<string>();
  for (const write of writes) {
    if (seen.has(write.order.clientOrderId)) {
      runs.push(run);
      run = [];
      seen = new Set();
    }
    run.push(write);
    seen.add(write.order.clientOrderId);
  }
  if (run.length > 0) runs.push(run);
  return runs;
}

/**
 * A batch of order writes in three multi-row statements per run: the rows (created, or their mutable columns
 * updated: an upsert on the client order id), their audit events, their log lines. Returns each write's log row,
 * in order. A failure (a repeated intent key) throws, and the group commit writes the batch again one by one.
 */
async function writeOrders(
  trx: Db,
  writes: readonly OrderWrite[],
  brokerOf: (accountId: string) => string,
): Promise<LogRow[]> {
  const logs: LogRow[] = [];
  for (const run of runsOfDistinctOrders(writes)) {
    const updates = run.filter((w) => w.kind === 'update').map((w) => w.order.clientOrderId);
    if (updates.length > 0) {
      // An update of an order that is not stored must fail as the one-by-one write does, not insert it.
      const known = await trx('orders').whereIn('client_order_id', updates).count({ n: '*' });
      if (toNumber((known[0] as { n: unknown } | undefined)?.n) !== new Set(updates).size) {
        throw new Error('an updated order is not in the database');
      }
    }
    const saved = (await insertRows(
      trx,
      'orders',
      run.map((w) => fullRow(w.order, brokerOf)),
      UPSERT_TAIL,
    )) as Array<{
      id: unknown;
      client_order_id: string;
      user_id: unknown;
    }>;
    const ids = new Map(
      saved.map((r) => [r.client_order_id, { id: toNumber(r.id), userId: toNumber(r.user_id) }]),
    );
    const idOf = (w: OrderWrite) => {
      const found = ids.get(w.order.clientOrderId);
      if (found === undefined) throw new Error(`order ${w.order.clientOrderId} was not written`);
      return found;
    };
    await appendOrderEvents(
      trx,
      run.flatMap((w) => eventsOf(w, idOf(w).id)),
    );
    for (const w of run) await recordRejection(trx, w, idOf(w).userId, brokerOf(w.order.accountId));
    logs.push(
      ...(await appendLogs(
        trx,
        run.map((w) => logOf(w, idOf(w).userId)),
      )),
    );
  }
  return logs;
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
    workMany: (trx, batch) => writeOrders(trx, batch, options.brokerOf),
  });

  return {
    async create(order) {
      // Known from when it is queued: an update queued behind it names the transition from this state.
      lastState.set(order.clientOrderId, order.state);
      let log;
      try {
        log = await writes.write({ kind: 'create', order });
      } catch (error) {
        lastState.delete(order.clientOrderId);
        if (isUniqueViolation(error)) throw new DuplicateIntentError(order.intentKey);
        throw error;
      }
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
