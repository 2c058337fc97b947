// The fake's order book: Fyers order rows (fields as `GET /api/v3/orders` answers them), the fills behind the
// trade book and net positions, and the order socket's message of each change (snake_case, exchange-level
// `ord_status` as the official client's table reads it).

/** A Fyers order as the order book returns it (the fields the adapter reads, plus Fyers' usual others). */
export interface FyersOrder {
  id: string;
  exchOrdId: string;
  clientId: string;
  symbol: string;
  fyToken: string;
  qty: number;
  remainingQuantity: number;
  filledQty: number;
  /** 1 cancelled, 2 traded, 4 transit, 5 rejected, 6 pending */
  status: number;
  limitPrice: number;
  stopPrice: number;
  tradedPrice: number;
  /** 1 LIMIT, 2 MARKET, 3 SL-M, 4 SL-L */
  type: number;
  /** 1 buy, -1 sell */
  side: number;
  productType: string;
  orderValidity: 'DAY';
  orderTag: string;
  message: string;
  orderDateTime: string;
  segment: number;
  exchange: number;
  instrument: number;
  offlineOrder: boolean;
  source: 'API';
  disclosedQty: number;
  slNo: number;
}

export type NewFyersOrder = Pick<
  FyersOrder,
  'symbol' | 'fyToken' | 'qty' | 'limitPrice' | 'stopPrice' | 'type' | 'side' | 'productType' | 'orderTag'
>;

export interface FyersFill {
  readonly orderNumber: string;
  readonly tradeNumber: string;
  readonly symbol: string;
  readonly side: number;
  readonly tradedQty: number;
  readonly tradePrice: number;
}

/** The REST status → an exchange-level socket `ord_status` the official client maps back to it. */
const SOCKET_STATUS: Readonly<Record<number, number>> = { 1: 91, 2: 90, 4: 11, 5: 92, 6: 22 };

/** Fyers' order times: `24-Nov-2026 10:15:00` in IST. */
function fyersTime(epochMs: number): string {
  const d = new Date(epochMs + 5.5 * 3_600_000);
  const month = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][
    d.getUTCMonth()
  ];
  return `${String(d.getUTCDate()).padStart(2, '0')}-${month}-${d.getUTCFullYear()} ${d.toISOString().slice(11, 19)}`;
}

export class FakeFyersOrderBook {
  private readonly orders = new Map<string, { fyId: string; order: FyersOrder }>();
  private readonly placement: string[] = [];
  private readonly fills: { fyId: string; fill: FyersFill }[] = [];
  private seq = 0;

  constructor(private readonly now: () => number) {}

  add(fyId: string, fields: NewFyersOrder): FyersOrder {
    this.seq += 1;
    const id = `2611240${String(this.seq).padStart(7, '0')}`;
    const order: FyersOrder = {
      ...fields,
      id,
      exchOrdId: `110000${String(this.seq).padStart(10, '0')}`,
      clientId: fyId,
      remainingQuantity: fields.qty,
      filledQty: 0,
      status: 6,
      tradedPrice: 0,
      orderValidity: 'DAY',
      message: '',
      orderDateTime: fyersTime(this.now()),
      segment: 11,
      exchange: 10,
      instrument: 14,
      offlineOrder: false,
      source: 'API',
      disclosedQty: 0,
      slNo: this.seq,
    };
    this.orders.set(id, { fyId, order });
    this.placement.push(id);
    return order;
  }

  get(id: string): { fyId: string; order: FyersOrder } | undefined {
    return this.orders.get(id);
  }

  update(id: string, change: Partial<FyersOrder>): FyersOrder {
    const entry = this.orders.get(id);
    if (!entry) throw new Error(`no order ${id}`);
    Object.assign(entry.order, change);
    return entry.order;
  }

  /** Fills `qty` of an order at `price`; returns the order after the fill. */
  fill(id: string, price: number, qty: number): FyersOrder {
    const entry = this.orders.get(id);
    if (!entry) throw new Error(`no order ${id}`);
    const { order } = entry;
    const filled = order.filledQty + qty;
    const average = (order.tradedPrice * order.filledQty + price * qty) / filled;
    this.fills.push({
      fyId: entry.fyId,
      fill: {
        orderNumber: id,
        tradeNumber: `T${id}-${this.fills.length + 1}`,
        symbol: order.symbol,
        side: order.side,
        tradedQty: qty,
        tradePrice: price,
      },
    });
    return this.update(id, {
      filledQty: filled,
      remainingQuantity: order.qty - filled,
      tradedPrice: Math.round(average * 100) / 100,
      status: filled === order.qty ? 2 : 6,
    });
  }

