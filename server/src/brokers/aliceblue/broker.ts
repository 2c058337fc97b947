// The order adapter for one Alice Blue account: the engine's `Broker` port over ANT's orders. Market orders from
// algos must carry a protection (SEBI, 1 Apr 2026) and ANT has no protection field, so the capabilities ask the
// router for protected LIMIT orders and stop-limit stops (`SL`), and a raw MKT / SL-M reaching this adapter is
// refused here, never sent. Updates come from the order socket, with the order book polled while it is down.
import { rupeesToPaise } from '@optionpilot/engine/money';
import { z } from 'zod';
import type { Observable } from 'rxjs';
import {
  BrokerError,
  type Broker,
  type BrokerAmendment,
  type BrokerCapabilities,
  type BrokerOrderSnapshot,
  type BrokerPosition,
  type OrderRef,
  type OrderRequest,
} from '@optionpilot/engine';
import { algoOrderTag, clientOrderIdOfTag } from '../orderTag';
import type { InstrumentBook } from '../instruments/book';
import type { AliceHttp } from './http';
import {
  aliceAckSchema,
  aliceLimitSchema,
  aliceOrderRowSchema,
  alicePlacedSchema,
  alicePositionSchema,
  aliceTradeSchema,
  toSnapshot,
  type AliceOrderRow,
  type AliceTrade,
} from './wire';

/** ANT's `orderTag` (NEST `remarks`): 20 characters kept here, room for 4 of ALGO_TAG and the 16-character id. */
export const ALICE_TAG_MAX_LENGTH = 20;

/**
 * What ANT accepts from an algo: protected limit orders and stop-limits (no MKT / SL-M), ≤ 10 orders/s per account
 * (SEBI's threshold for unregistered algos; ANT publishes no lower one), NIFTY's freeze of 1,800 units per order.
 */
export const ALICE_CAPABILITIES: BrokerCapabilities = {
  name: 'aliceblue',
  supportsMarketOrders: false,
  supportsSlm: false,
  requiresMarketProtection: true,
  rateLimits: { perSecond: 10, perMinute: 400 },
  freezeQty: 1_800,
  tagMaxLength: ALICE_TAG_MAX_LENGTH,
};

export const ALICE_PATHS = {
  place: '/placeOrder/executePlaceOrder',
  modify: '/placeOrder/modifyOrder',
  cancel: '/placeOrder/cancelOrder',
  orderBook: '/placeOrder/fetchOrderBook',
  tradeBook: '/placeOrder/fetchTradeBook',
  positions: '/positionAndHoldings/positionBook',
  limits: '/limits/getRmsLimits',
} as const;

/** What ANT's modify repeats (it takes the whole order) and its cancel names. */
interface WorkingOrder {
  readonly transtype: string;
  readonly prctyp: string;
  readonly pCode: string;
  readonly tradingSymbol: string;
  readonly qty: number;
  readonly price: number;
  readonly trigPrice: number;
}

/** Prices go as text with two decimals, as ANT's documented examples send them. */
const price = (value: number): string => value.toFixed(2);

const list = <T extends z.ZodType>(row: T) => z.array(row);

export interface AliceBrokerOptions {
  readonly http: AliceHttp;
  readonly instruments: InstrumentBook;
  /** SEBI algo tag (ALGO_TAG): as much of it as fits goes before the client order id in `orderTag` */
  readonly algoTag: string;
  readonly now: () => number;
  /** the account's order updates (orderUpdates.ts), built over this adapter's order book */
  readonly orderUpdates: (orderBook: () => Promise<AliceOrderRow[]>) => Observable<BrokerOrderSnapshot>;
}

export class AliceBroker implements Broker {
  readonly capabilities = ALICE_CAPABILITIES;
  readonly orderUpdates$: Observable<BrokerOrderSnapshot>;
  private readonly working = new Map<string, WorkingOrder>();

  constructor(private readonly options: AliceBrokerOptions) {
    this.orderUpdates$ = options.orderUpdates(() => this.orderBook());
  }

  async placeOrder(request: OrderRequest): Promise<{ readonly brokerOrderId: string }> {
    if (request.type === 'MARKET' || request.type === 'SL-M') {
      // An unprotected market order from an algo is refused; the router converts them before they get here.
      throw new BrokerError('rejected', 'UNPROTECTED', `unprotected ${request.type} order`, 'aliceblue');
    }
    const instrument = await this.options.instruments.forOrder(
      request.symbol,
      'aliceblue',
      "Alice Blue's NFO contract master",
    );
    const stop = request.type === 'SL';
    const order: WorkingOrder = {
      transtype: request.side,
      prctyp: stop ? 'SL' : 'L',
      pCode: request.product === 'MIS' ? 'MIS' : 'NRML',
      tradingSymbol: instrument.tradingSymbol,
      qty: request.quantity,
      price: request.price ?? 0,
      trigPrice: stop ? (request.triggerPrice ?? 0) : 0,
    };
    // ANT takes an array of orders (a basket); one is sent, and its one answer is read.
    const [placed] = await this.options.http.request({
      method: 'POST',
      path: ALICE_PATHS.place,
      schema: z.array(alicePlacedSchema).min(1),
      body: [
        {
          complexty: 'regular',
          discqty: '0',
          exch: 'NFO',
          pCode: order.pCode,
          prctyp: order.prctyp,
          price: price(order.price),
          qty: order.qty,
          ret: 'DAY',
          symbol_id: instrument.token,
          trading_symbol: order.tradingSymbol,
          transtype: order.transtype,
          trigPrice: stop ? price(order.trigPrice) : '',
          orderTag: algoOrderTag(this.options.algoTag, request.clientOrderId, ALICE_TAG_MAX_LENGTH),
        },
      ],
    });
    if (placed === undefined)
      throw new BrokerError('network', 'BAD_RESPONSE', 'no order number', 'aliceblue');
    const brokerOrderId = placed.NOrdNo;
    this.working.set(brokerOrderId, order);
    return { brokerOrderId };
  }

