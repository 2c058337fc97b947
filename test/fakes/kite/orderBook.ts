// The fake's order book: Kite order objects (fields as in the order book / history responses of Kite Connect v3
// and kiteconnect-mocks), their status history, net positions, and the postbacks Kite sends for COMPLETE,
// CANCELLED, REJECTED and UPDATE (never on placement) with checksum = hex(sha256(order_id + order_timestamp +
// api_secret)).
import { createHash } from 'node:crypto';

/** A Kite order as the API returns it (the fields the adapter and the tests read, plus Kite's usual others). */
export interface KiteOrder {
  placed_by: string;
  order_id: string;
  exchange_order_id: string | null;
  parent_order_id: null;
  status: string;
  status_message: string | null;
  status_message_raw: string | null;
  order_timestamp: string;
  exchange_update_timestamp: string | null;
  exchange_timestamp: string | null;
  variety: 'regular';
  modified: boolean;
  exchange: string;
  tradingsymbol: string;
  instrument_token: number;
  order_type: string;
  transaction_type: 'BUY' | 'SELL';
  validity: 'DAY';
  product: string;
  quantity: number;
  disclosed_quantity: 0;
  price: number;
  trigger_price: number;
  average_price: number;
  filled_quantity: number;
  pending_quantity: number;
  cancelled_quantity: number;
  market_protection: number;
  meta: Record<string, never>;
  tag: string | null;
  tags: string[];
  guid: string;
}

/** Kite's timestamps: `YYYY-MM-DD HH:mm:ss` in IST. */
export function kiteTimestamp(epochMs: number): string {
  return new Date(epochMs + 5.5 * 3_600_000).toISOString().slice(0, 19).replace('T', ' ');
}

export function postbackChecksum(orderId: string, orderTimestamp: string, apiSecret: string): string {
  return createHash('sha256')
    .update(orderId + orderTimestamp + apiSecret)
    .digest('hex');
}

/** What a placement request decides about a new order. */
export type NewKiteOrder = Pick<
  KiteOrder,
  | 'exchange'
  | 'tradingsymbol'
  | 'instrument_token'
  | 'order_type'
  | 'transaction_type'
  | 'product'
  | 'quantity'
  | 'price'
  | 'trigger_price'
  | 'market_protection'
  | 'tag'
  | 'tags'
>;

interface BookEntry {
  readonly userId: string;
  history: KiteOrder[];
}

export interface NetPosition {
  quantity: number;
  buyValue: number;
  sellValue: number;
  buyQty: number;
  sellQty: number;
  token: number;
}

/** All users' orders at the fake. */
export class FakeOrderBook {
  private readonly entries = new Map<string, BookEntry>();
  private readonly placementOrder: string[] = [];
  private seq = 0;

  constructor(private readonly now: () => number) {}

  add(userId: string, fields: NewKiteOrder): KiteOrder {
    this.seq += 1;
    const stamp = kiteTimestamp(this.now());
    const base: KiteOrder = {
      ...fields,
      placed_by: userId,
      order_id: `2511240000${String(this.seq).padStart(5, '0')}`,
      exchange_order_id: null,
      parent_order_id: null,
      status: 'PUT ORDER REQ RECEIVED',
      status_message: null,
      status_message_raw: null,
      order_timestamp: stamp,
      exchange_update_timestamp: null,
      exchange_timestamp: null,
      variety: 'regular',
      modified: false,
      validity: 'DAY',
      disclosed_quantity: 0,
      average_price: 0,
      filled_quantity: 0,
      pending_quantity: fields.quantity,
      cancelled_quantity: 0,
      meta: {},
      guid: `fake${this.seq}`,
    };
    const open = fields.order_type === 'SL' || fields.order_type === 'SL-M' ? 'TRIGGER PENDING' : 'OPEN';
    const history = [base, { ...base, status: 'VALIDATION PENDING' }, { ...base, status: 'OPEN PENDING' }];
    const live: KiteOrder = {
      ...base,
      status: open,
      exchange_order_id: `1100000${String(this.seq).padStart(9, '0')}`,
      exchange_timestamp: stamp,
      exchange_update_timestamp: stamp,
    };
    history.push(live);
    this.entries.set(base.order_id, { userId, history });
    this.placementOrder.push(base.order_id);
    return live;
  }

  get(orderId: string): { userId: string; order: KiteOrder; history: readonly KiteOrder[] } | undefined {
    const entry = this.entries.get(orderId);
    const order = entry?.history[entry.history.length - 1];
    return entry && order ? { userId: entry.userId, order, history: entry.history } : undefined;
  }

  /** Appends a new version of an order (the order book shows the latest). */
  update(orderId: string, change: Partial<KiteOrder>): KiteOrder {
    const entry = this.entries.get(orderId);
    const current = entry?.history[entry.history.length - 1];
    if (!entry || !current) throw new Error(`no order ${orderId}`);
    const stamp = kiteTimestamp(this.now());
    const next: KiteOrder = { ...current, ...change, exchange_update_timestamp: stamp };
    entry.history.push(next);
    return next;
  }

  /** Latest version of every order of a user, in placement order (Kite's GET /orders). */
  ordersOf(userId: string): KiteOrder[] {
    const out: KiteOrder[] = [];
    for (const id of this.placementOrder) {
      const found = this.get(id);
      if (found?.userId === userId) out.push(found.order);
    }
    return out;
  }

  /** Every order, in placement order. */
  all(): KiteOrder[] {
    return this.placementOrder.flatMap((id) => this.get(id)?.order ?? []);
  }

  /** Net day positions of a user from the filled quantities. */
  positionsOf(userId: string): Map<string, NetPosition> {
    const net = new Map<string, NetPosition>();
    for (const o of this.ordersOf(userId)) {
      if (o.filled_quantity === 0) continue;
      const p = net.get(o.tradingsymbol) ?? {
        quantity: 0,
        buyValue: 0,
        sellValue: 0,
        buyQty: 0,
        sellQty: 0,
        token: o.instrument_token,
      };
      const value = o.filled_quantity * o.average_price;
      if (o.transaction_type === 'BUY') {
        p.quantity += o.filled_quantity;
        p.buyQty += o.filled_quantity;
        p.buyValue += value;
      } else {
        p.quantity -= o.filled_quantity;
        p.sellQty += o.filled_quantity;
        p.sellValue += value;
      }
      net.set(o.tradingsymbol, p);
    }
    return net;
  }
}
