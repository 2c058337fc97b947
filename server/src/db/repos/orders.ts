import { OPEN_ORDER_STATES } from '@optionpilot/engine/execution/orderStateMachine';
import { insertRows, type Db } from '../knex';
import { rowMapper } from '../normalise';
import type { OrderEventRow, OrderRow } from '../rows';

const toOrder = rowMapper<OrderRow>(['late_fill']);
const toOrderEvent = rowMapper<OrderEventRow>();

export type NewOrder = Omit<
  OrderRow,
  | 'id'
  | 'status'
  | 'filled_quantity'
  | 'average_price_paise'
  | 'fill_ids'
  | 'pending_amendment'
  | 'protected_from'
  | 'late_fill'
  | 'reject_reason'
  | 'broker_order_id'
  | 'product'
  | 'created_at'
  | 'updated_at'
> &
  Partial<Pick<OrderRow, 'status' | 'product' | 'broker_order_id'>>;

/**
 * Persists an order before the broker is called. A repeated `intent_key` or (signal, user, purpose, leg) raises a
 * unique violation: that is the idempotency guarantee the engine's OrderStore port relies on.
 */
export async function insertOrder(db: Db, order: NewOrder, now = Date.now()): Promise<OrderRow> {
  const [row] = await db('orders')
    .insert({ ...order, created_at: now, updated_at: now })
    .returning('*');
  return toOrder(row);
}

export type OrderPatch = Partial<
  Omit<OrderRow, 'id' | 'client_order_id' | 'intent_key' | 'user_id' | 'created_at' | 'updated_at'>
>;

export async function updateOrderByClientId(
  db: Db,
  clientOrderId: string,
  patch: OrderPatch,
  now = Date.now(),
): Promise<OrderRow | undefined> {
  const [row] = await db('orders')
    .where({ client_order_id: clientOrderId })
    .update({ ...patch, updated_at: now })
    .returning('*');
  return row ? toOrder(row) : undefined;
}

/**
 * Sets the trade of several orders in one statement (a batch of opened trades links their entry orders); returns
 * how many rows it updated. Orders not stored are skipped, as `updateOrderByClientId` skips them.
 */
export async function linkOrdersToTrades(
  db: Db,
  links: ReadonlyArray<{ readonly clientOrderId: string; readonly tradeId: number }>,
  now = Date.now(),
): Promise<number> {
  if (links.length === 0) return 0;
  // One CASE over the client order ids; the cast types the bound trade id for PostgreSQL (an untyped parameter
  // would make the CASE text).
  const cases = links.map(() => 'WHEN ? THEN CAST(? AS INTEGER)').join(' ');
  const bindings = links.flatMap((link) => [link.clientOrderId, link.tradeId]);
  return db('orders')
    .whereIn(
      'client_order_id',
      links.map((link) => link.clientOrderId),
    )
    .update({ trade_id: db.raw(`CASE client_order_id ${cases} END`, bindings), updated_at: now });
}

export async function findOrderByClientId(db: Db, clientOrderId: string): Promise<OrderRow | undefined> {
  const row: unknown = await db('orders').where({ client_order_id: clientOrderId }).first();
  return row ? toOrder(row) : undefined;
}

export async function findOrderByIntentKey(db: Db, intentKey: string): Promise<OrderRow | undefined> {
  const row: unknown = await db('orders').where({ intent_key: intentKey }).first();
  return row ? toOrder(row) : undefined;
}

/** Orders not in a terminal state, oldest first. */
export async function listOpenOrders(db: Db, userId?: number): Promise<OrderRow[]> {
  const query = db('orders').whereIn('status', OPEN_ORDER_STATES);
  if (userId !== undefined) query.where({ user_id: userId });
  return (await query.orderBy('id')).map(toOrder);
}

export async function listOrders(
  db: Db,
  filter: { userId?: number; tradeId?: number; limit?: number } = {},
): Promise<OrderRow[]> {
  const query = db('orders').select('*');
  if (filter.userId !== undefined) query.where({ user_id: filter.userId });
  if (filter.tradeId !== undefined) query.where({ trade_id: filter.tradeId });
  query.orderBy([
    { column: 'created_at', order: 'desc' },
    { column: 'id', order: 'desc' },
  ]);
  if (filter.limit !== undefined) query.limit(filter.limit);
  return (await query).map(toOrder);
}

export interface NewOrderEvent {
  order_id: number;
  at: number;
  event_type: string;
  from_status?: string | null;
  to_status?: string | null;
  /** any JSON-serialisable value */
  data?: unknown;
}

/** Appends to the order audit trail (the table refuses updates and deletes). */
function eventColumns(event: NewOrderEvent) {
  return {
    order_id: event.order_id,
    at: event.at,
    event_type: event.event_type,
    from_status: event.from_status ?? null,
    to_status: event.to_status ?? null,
    data: event.data === undefined ? null : JSON.stringify(event.data),
  };
}

export async function appendOrderEvent(db: Db, event: NewOrderEvent): Promise<OrderEventRow> {
  const [row] = await db('order_events').insert(eventColumns(event)).returning('*');
  return toOrderEvent(row);
}

/** Appends several audit events in one statement. */
export async function appendOrderEvents(db: Db, events: readonly NewOrderEvent[]): Promise<void> {
  if (events.length === 0) return;
  await insertRows(db, 'order_events', events.map(eventColumns));
}

export async function listOrderEvents(db: Db, orderId: number): Promise<OrderEventRow[]> {
  return (await db('order_events').where({ order_id: orderId }).orderBy('id')).map(toOrderEvent);
}
