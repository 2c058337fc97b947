// The fake's orders, trades and positions per Dhan client id, as Dhan v2's order book rows (`orderStatus` TRANSIT →
// PENDING → PART_TRADED / TRADED, CANCELLED, REJECTED; times `YYYY-MM-DD HH:MM:SS` IST).
import { formatDhanTime } from '../../../server/src/brokers/dhan/wire';

export interface DhanFakeOrder {
  readonly orderId: string;
  readonly dhanClientId: string;
  readonly correlationId: string;
  orderStatus: string;
  readonly transactionType: 'BUY' | 'SELL';
  readonly exchangeSegment: string;
  readonly productType: string;
  orderType: string;
  readonly validity: string;
  readonly tradingSymbol: string;
  readonly securityId: string;
  quantity: number;
  price: number;
  triggerPrice: number;
  filledQty: number;
  averageTradedPrice: number;
  omsErrorDescription: string;
  readonly createTime: string;
  updateTime: string;
}

export interface DhanFakeTrade {
  readonly orderId: string;
  readonly securityId: string;
  readonly transactionType: string;
  readonly tradedQuantity: number;
  readonly tradedPrice: number;
  readonly exchangeTime: string;
}

export class DhanFakeOrderBook {
  private readonly orders = new Map<string, DhanFakeOrder>();
  private readonly trades: DhanFakeTrade[] = [];
  private next = 52_611_000_000;

  constructor(private readonly now: () => number) {}

  add(
    input: Omit<
      DhanFakeOrder,
      | 'orderId'
      | 'orderStatus'
      | 'filledQty'
      | 'averageTradedPrice'
      | 'omsErrorDescription'
      | 'createTime'
      | 'updateTime'
    >,
  ): DhanFakeOrder {
    this.next += 1;
    const stamp = formatDhanTime(this.now());
    const order: DhanFakeOrder = {
      ...input,
      orderId: String(this.next),
      orderStatus: 'PENDING',
      filledQty: 0,
      averageTradedPrice: 0,
      omsErrorDescription: '',
      createTime: stamp,
      updateTime: stamp,
    };
    this.orders.set(order.orderId, order);
    return order;
  }

  get(orderId: string): DhanFakeOrder | undefined {
    return this.orders.get(orderId);
  }

  all(): DhanFakeOrder[] {
    return [...this.orders.values()];
  }

  ordersOf(clientId: string): DhanFakeOrder[] {
    return this.all().filter((o) => o.dhanClientId === clientId);
  }

  byCorrelation(clientId: string, correlationId: string): DhanFakeOrder[] {
    return this.ordersOf(clientId).filter((o) => o.correlationId === correlationId);
  }

  update(
    orderId: string,
    change: Partial<
      Pick<DhanFakeOrder, 'orderStatus' | 'quantity' | 'price' | 'triggerPrice' | 'omsErrorDescription'>
    >,
  ): DhanFakeOrder {
    const order = this.orders.get(orderId);
    if (!order) throw new Error(`no order ${orderId}`);
    Object.assign(order, change, { updateTime: formatDhanTime(this.now()) });
    return order;
  }

  /** `quantity` more filled at `price`. */
  fill(orderId: string, price: number, quantity: number): DhanFakeOrder {
    const order = this.orders.get(orderId);
    if (!order) throw new Error(`no order ${orderId}`);
    const filled = order.filledQty + quantity;
    order.averageTradedPrice = (order.averageTradedPrice * order.filledQty + price * quantity) / filled;
    order.filledQty = filled;
    order.orderStatus = filled >= order.quantity ? 'TRADED' : 'PART_TRADED';
    order.updateTime = formatDhanTime(this.now());
    this.trades.push({
      orderId,
      securityId: order.securityId,
      transactionType: order.transactionType,
      tradedQuantity: quantity,
      tradedPrice: price,
      exchangeTime: order.updateTime,
    });
    return order;
  }

  tradesOf(clientId: string): DhanFakeTrade[] {
    const mine = new Set(this.ordersOf(clientId).map((o) => o.orderId));
    return this.trades.filter((t) => mine.has(t.orderId));
  }

  /** Net positions by security id, from the trades. */
  positionsOf(
    clientId: string,
  ): Map<string, { buyQty: number; sellQty: number; buyValue: number; sellValue: number; symbol: string }> {
    const out = new Map<
      string,
      { buyQty: number; sellQty: number; buyValue: number; sellValue: number; symbol: string }
    >();
    for (const t of this.tradesOf(clientId)) {
      const p = out.get(t.securityId) ?? {
        buyQty: 0,
        sellQty: 0,
        buyValue: 0,
        sellValue: 0,
        symbol: this.orders.get(t.orderId)?.tradingSymbol ?? '',
      };
      if (t.transactionType === 'BUY') {
        p.buyQty += t.tradedQuantity;
        p.buyValue += t.tradedQuantity * t.tradedPrice;
      } else {
        p.sellQty += t.tradedQuantity;
        p.sellValue += t.tradedQuantity * t.tradedPrice;
      }
      out.set(t.securityId, p);
    }
    return out;
  }
}

/** The order as the order update socket spells it (`order_alert`'s Data). */
export function orderAlertJson(order: DhanFakeOrder): Record<string, unknown> {
  const status: Record<string, string> = {
    PENDING: 'Pending',
    TRANSIT: 'Transit',
    PART_TRADED: 'Part_Traded',
    TRADED: 'Traded',
    CANCELLED: 'Cancelled',
    REJECTED: 'Rejected',
  };
  return {
    Exchange: 'NSE',
    Segment: 'D',
    Source: 'P',
    SecurityId: order.securityId,
    ClientId: order.dhanClientId,
    OrderNo: order.orderId,
    Product: order.productType === 'INTRADAY' ? 'I' : 'M',
    TxnType: order.transactionType === 'BUY' ? 'B' : 'S',
    OrderType: order.orderType === 'LIMIT' ? 'LMT' : 'SL',
    Validity: 'DAY',
    Quantity: order.quantity,
    TradedQty: order.filledQty,
    RemainingQuantity: order.quantity - order.filledQty,
    Price: order.price,
    TriggerPrice: order.triggerPrice,
    AvgTradedPrice: order.averageTradedPrice,
    OrderDateTime: order.createTime,
    LastUpdatedTime: order.updateTime,
    ReasonDescription: order.omsErrorDescription || 'CONFIRMED',
    Instrument: 'OPTIDX',
    Symbol: order.tradingSymbol,
    Status: status[order.orderStatus] ?? order.orderStatus,
    CorrelationId: order.correlationId,
  };
}
