// The fake's orders, as Angel One's order book holds them: one row per order in Angel's field names (numbers as
// text where Angel sends text, prices as numbers), statuses lowercase, times `06-Jan-2026 10:03:10` IST. Positions
// are computed from the fills.
import { randomUUID } from 'node:crypto';
import { formatAngelTime } from '../../../server/src/brokers/angelone/wire';

export interface AngelFakeOrder {
  orderid: string;
  uniqueorderid: string;
  variety: string;
  ordertype: string;
  producttype: string;
  duration: string;
  transactiontype: 'BUY' | 'SELL';
  exchange: 'NFO';
  tradingsymbol: string;
  symboltoken: string;
  quantity: number;
  price: number;
  triggerprice: number;
  filledshares: number;
  averageprice: number;
  status: string;
  text: string;
  ordertag: string;
  updatetime: string;
}

export interface AngelFakePosition {
  token: string;
  buyQty: number;
  sellQty: number;
  buyValue: number;
  sellValue: number;
}

/** The order as Angel's JSON shows it (order book, details, order-status socket). */
export function orderRowJson(order: AngelFakeOrder): Record<string, unknown> {
  return {
    variety: order.variety,
    ordertype: order.ordertype,
    ordertag: order.ordertag,
    producttype: order.producttype,
    price: order.price,
    triggerprice: order.triggerprice,
    quantity: String(order.quantity),
    disclosedquantity: '0',
    duration: order.duration,
    squareoff: 0,
    stoploss: 0,
    trailingstoploss: 0,
    tradingsymbol: order.tradingsymbol,
    transactiontype: order.transactiontype,
    exchange: order.exchange,
    symboltoken: order.symboltoken,
    instrumenttype: 'OPTIDX',
    strikeprice: -1,
    optiontype: order.tradingsymbol.slice(-2),
    expirydate: '',
    lotsize: '65',
    cancelsize: order.status === 'cancelled' ? String(order.quantity - order.filledshares) : '0',
    averageprice: order.averageprice,
    filledshares: String(order.filledshares),
    unfilledshares: String(order.quantity - order.filledshares),
    orderid: order.orderid,
    text: order.text,
    status: order.status,
    orderstatus: order.status,
    updatetime: order.updatetime,
    exchtime: order.updatetime,
    exchorderupdatetime: order.updatetime,
    fillid: '',
    filltime: '',
    parentorderid: '',
    uniqueorderid: order.uniqueorderid,
  };
}

export class AngelFakeOrderBook {
  private readonly orders = new Map<string, { clientCode: string; order: AngelFakeOrder }>();
  private readonly fills: Array<{
    clientCode: string;
    orderid: string;
    price: number;
    size: number;
    at: number;
  }> = [];
  private seq = 0;

  constructor(private readonly now: () => number) {}

  add(
    clientCode: string,
    input: Omit<
      AngelFakeOrder,
      'orderid' | 'uniqueorderid' | 'filledshares' | 'averageprice' | 'status' | 'text' | 'updatetime'
    >,
  ): AngelFakeOrder {
    this.seq += 1;
    const stamp = formatAngelTime(this.now());
    const day = new Date(this.now() + 19_800_000).toISOString().slice(2, 10).replace(/-/g, '');
    const order: AngelFakeOrder = {
      ...input,
      orderid: `${day}${String(this.seq).padStart(9, '0')}`,
      uniqueorderid: randomUUID(),
      filledshares: 0,
      averageprice: 0,
      status: input.variety === 'STOPLOSS' ? 'trigger pending' : 'open',
      text: '',
      updatetime: stamp,
    };
    this.orders.set(order.orderid, { clientCode, order });
    return order;
  }

  get(orderid: string): { clientCode: string; order: AngelFakeOrder } | undefined {
    return this.orders.get(orderid);
  }

  byUnique(uniqueorderid: string): { clientCode: string; order: AngelFakeOrder } | undefined {
    return [...this.orders.values()].find((o) => o.order.uniqueorderid === uniqueorderid);
  }

  update(orderid: string, change: Partial<AngelFakeOrder>): AngelFakeOrder {
    const found = this.orders.get(orderid);
    if (!found) throw new Error(`no order ${orderid}`);
    Object.assign(found.order, change, { updatetime: formatAngelTime(this.now()) });
    return found.order;
  }

  /** Fills `size` more of an order at `price`. */
  fill(orderid: string, price: number, size: number): AngelFakeOrder {
    const found = this.orders.get(orderid);
    if (!found) throw new Error(`no order ${orderid}`);
    const { order } = found;
    const filled = order.filledshares + size;
    const average = (order.averageprice * order.filledshares + price * size) / filled;
    this.fills.push({ clientCode: found.clientCode, orderid, price, size, at: this.now() });
    return this.update(orderid, {
      filledshares: filled,
      averageprice: Math.round(average * 100) / 100,
      status:
        filled >= order.quantity ? 'complete' : order.status === 'trigger pending' ? 'open' : order.status,
    });
  }

  all(): AngelFakeOrder[] {
    return [...this.orders.values()].map((o) => o.order);
  }

  ordersOf(clientCode: string): AngelFakeOrder[] {
    return [...this.orders.values()].filter((o) => o.clientCode === clientCode).map((o) => o.order);
  }

  tradesOf(clientCode: string): Record<string, unknown>[] {
    return this.fills
      .filter((f) => f.clientCode === clientCode)
      .map((f, k) => {
        const order = this.orders.get(f.orderid)?.order;
        return {
          exchange: 'NFO',
          producttype: order?.producttype ?? 'INTRADAY',
          tradingsymbol: order?.tradingsymbol ?? '',
          instrumenttype: 'OPTIDX',
          transactiontype: order?.transactiontype ?? 'BUY',
          fillprice: f.price,
          fillsize: String(f.size),
          orderid: f.orderid,
          fillid: String(k + 1),
          filltime: formatAngelTime(f.at).slice(-8),
        };
      });
  }

  /** Net positions by trading symbol, from the fills. */
  positionsOf(clientCode: string): Map<string, AngelFakePosition> {
    const out = new Map<string, AngelFakePosition>();
    for (const f of this.fills) {
      if (f.clientCode !== clientCode) continue;
      const order = this.orders.get(f.orderid)?.order;
      if (!order) continue;
      const p = out.get(order.tradingsymbol) ?? {
        token: order.symboltoken,
        buyQty: 0,
        sellQty: 0,
        buyValue: 0,
        sellValue: 0,
      };
      if (order.transactiontype === 'BUY') {
        p.buyQty += f.size;
        p.buyValue += f.size * f.price;
      } else {
        p.sellQty += f.size;
        p.sellValue += f.size * f.price;
      }
      out.set(order.tradingsymbol, p);
    }
    return out;
  }
}
