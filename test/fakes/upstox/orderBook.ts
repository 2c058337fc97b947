// The fake Upstox's order book: orders, their lowercase status transitions (each recorded for the history API and
// pushed to the portfolio stream), fills and the net positions they make.

/** An order row in Upstox's documented shape (order details, history, order book, portfolio stream). */
export interface UpstoxOrderWire {
  exchange: 'NFO';
  product: string;
  price: number;
  quantity: number;
  status: string;
  guid: string | null;
  tag: string | null;
  instrument_token: string;
  placed_by: string;
  trading_symbol: string;
  tradingsymbol: string;
  order_type: string;
  validity: string;
  trigger_price: number;
  disclosed_quantity: number;
  transaction_type: 'BUY' | 'SELL';
  average_price: number;
  filled_quantity: number;
  pending_quantity: number;
  status_message: string | null;
  status_message_raw: string | null;
  exchange_order_id: string;
  parent_order_id: string | null;
  order_id: string;
  variety: 'SIMPLE';
  order_timestamp: string;
  exchange_timestamp: string | null;
  is_amo: false;
  order_request_id: string;
  order_ref_id: string;
}

export interface FakeUpstoxOrder {
  readonly userId: string;
  /** every version of the order, oldest first (what `/v2/order/history` returns) */
  readonly history: UpstoxOrderWire[];
  current: UpstoxOrderWire;
}

export interface NewOrder {
  readonly userId: string;
  readonly instrumentKey: string;
  readonly tradingSymbol: string;
  readonly product: string;
  readonly orderType: string;
  readonly side: 'BUY' | 'SELL';
  readonly quantity: number;
  readonly price: number;
  readonly triggerPrice: number;
  readonly validity: string;
  readonly tag: string | null;
}

const TERMINAL = new Set(['complete', 'rejected', 'cancelled']);

/** Upstox's `YYYY-MM-DD HH:mm:ss` in IST. */
export function istTimestamp(time: number): string {
  return new Date(time + 19_800_000).toISOString().slice(0, 19).replace('T', ' ');
}

export interface PositionWire {
  exchange: 'NFO';
  multiplier: number;
  value: number;
  pnl: number;
  product: string;
  instrument_token: string;
  average_price: number;
  buy_value: number;
  overnight_quantity: number;
  day_buy_value: number;
  day_buy_price: number;
  overnight_buy_amount: number;
  overnight_buy_quantity: number;
  day_buy_quantity: number;
  day_sell_value: number;
  day_sell_price: number;
  overnight_sell_amount: number;
  overnight_sell_quantity: number;
  day_sell_quantity: number;
  quantity: number;
  last_price: number;
  unrealised: number;
  realised: number;
  sell_value: number;
  trading_symbol: string;
  tradingsymbol: string;
  close_price: number;
  buy_price: number;
  sell_price: number;
}

export class FakeOrderBook {
  readonly orders = new Map<string, FakeUpstoxOrder>();
  private sequence = 0;

  constructor(
    private readonly now: () => number,
    /** called with every new version of an order (the portfolio stream pushes it) */
    private readonly onChange: (order: FakeUpstoxOrder) => void,
  ) {}

  isTerminal(orderId: string): boolean {
    const order = this.orders.get(orderId);
    return order === undefined || TERMINAL.has(order.current.status);
  }

  place(input: NewOrder): FakeUpstoxOrder {
    this.sequence += 1;
    const orderId = `2611230${String(this.sequence).padStart(8, '0')}`;
    const wire: UpstoxOrderWire = {
      exchange: 'NFO',
      product: input.product,
      price: input.price,
      quantity: input.quantity,
      status: 'put order req received',
      guid: null,
      tag: input.tag,
      instrument_token: input.instrumentKey,
      placed_by: input.userId,
      trading_symbol: input.tradingSymbol,
      tradingsymbol: input.tradingSymbol,
      order_type: input.orderType,
      validity: input.validity,
      trigger_price: input.triggerPrice,
      disclosed_quantity: 0,
      transaction_type: input.side,
      average_price: 0,
      filled_quantity: 0,
      pending_quantity: input.quantity,
      status_message: null,
      status_message_raw: null,
      exchange_order_id: '',
      parent_order_id: null,
      order_id: orderId,
      variety: 'SIMPLE',
      order_timestamp: istTimestamp(this.now()),
      exchange_timestamp: null,
      is_amo: false,
      order_request_id: '1',
      order_ref_id: `ref-${orderId}`,
    };
    const order: FakeUpstoxOrder = { userId: input.userId, history: [wire], current: wire };
    this.orders.set(orderId, order);
    this.onChange(order);
    this.update(orderId, {
      status: input.orderType === 'SL' || input.orderType === 'SL-M' ? 'trigger pending' : 'open',
      exchange_order_id: `1100000${orderId.slice(-8)}`,
    });
    return order;
  }