  async modifyOrder(brokerOrderId: string, amendment: BrokerAmendment): Promise<void> {
    const current = await this.workingOrder(brokerOrderId);
    const next: WorkingOrder = {
      ...current,
      qty: amendment.quantity ?? current.qty,
      price: amendment.price ?? current.price,
      trigPrice: amendment.triggerPrice ?? current.trigPrice,
    };
    await this.options.http.request({
      method: 'POST',
      path: ALICE_PATHS.modify,
      schema: aliceAckSchema,
      body: {
        discqty: 0,
        exch: 'NFO',
        nestOrderNumber: brokerOrderId,
        prctyp: next.prctyp,
        price: price(next.price),
        qty: next.qty,
        trading_symbol: next.tradingSymbol,
        trigPrice: next.prctyp === 'SL' ? price(next.trigPrice) : '',
        transtype: next.transtype,
        pCode: next.pCode,
      },
    });
    this.working.set(brokerOrderId, next);
  }

  async cancelOrder(brokerOrderId: string): Promise<void> {
    const { tradingSymbol } = await this.workingOrder(brokerOrderId);
    await this.options.http.request({
      method: 'POST',
      path: ALICE_PATHS.cancel,
      schema: aliceAckSchema,
      body: { exch: 'NFO', nestOrderNumber: brokerOrderId, trading_symbol: tradingSymbol },
    });
  }

  async getOrder(ref: OrderRef): Promise<BrokerOrderSnapshot | undefined> {
    const rows = await this.orderBook();
    const row =
      'clientOrderId' in ref
        ? // A placement whose answer was lost: the order carries its client order id in its tag (`remarks`).
          rows.find((o) => clientOrderIdOfTag(o.remarks) === ref.clientOrderId)
        : rows.find((o) => o.Nstordno === ref.brokerOrderId);
    return row === undefined ? undefined : toSnapshot(row, this.options.now());
  }

  async getPositions(): Promise<readonly BrokerPosition[]> {
    const rows = await this.options.http.request({
      method: 'POST',
      path: ALICE_PATHS.positions,
      body: { ret: 'DAY' },
      schema: list(alicePositionSchema),
      list: true,
    });
    await this.options.instruments.ensureFresh().catch(() => undefined);
    return rows
      .filter((p) => p.Exchange === 'NFO')
      .map((p) => ({
        // Positions outside the NIFTY options (placed by hand) keep ANT's symbol so reconciliation sees them.
        symbol: (p.Token ? this.options.instruments.canonicalOf(p.Token) : undefined) ?? p.Tsym,
        quantity: p.Netqty,
        avgPrice: p.Netqty > 0 ? p.Buyavgprc : p.Netqty < 0 ? p.Sellavgprc : 0,
        realisedPnl: p.realisedprofitloss,
      }));
  }

  /**
   * A signal armed: a cheap read (the RMS limits) opens or keeps the keep-alive connection the order will take, and
   * the contract master the order needs is loaded if it is not.
   */
  async prepare(): Promise<void> {
    await Promise.all([this.funds(), this.options.instruments.ensureFresh()]);
  }

  /** The account's limits (the `ALL` segment, else the first): net and available cash, in paise. */
  async funds(): Promise<{ readonly netPaise: number; readonly availableCashPaise: number }> {
    const rows = await this.options.http.request({
      method: 'GET',
      path: ALICE_PATHS.limits,
      schema: list(aliceLimitSchema),
    });
    const all = rows.find((r) => r.segment === 'ALL') ?? rows[0];
    return {
      netPaise: rupeesToPaise(all?.net ?? 0),
      availableCashPaise: rupeesToPaise(all?.cashmarginavailable ?? 0),
    };
  }

  /** The day's fills (trade book). */
  tradeBook(): Promise<AliceTrade[]> {
    return this.options.http.request({
      method: 'GET',
      path: ALICE_PATHS.tradeBook,
      schema: list(aliceTradeSchema),
      list: true,
    });
  }

  private orderBook(): Promise<AliceOrderRow[]> {
    return this.options.http.request({
      method: 'GET',
      path: ALICE_PATHS.orderBook,
      schema: list(aliceOrderRowSchema),
      list: true,
    });
  }

  /** What a modify or cancel must repeat: remembered from the placement, else read from the order book. */
  private async workingOrder(brokerOrderId: string): Promise<WorkingOrder> {
    const known = this.working.get(brokerOrderId);
    if (known !== undefined) return known;
    const row = (await this.orderBook()).find((o) => o.Nstordno === brokerOrderId);
    if (row === undefined) throw new BrokerError('rejected', 'ORDER_NOT_FOUND', 'unknown order', 'aliceblue');
    const order: WorkingOrder = {
      transtype: row.Trantype === 'S' || row.Trantype === 'SELL' ? 'SELL' : 'BUY',
      prctyp: row.Prctype ?? (row.Trgprc > 0 ? 'SL' : 'L'),
      pCode: row.Pcode ?? 'MIS',
      tradingSymbol: row.Trsym ?? '',
      qty: row.Qty,
      price: row.Prc,
      trigPrice: row.Trgprc,
    };
    this.working.set(brokerOrderId, order);
    return order;
  }
}
