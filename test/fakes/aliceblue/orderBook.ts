// The fake's orders as ANT's order book holds them: NEST field names (`Nstordno`, `Status`, `Fillshares`, …),
// numbers as text, statuses lowercase, times `26/11/2026 09:15:02` IST. Positions come from the fills.
import { formatAliceTime } from '../../../server/src/brokers/aliceblue/wire';

export interface AliceFakeOrder {
  Nstordno: string;
  userId: string;
  Trantype: 'BUY' | 'SELL';
  Prctype: 'L' | 'SL';
  Pcode: string;
  Trsym: string;
  token: string;
  Qty: number;
  Prc: number;
  Trgprc: number;
  Fillshares: number;
  Avgprc: number;
  Status: string;
  RejReason: string;
  remarks: string;
  OrderedTime: string;
}

/** The order as ANT's JSON shows it (order book rows). */
export function orderRowJson(order: AliceFakeOrder): Record<string, unknown> {
  return {
    Nstordno: order.Nstordno,
    Status: order.Status,
    Trantype: order.Trantype === 'BUY' ? 'B' : 'S',
    Prctype: order.Prctype,
    Pcode: order.Pcode,
    Exchange: 'NFO',
    Trsym: order.Trsym,
    token: order.token,
    Qty: String(order.Qty),
    Prc: order.Prc.toFixed(2),
    Trgprc: order.Trgprc.toFixed(2),
    Avgprc: order.Avgprc.toFixed(2),
    Fillshares: String(order.Fillshares),
    Unfilledsize: String(order.Qty - order.Fillshares),
    RejReason: order.RejReason,
    remarks: order.remarks,
    OrderedTime: order.OrderedTime,
    Validity: 'DAY',
    accountId: order.userId,
  };
}

/** The same order as NOREN's order message on the socket (`{t: "om", …}`). */
export function orderMessageJson(order: AliceFakeOrder): Record<string, unknown> {
  return {
    t: 'om',
    norenordno: order.Nstordno,
    uid: `${order.userId}_API`,
    actid: `${order.userId}_API`,
    exch: 'NFO',
    tsym: order.Trsym,
    qty: String(order.Qty),
    prc: order.Prc.toFixed(2),
    trgprc: order.Trgprc.toFixed(2),
    prd: order.Pcode,
    status: order.Status.toUpperCase(),
    trantype: order.Trantype === 'BUY' ? 'B' : 'S',
    prctyp: order.Prctype === 'L' ? 'LMT' : 'SL-LMT',
    fillshares: String(order.Fillshares),
    avgprc: order.Avgprc.toFixed(2),
    rejreason: order.RejReason,
    remarks: order.remarks,
  };
}

interface Fill {
  readonly orderId: string;
  readonly price: number;
  readonly size: number;
}

export class AliceFakeOrderBook {
  private readonly orders = new Map<string, AliceFakeOrder>();
  private readonly fills: Fill[] = [];
  private seq = 0;

  constructor(private readonly now: () => number) {}

  add(
    input: Omit<
      AliceFakeOrder,
      'Nstordno' | 'Fillshares' | 'Avgprc' | 'Status' | 'RejReason' | 'OrderedTime'
    >,
  ): AliceFakeOrder {
    this.seq += 1;
    const day = formatAliceTime(this.now()).slice(0, 10).split('/').reverse().join('').slice(2);
    const order: AliceFakeOrder = {
      ...input,
      Nstordno: `${day}${String(this.seq).padStart(6, '0')}`,
      Fillshares: 0,
      Avgprc: 0,
      Status: input.Prctype === 'SL' ? 'trigger pending' : 'open',
      RejReason: '',
      OrderedTime: formatAliceTime(this.now()),
    };
    this.orders.set(order.Nstordno, order);
    return order;
  }

  get(id: string): AliceFakeOrder | undefined {
    return this.orders.get(id);
  }

  update(id: string, change: Partial<AliceFakeOrder>): AliceFakeOrder {
    const order = this.orders.get(id);
    if (!order) throw new Error(`no order ${id}`);
    return Object.assign(order, change);
  }

  /** Fills `size` more of an order at `price`. */
  fill(id: string, price: number, size: number): AliceFakeOrder {
    const order = this.orders.get(id);
    if (!order) throw new Error(`no order ${id}`);
    const filled = order.Fillshares + size;
    const average = (order.Avgprc * order.Fillshares + price * size) / filled;
    this.fills.push({ orderId: id, price, size });
    return this.update(id, {
      Fillshares: filled,
      Avgprc: Math.round(average * 100) / 100,
      Status: filled >= order.Qty ? 'complete' : 'open',
    });
  }

  all(): AliceFakeOrder[] {
    return [...this.orders.values()];
  }

  ordersOf(userId: string): AliceFakeOrder[] {
    return this.all().filter((o) => o.userId === userId);
  }

  tradesOf(userId: string): Record<string, unknown>[] {
    return this.fills.flatMap((f) => {
      const order = this.orders.get(f.orderId);
      if (order?.userId !== userId) return [];
      return [
        {
          Nstordno: f.orderId,
          Trsym: order.Trsym,
          Trantype: order.Trantype === 'BUY' ? 'B' : 'S',
          Price: f.price.toFixed(2),
          Filledqty: String(f.size),
          Exchange: 'NFO',
        },
      ];
    });
  }

  /** The day's net positions, as `positionBook` rows. */
  positionsOf(userId: string): Record<string, unknown>[] {
    const by = new Map<string, { order: AliceFakeOrder; bq: number; sq: number; bv: number; sv: number }>();
    for (const f of this.fills) {
      const order = this.orders.get(f.orderId);
      if (order?.userId !== userId) continue;
      const p = by.get(order.token) ?? { order, bq: 0, sq: 0, bv: 0, sv: 0 };
      if (order.Trantype === 'BUY') {
        p.bq += f.size;
        p.bv += f.size * f.price;
      } else {
        p.sq += f.size;
        p.sv += f.size * f.price;
      }
      by.set(order.token, p);
    }
    return [...by.values()].map((p) => {
      const net = p.bq - p.sq;
      return {
        Exchange: 'NFO',
        Token: p.order.token,
        Tsym: p.order.Trsym,
        Pcode: p.order.Pcode,
        Bqty: String(p.bq),
        Sqty: String(p.sq),
        Netqty: String(net),
        Buyavgprc: (p.bq > 0 ? p.bv / p.bq : 0).toFixed(2),
        Sellavgprc: (p.sq > 0 ? p.sv / p.sq : 0).toFixed(2),
        Fillbuyamt: p.bv.toLocaleString('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 }),
        realisedprofitloss: (net === 0 ? p.sv - p.bv : 0).toFixed(2),
        actid: userId,
      };
    });
  }
}
