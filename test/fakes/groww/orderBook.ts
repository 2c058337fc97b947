// The Groww fake's orders: what each account placed, their fills, and the rows Groww's order detail / list and
// positions calls answer (`order_status` OPEN → EXECUTED / CANCELLED; stops TRIGGER_PENDING until filled).
import { formatGrowwTime } from '../../../server/src/brokers/groww/wire';

export interface GrowwFakeOrder {
  readonly groww_order_id: string;
  readonly ucc: string;
  readonly trading_symbol: string;
  readonly transaction_type: 'BUY' | 'SELL';
  readonly order_type: string;
  readonly product: string;
  readonly order_reference_id: string;
  quantity: number;
  price: number;
  trigger_price: number;
  order_status: string;
  filled_quantity: number;
  average_fill_price: number;
  readonly created_at: number;
  updated_at: number;
}

export type NewOrder = Pick<
  GrowwFakeOrder,
  | 'trading_symbol'
  | 'transaction_type'
  | 'order_type'
  | 'product'
  | 'order_reference_id'
  | 'quantity'
  | 'price'
  | 'trigger_price'
>;

const OPEN = new Set(['OPEN', 'TRIGGER_PENDING', 'ACKED', 'NEW']);

export class GrowwFakeBook {
  private readonly orders = new Map<string, GrowwFakeOrder>();
  private seq = 0;
  /** told of every change to an order (the fake's socket pushes it); a new order is pushed by the server once answered */
  onChange: ((order: GrowwFakeOrder) => void) | undefined;

  constructor(private readonly now: () => number) {}

  add(ucc: string, input: NewOrder): GrowwFakeOrder {
    this.seq += 1;
    const time = this.now();
    const order: GrowwFakeOrder = {
      ...input,
      groww_order_id: `GMK${String(this.seq).padStart(8, '0')}RDT`,
      ucc,
      order_status: input.order_type === 'SL' ? 'TRIGGER_PENDING' : 'OPEN',
      filled_quantity: 0,
      average_fill_price: 0,
      created_at: time,
      updated_at: time,
    };
    this.orders.set(order.groww_order_id, order);
    return order;
  }

  get(id: string): GrowwFakeOrder | undefined {
    return this.orders.get(id);
  }

  byReference(ucc: string, reference: string): GrowwFakeOrder | undefined {
    return this.of(ucc).find((o) => o.order_reference_id === reference);
  }

  of(ucc: string): GrowwFakeOrder[] {
    return [...this.orders.values()].filter((o) => o.ucc === ucc);
  }

  all(): GrowwFakeOrder[] {
    return [...this.orders.values()];
  }

  isOpen(order: GrowwFakeOrder): boolean {
    return OPEN.has(order.order_status);
  }

  fill(id: string, price: number, quantity?: number): GrowwFakeOrder {
    const order = this.orders.get(id);
    if (order === undefined) throw new Error(`no order ${id}`);
    const pending = order.quantity - order.filled_quantity;
    const qty = Math.min(quantity ?? pending, pending);
    const filled = order.filled_quantity + qty;
    order.average_fill_price =
      filled === 0 ? 0 : (order.average_fill_price * order.filled_quantity + price * qty) / filled;
    order.filled_quantity = filled;
    order.order_status = filled >= order.quantity ? 'EXECUTED' : 'OPEN';
    order.updated_at = this.now();
    this.onChange?.(order);
    return order;
  }

  modify(id: string, change: { quantity: number; price: number; trigger_price: number }): void {
    const order = this.orders.get(id);
    if (order === undefined) return;
    Object.assign(order, change, { updated_at: this.now() });
    this.onChange?.(order);
  }

  cancel(id: string): void {
    const order = this.orders.get(id);
    if (order === undefined) return;
    order.order_status = 'CANCELLED';
    order.updated_at = this.now();
    this.onChange?.(order);
  }

  /** The order as Groww's detail and list calls answer it. */
  row(o: GrowwFakeOrder): Record<string, unknown> {
    return {
      groww_order_id: o.groww_order_id,
      trading_symbol: o.trading_symbol,
      order_status: o.order_status,
      remark: o.order_status === 'CANCELLED' ? 'Cancelled by user' : 'Order placed successfully',
      quantity: o.quantity,
      price: o.price,
      trigger_price: o.trigger_price,
      filled_quantity: o.filled_quantity,
      remaining_quantity: o.quantity - o.filled_quantity,
      average_fill_price: o.average_fill_price,
      deliverable_quantity: 0,
      amo_status: 'NA',
      validity: 'DAY',
      exchange: 'NSE',
      order_type: o.order_type,
      transaction_type: o.transaction_type,
      segment: 'FNO',
      product: o.product,
      created_at: formatGrowwTime(o.created_at),
      exchange_time: formatGrowwTime(o.updated_at),
      trade_date: new Date(o.updated_at).toISOString(),
      order_reference_id: o.order_reference_id,
    };
  }

  /** Net FNO positions of an account from its fills, as `GET /v1/positions/user` answers them. */
  positions(ucc: string): Record<string, unknown>[] {
    const by = new Map<string, { buyQty: number; buyValue: number; sellQty: number; sellValue: number }>();
    for (const o of this.of(ucc)) {
      if (o.filled_quantity === 0) continue;
      const p = by.get(o.trading_symbol) ?? { buyQty: 0, buyValue: 0, sellQty: 0, sellValue: 0 };
      if (o.transaction_type === 'BUY') {
        p.buyQty += o.filled_quantity;
        p.buyValue += o.filled_quantity * o.average_fill_price;
      } else {
        p.sellQty += o.filled_quantity;
        p.sellValue += o.filled_quantity * o.average_fill_price;
      }
      by.set(o.trading_symbol, p);
    }
    return [...by].map(([symbol, p]) => {
      const buyAvg = p.buyQty === 0 ? 0 : p.buyValue / p.buyQty;
      const sellAvg = p.sellQty === 0 ? 0 : p.sellValue / p.sellQty;
      const closed = Math.min(p.buyQty, p.sellQty);
      return {
        trading_symbol: symbol,
        segment: 'FNO',
        exchange: 'NSE',
        credit_quantity: p.buyQty,
        credit_price: buyAvg,
        debit_quantity: p.sellQty,
        debit_price: sellAvg,
        quantity: p.buyQty - p.sellQty,
        product: 'MIS',
        net_price: p.buyQty >= p.sellQty ? buyAvg : sellAvg,
        realised_pnl: closed * (sellAvg - buyAvg),
      };
    });
  }
}
