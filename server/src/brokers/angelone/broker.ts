// The order adapter for one Angel One account: the engine's `Broker` port over SmartAPI's orders. Angel refuses
// MARKET and IOC orders from algos since 1 Apr 2026, so the capabilities ask the router for protected LIMIT orders
// and stop-limit stops (STOPLOSS variety), and a raw MARKET / SL-M that reaches this adapter is refused here, never
// sent. Updates come from the order-status socket, with the order book polled while it is down (orderUpdates.ts).
import { rupeesToPaise } from '@optionpilot/engine/money';
import type { Observable } from 'rxjs';
import {
  BrokerError,
  isBrokerError,
  type Broker,
  type BrokerAmendment,
  type BrokerCapabilities,
  type BrokerOrderSnapshot,
  type BrokerPosition,
  type OrderRef,
  type OrderRequest,
} from '@optionpilot/engine';
import { algoOrderTag, clientOrderIdOfTag } from '../orderTag';
import { ANGEL_ORDER_NOT_FOUND, type AngelHttp } from './http';
import type { InstrumentBook } from '../instruments/book';
import {
  angelList,
  angelOrderIdSchema,
  angelOrderRowSchema,
  angelPositionSchema,
  angelRmsSchema,
  angelTradeSchema,
  toSnapshot,
  type AngelOrderRow,
  type AngelTrade,
} from './wire';

/** Angel's ordertag: "less than 20 characters" (AB4008), letters and digits. */
export const ANGEL_TAG_MAX_LENGTH = 19;

/**
 * What Angel accepts: no MARKET or IOC orders from algos (so no SL-M either: stops rest as stop-limit), 20 orders/s
 * and 500/min per client at Angel, capped at 10/s by SEBI's threshold for unregistered algos; NIFTY options
 * freeze at 1,800 units per order.
 */
export const ANGEL_CAPABILITIES: BrokerCapabilities = {
  name: 'angelone',
  supportsMarketOrders: false,
  supportsSlm: false,
  requiresMarketProtection: true,
  rateLimits: { perSecond: 10, perMinute: 500 },
  freezeQty: 1_800,
  tagMaxLength: ANGEL_TAG_MAX_LENGTH,
};

export const ANGEL_PATHS = {
  place: '/rest/secure/angelbroking/order/v1/placeOrder',
  modify: '/rest/secure/angelbroking/order/v1/modifyOrder',
  cancel: '/rest/secure/angelbroking/order/v1/cancelOrder',
  orderBook: '/rest/secure/angelbroking/order/v1/getOrderBook',
  details: '/rest/secure/angelbroking/order/v1/details/',
  tradeBook: '/rest/secure/angelbroking/order/v1/getTradeBook',
  positions: '/rest/secure/angelbroking/order/v1/getPosition',
  rms: '/rest/secure/angelbroking/user/v1/getRMS',
} as const;

/** The fields Angel's modify must repeat (it takes the whole order, not a difference) and its cancel needs. */
interface WorkingOrder {
  variety: string;
  ordertype: string;
  producttype: string;
  tradingsymbol: string;
  symboltoken: string;
  quantity: number;
  price: number;
  triggerprice: number;
  uniqueorderid?: string;
}

/** Prices go as text with two decimals, as Angel's clients send them. */
const price = (value: number): string => value.toFixed(2);

export interface AngelBrokerOptions {
  readonly http: AngelHttp;
  readonly instruments: InstrumentBook;
  /** SEBI algo tag (ALGO_TAG): as much of it as fits goes before the client order id in `ordertag` */
  readonly algoTag: string;
  readonly now: () => number;
  /** the account's order updates (orderUpdates.ts), built over this adapter's order book */
  readonly orderUpdates: (orderBook: () => Promise<AngelOrderRow[]>) => Observable<BrokerOrderSnapshot>;
}

export class AngelBroker implements Broker {
  readonly capabilities = ANGEL_CAPABILITIES;
  readonly orderUpdates$: Observable<BrokerOrderSnapshot>;
  private readonly working = new Map<string, WorkingOrder>();

  constructor(private readonly options: AngelBrokerOptions) {
    this.orderUpdates$ = options.orderUpdates(() => this.orderBook());
  }