  /** Every order of an account, in placement order (`GET /api/v3/orders`). */
  ordersOf(fyId: string): FyersOrder[] {
    return this.placement.flatMap((id) => {
      const entry = this.orders.get(id);
      return entry?.fyId === fyId ? [{ ...entry.order }] : [];
    });
  }

  all(): FyersOrder[] {
    return this.placement.flatMap((id) => {
      const entry = this.orders.get(id);
      return entry === undefined ? [] : [{ ...entry.order }];
    });
  }

  fillsOf(fyId: string): FyersFill[] {
    return this.fills.filter((f) => f.fyId === fyId).map((f) => f.fill);
  }

  /** Net day positions of an account from its fills (`GET /api/v3/positions`' `netPositions`). */
  positionsOf(fyId: string): Record<string, unknown>[] {
    const net = new Map<
      string,
      { buyQty: number; sellQty: number; buyVal: number; sellVal: number; fyToken: string }
    >();
    for (const fill of this.fillsOf(fyId)) {
      const p = net.get(fill.symbol) ?? { buyQty: 0, sellQty: 0, buyVal: 0, sellVal: 0, fyToken: '' };
      p.fyToken = [...this.orders.values()].find((e) => e.order.id === fill.orderNumber)?.order.fyToken ?? '';
      if (fill.side === 1) {
        p.buyQty += fill.tradedQty;
        p.buyVal += fill.tradedQty * fill.tradePrice;
      } else {
        p.sellQty += fill.tradedQty;
        p.sellVal += fill.tradedQty * fill.tradePrice;
      }
      net.set(fill.symbol, p);
    }
    return [...net].map(([symbol, p]) => {
      const netQty = p.buyQty - p.sellQty;
      const buyAvg = p.buyQty > 0 ? p.buyVal / p.buyQty : 0;
      const sellAvg = p.sellQty > 0 ? p.sellVal / p.sellQty : 0;
      const closed = Math.min(p.buyQty, p.sellQty);
      return {
        symbol,
        id: `${symbol}-INTRADAY`,
        netQty,
        qty: Math.abs(netQty),
        side: netQty > 0 ? 1 : netQty < 0 ? -1 : 0,
        netAvg: netQty >= 0 ? buyAvg : sellAvg,
        buyAvg: Math.round(buyAvg * 100) / 100,
        sellAvg: Math.round(sellAvg * 100) / 100,
        buyQty: p.buyQty,
        sellQty: p.sellQty,
        buyVal: p.buyVal,
        sellVal: p.sellVal,
        realized_profit: Math.round(closed * (sellAvg - buyAvg) * 100) / 100,
        unrealized_profit: 0,
        pl: 0,
        productType: 'INTRADAY',
        fyToken: p.fyToken,
        segment: 11,
        exchange: 10,
      };
    });
  }

  /** The order socket's message of an order's current state. */
  static socketMessage(order: FyersOrder): { orders: Record<string, unknown> } {
    return {
      orders: {
        client_id: order.clientId,
        id: order.id,
        id_exchange: order.exchOrdId,
        qty: order.qty,
        qty_remaining: order.remainingQuantity,
        qty_filled: order.filledQty,
        price_limit: order.limitPrice,
        price_stop: order.stopPrice,
        price_traded: order.tradedPrice,
        ord_type: order.type,
        fy_token: order.fyToken,
        exchange: order.exchange,
        segment: order.segment,
        symbol: order.symbol,
        instrument: order.instrument,
        oms_msg: order.message,
        offline_flag: order.offlineOrder,
        time_oms: order.orderDateTime,
        validity: order.orderValidity,
        product_type: order.productType,
        tran_side: order.side,
        ord_status: SOCKET_STATUS[order.status] ?? 11,
        ord_source: 'API',
        ordertag: order.orderTag,
      },
    };
  }
}