  /** Applies a change as a new version, recorded and pushed. */
  update(orderId: string, change: Partial<UpstoxOrderWire>): UpstoxOrderWire {
    const order = this.orders.get(orderId);
    if (order === undefined) throw new Error(`fake upstox: no order ${orderId}`);
    const next: UpstoxOrderWire = {
      ...order.current,
      ...change,
      exchange_timestamp: istTimestamp(this.now()),
    };
    order.current = next;
    order.history.push(next);
    this.onChange(order);
    return next;
  }

  /** Fills `quantity` more (default: the rest) at `price` (default: the order's limit). */
  fill(orderId: string, quantity?: number, price?: number): UpstoxOrderWire {
    const order = this.orders.get(orderId);
    if (order === undefined) throw new Error(`fake upstox: no order ${orderId}`);
    const wire = order.current;
    const qty = Math.min(
      quantity ?? wire.quantity - wire.filled_quantity,
      wire.quantity - wire.filled_quantity,
    );
    const at = price ?? (wire.price > 0 ? wire.price : wire.trigger_price);
    const filled = wire.filled_quantity + qty;
    const average = filled === 0 ? 0 : (wire.average_price * wire.filled_quantity + at * qty) / filled;
    return this.update(orderId, {
      filled_quantity: filled,
      pending_quantity: wire.quantity - filled,
      average_price: Math.round(average * 100) / 100,
      status: filled === wire.quantity ? 'complete' : 'open',
    });
  }

  ofUser(userId: string): FakeUpstoxOrder[] {
    return [...this.orders.values()].filter((order) => order.userId === userId);
  }

  /** Net day positions of a user, per instrument, from the fills. */
  positions(userId: string): PositionWire[] {
    const byKey = new Map<string, PositionWire>();
    for (const { current: o } of this.ofUser(userId)) {
      if (o.filled_quantity === 0) continue;
      const p = byKey.get(o.instrument_token) ?? emptyPosition(o);
      const value = o.filled_quantity * o.average_price;
      if (o.transaction_type === 'BUY') {
        p.day_buy_quantity += o.filled_quantity;
        p.day_buy_value += value;
      } else {
        p.day_sell_quantity += o.filled_quantity;
        p.day_sell_value += value;
      }
      byKey.set(o.instrument_token, p);
    }
    return [...byKey.values()].map((p) => {
      const buyPrice = p.day_buy_quantity ? p.day_buy_value / p.day_buy_quantity : 0;
      const sellPrice = p.day_sell_quantity ? p.day_sell_value / p.day_sell_quantity : 0;
      const quantity = p.day_buy_quantity - p.day_sell_quantity;
      const closed = Math.min(p.day_buy_quantity, p.day_sell_quantity);
      return {
        ...p,
        quantity,
        day_buy_price: buyPrice,
        day_sell_price: sellPrice,
        buy_price: buyPrice,
        sell_price: sellPrice,
        buy_value: p.day_buy_value,
        sell_value: p.day_sell_value,
        average_price: quantity > 0 ? buyPrice : quantity < 0 ? sellPrice : 0,
        realised: Math.round(closed * (sellPrice - buyPrice) * 100) / 100,
        value: p.day_sell_value - p.day_buy_value,
      };
    });
  }
}

function emptyPosition(o: UpstoxOrderWire): PositionWire {
  return {
    exchange: 'NFO',
    multiplier: 1,
    value: 0,
    pnl: 0,
    product: o.product,
    instrument_token: o.instrument_token,
    average_price: 0,
    buy_value: 0,
    overnight_quantity: 0,
    day_buy_value: 0,
    day_buy_price: 0,
    overnight_buy_amount: 0,
    overnight_buy_quantity: 0,
    day_buy_quantity: 0,
    day_sell_value: 0,
    day_sell_price: 0,
    overnight_sell_amount: 0,
    overnight_sell_quantity: 0,
    day_sell_quantity: 0,
    quantity: 0,
    last_price: 0,
    unrealised: 0,
    realised: 0,
    sell_value: 0,
    trading_symbol: o.trading_symbol,
    tradingsymbol: o.trading_symbol,
    close_price: 0,
    buy_price: 0,
    sell_price: 0,
  };
}