  async placeOrder(request: OrderRequest): Promise<{ readonly brokerOrderId: string }> {
    if (request.type === 'MARKET' || request.type === 'SL-M') {
      // Angel refuses market orders from algos; the router converts them before they get here.
      throw new BrokerError('rejected', 'UNPROTECTED', `unprotected ${request.type} order`, 'angelone');
    }
    let instrument;
    try {
      instrument = await this.options.instruments.instrumentOf(request.symbol);
    } catch {
      // Nothing was sent: a refusal, not an unknown outcome.
      throw new BrokerError('rejected', 'NO_SCRIP_MASTER', 'Angel One scrip master unavailable', 'angelone');
    }
    if (instrument === undefined) {
      throw new BrokerError(
        'rejected',
        'UNKNOWN_INSTRUMENT',
        `${request.symbol} is not in Angel One's scrip master`,
        'angelone',
      );
    }
    const stop = request.type === 'SL';
    const order: WorkingOrder = {
      variety: stop ? 'STOPLOSS' : 'NORMAL',
      ordertype: stop ? 'STOPLOSS_LIMIT' : 'LIMIT',
      producttype: request.product === 'MIS' ? 'INTRADAY' : 'CARRYFORWARD',
      tradingsymbol: instrument.tradingSymbol,
      symboltoken: instrument.token,
      quantity: request.quantity,
      price: request.price ?? 0,
      triggerprice: stop ? (request.triggerPrice ?? 0) : 0,
    };
    const data = await this.options.http.request({
      method: 'POST',
      path: ANGEL_PATHS.place,
      schema: angelOrderIdSchema,
      body: {
        variety: order.variety,
        tradingsymbol: order.tradingsymbol,
        symboltoken: order.symboltoken,
        transactiontype: request.side,
        exchange: 'NFO',
        ordertype: order.ordertype,
        producttype: order.producttype,
        duration: 'DAY',
        price: price(order.price),
        triggerprice: price(order.triggerprice),
        squareoff: '0',
        stoploss: '0',
        quantity: String(order.quantity),
        // The client order id (16 characters, so a lost order is found again) after the first 3 of ALGO_TAG.
        ordertag: algoOrderTag(this.options.algoTag, request.clientOrderId, ANGEL_TAG_MAX_LENGTH),
      },
    });
    this.working.set(data.orderid, {
      ...order,
      ...(data.uniqueorderid ? { uniqueorderid: data.uniqueorderid } : {}),
    });
    return { brokerOrderId: data.orderid };
  }

  async modifyOrder(brokerOrderId: string, amendment: BrokerAmendment): Promise<void> {
    const current = await this.workingOrder(brokerOrderId);
    const next: WorkingOrder = {
      ...current,
      quantity: amendment.quantity ?? current.quantity,
      price: amendment.price ?? current.price,
      triggerprice: amendment.triggerPrice ?? current.triggerprice,
    };
    await this.options.http.request({
      method: 'POST',
      path: ANGEL_PATHS.modify,
      schema: angelOrderIdSchema,
      body: {
        variety: next.variety,
        orderid: brokerOrderId,
        ordertype: next.ordertype,
        producttype: next.producttype,
        duration: 'DAY',
        price: price(next.price),
        triggerprice: price(next.triggerprice),
        quantity: String(next.quantity),
        tradingsymbol: next.tradingsymbol,
        symboltoken: next.symboltoken,
        exchange: 'NFO',
      },
    });
    this.working.set(brokerOrderId, next);
  }

  async cancelOrder(brokerOrderId: string): Promise<void> {
    const { variety } = await this.workingOrder(brokerOrderId);
    await this.options.http.request({
      method: 'POST',
      path: ANGEL_PATHS.cancel,
      schema: angelOrderIdSchema,
      body: { variety, orderid: brokerOrderId },
    });
  }

  async getOrder(ref: OrderRef): Promise<BrokerOrderSnapshot | undefined> {
    const row =
      'clientOrderId' in ref
        ? // A placement whose answer was lost: the order carries its client order id in `ordertag`.
          (await this.orderBook()).find((o) => clientOrderIdOfTag(o.ordertag) === ref.clientOrderId)
        : await this.orderRow(ref.brokerOrderId);
    return row === undefined ? undefined : toSnapshot(row, this.options.now());
  }

  async getPositions(): Promise<readonly BrokerPosition[]> {
    const rows = await this.options.http.request({
      method: 'GET',
      path: ANGEL_PATHS.positions,
      schema: angelList(angelPositionSchema),
    });
    await this.options.instruments.ensureFresh().catch(() => undefined);
    return rows
      .filter((p) => p.exchange === 'NFO')
      .map((p) => ({
        // Positions outside the NIFTY options (placed by hand) keep Angel's symbol so reconciliation sees them.
        symbol:
          (p.symboltoken ? this.options.instruments.canonicalOf(p.symboltoken) : undefined) ??
          p.tradingsymbol,
        quantity: p.netqty,
        avgPrice: p.netqty > 0 ? p.buyavgprice : p.netqty < 0 ? p.sellavgprice : 0,
        realisedPnl: p.realised,
      }));
  }

  /**
   * A signal armed: a cheap read (the RMS limits) opens or keeps the keep-alive connection the order will take, and
   * the scrip master the order needs is loaded if it is not.
   */
  async prepare(): Promise<void> {
    await Promise.all([this.funds(), this.options.instruments.ensureFresh()]);
  }

  /** The account's RMS limits: net and available cash, in paise. */
  async funds(): Promise<{ readonly netPaise: number; readonly availableCashPaise: number }> {
    const rms = await this.options.http.request({
      method: 'GET',
      path: ANGEL_PATHS.rms,
      schema: angelRmsSchema,
    });
    return { netPaise: rupeesToPaise(rms.net), availableCashPaise: rupeesToPaise(rms.availablecash) };
  }

  /** The day's fills (trade book). */
  tradeBook(): Promise<AngelTrade[]> {
    return this.options.http.request({
      method: 'GET',
      path: ANGEL_PATHS.tradeBook,
      schema: angelList(angelTradeSchema),
    });
  }

  private orderBook(): Promise<AngelOrderRow[]> {
    return this.options.http.request({
      method: 'GET',
      path: ANGEL_PATHS.orderBook,
      schema: angelList(angelOrderRowSchema),
    });
  }

  /**
   * One order by Angel's order id: its status by `details/{uniqueorderid}` when this process placed it (Angel
   * knows orders there by the unique id only), else from the order book (orders placed before a restart).
   */
  private async orderRow(brokerOrderId: string): Promise<AngelOrderRow | undefined> {
    const unique = this.working.get(brokerOrderId)?.uniqueorderid;
    if (unique === undefined) return (await this.orderBook()).find((o) => o.orderid === brokerOrderId);
    try {
      return await this.options.http.request({
        method: 'GET',
        path: `${ANGEL_PATHS.details}${encodeURIComponent(unique)}`,
        schema: angelOrderRowSchema,
      });
    } catch (error) {
      if (isBrokerError(error) && error.code === ANGEL_ORDER_NOT_FOUND) return undefined;
      throw error;
    }
  }

  /** What a modify or cancel must repeat: remembered from the placement, else read from the order book. */
  private async workingOrder(brokerOrderId: string): Promise<WorkingOrder> {
    const known = this.working.get(brokerOrderId);
    if (known !== undefined) return known;
    const row = (await this.orderBook()).find((o) => o.orderid === brokerOrderId);
    if (row === undefined) {
      throw new BrokerError('rejected', ANGEL_ORDER_NOT_FOUND, 'unknown order', 'angelone');
    }
    const order: WorkingOrder = {
      variety: row.variety ?? (row.triggerprice > 0 ? 'STOPLOSS' : 'NORMAL'),
      ordertype: row.ordertype ?? 'LIMIT',
      producttype: row.producttype ?? 'INTRADAY',
      tradingsymbol: row.tradingsymbol ?? '',
      symboltoken: row.symboltoken ?? '',
      quantity: row.quantity,
      price: row.price,
      triggerprice: row.triggerprice,
      ...(row.uniqueorderid ? { uniqueorderid: row.uniqueorderid } : {}),
    };
    this.working.set(brokerOrderId, order);
    return order;
  }
}
