// The order adapter for one Groww account: the engine's `Broker` port over Groww's order APIs (NSE, segment FNO).
// Market and SL-M orders from algos are refused under the 1 Apr 2026 rules and Groww has no protection field, so
// the capabilities ask the router for protected LIMIT orders and stop-limit (SL) stops, and a raw MARKET / SL-M
// that reaches this adapter is refused here, never sent. Order updates are pushed on Groww's socket, the order list
// polled while it is down (orderUpdates.ts).
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
import { algoOrderTag } from '../orderTag';
import { GROWW_NOT_FOUND, type GrowwHttp } from './http';
import type { GrowwOrderReads } from './orderUpdates';
import type { InstrumentBook } from '../instruments/book';
import {
  growwMarginSchema,
  growwOrderAckSchema,
  growwOrderListSchema,
  growwOrderSchema,
  growwOrderStatusSchema,
  growwPositionsSchema,
  toSnapshot,
  type GrowwOrder,
} from './wire';

/** `order_reference_id`: "8 to 20 length alphanumeric string with at most two hyphens". */
export const GROWW_TAG_MAX_LENGTH = 20;

/**
 * What Groww accepts: no raw MARKET / SL-M from algos; Groww's order limit is 10/s and 250/min per user (all of
 * create, modify and cancel); NIFTY options freeze at 1,800 units per order.
 */
export const GROWW_CAPABILITIES: BrokerCapabilities = {
  name: 'groww',
  supportsMarketOrders: false,
  supportsSlm: false,
  requiresMarketProtection: true,
  rateLimits: { perSecond: 10, perMinute: 250 },
  freezeQty: 1_800,
  tagMaxLength: GROWW_TAG_MAX_LENGTH,
};

export const GROWW_PATHS = {
  create: '/v1/order/create',
  modify: '/v1/order/modify',
  cancel: '/v1/order/cancel',
  list: '/v1/order/list',
  detail: '/v1/order/detail/',
  statusByReference: '/v1/order/status/reference/',
  positions: '/v1/positions/user',
  margins: '/v1/margins/detail/user',
} as const;

const SEGMENT = 'FNO';

/**
 * The order's `order_reference_id`: the first 3 letters of ALGO_TAG, a hyphen and the 16-character client order id
 * (20 characters, one hyphen), which finds a placement whose answer was lost.
 */
export function growwReference(algoTag: string, clientOrderId: string): string {
  return algoOrderTag(algoTag, clientOrderId, GROWW_TAG_MAX_LENGTH, '-');
}
/** Groww's largest order-list page. */
const PAGE_SIZE = 100;

export interface GrowwBrokerOptions {
  readonly http: GrowwHttp;
  readonly instruments: InstrumentBook;
  /** SEBI algo tag (ALGO_TAG): as much as fits goes before the client order id in `order_reference_id` */
  readonly algoTag: string;
  readonly now: () => number;
  /** the account's order updates, built over this adapter's order list and order detail (orderUpdates.ts) */
  readonly orderUpdates: (reads: GrowwOrderReads) => Observable<BrokerOrderSnapshot>;
}

export class GrowwBroker implements Broker {
  readonly capabilities = GROWW_CAPABILITIES;
  readonly orderUpdates$: Observable<BrokerOrderSnapshot>;
  /** each order's type, which Groww's modify must repeat */
  private readonly orderTypes = new Map<string, string>();
  /** the orders placed here, as rows: a pushed update (which has no reference id) is completed from them */
  private readonly placed = new Map<string, GrowwOrder>();

  constructor(private readonly options: GrowwBrokerOptions) {
    this.orderUpdates$ = options.orderUpdates({
      orderList: () => this.orderList(),
      orderDetail: (id) => this.detail(id),
      placed: (id) => this.placed.get(id),
    });
  }

  async placeOrder(request: OrderRequest): Promise<{ readonly brokerOrderId: string }> {
    if (request.type === 'MARKET' || request.type === 'SL-M') {
      throw new BrokerError('rejected', 'UNPROTECTED', `unprotected ${request.type} order`, 'groww');
    }
    const instrument = await this.options.instruments.forOrder(
      request.symbol,
      'groww',
      "Groww's instrument master",
    );
    const orderType = request.type === 'SL' ? 'SL' : 'LIMIT';
    const reference = growwReference(this.options.algoTag, request.clientOrderId);
    const ack = await this.options.http.request({
      method: 'POST',
      path: GROWW_PATHS.create,
      orderCall: true,
      schema: growwOrderAckSchema,
      body: {
        trading_symbol: instrument.tradingSymbol,
        quantity: request.quantity,
        price: request.price ?? 0,
        ...(orderType === 'SL' ? { trigger_price: request.triggerPrice ?? 0 } : {}),
        validity: 'DAY',
        exchange: 'NSE',
        segment: SEGMENT,
        product: request.product === 'MIS' ? 'MIS' : 'NRML',
        order_type: orderType,
        transaction_type: request.side,
        order_reference_id: reference,
      },
    });
    this.orderTypes.set(ack.groww_order_id, orderType);
    this.placed.set(
      ack.groww_order_id,
      growwOrderSchema.parse({
        groww_order_id: ack.groww_order_id,
        trading_symbol: instrument.tradingSymbol,
        order_reference_id: reference,
        quantity: request.quantity,
        order_type: orderType,
        transaction_type: request.side,
        segment: SEGMENT,
      }),
    );
    return { brokerOrderId: ack.groww_order_id };
  }

  async modifyOrder(brokerOrderId: string, amendment: BrokerAmendment): Promise<void> {
    const current = await this.detail(brokerOrderId);
    if (current === undefined) {
      throw new BrokerError('rejected', GROWW_NOT_FOUND, 'unknown order', 'groww');
    }
    const orderType = this.orderTypes.get(brokerOrderId) ?? current.order_type ?? 'LIMIT';
    await this.options.http.request({
      method: 'POST',
      path: GROWW_PATHS.modify,
      orderCall: true,
      schema: growwOrderAckSchema,
      body: {
        groww_order_id: brokerOrderId,
        segment: SEGMENT,
        order_type: orderType,
        quantity: amendment.quantity ?? current.quantity,
        price: amendment.price ?? current.price,
        ...(orderType === 'SL' ? { trigger_price: amendment.triggerPrice ?? current.trigger_price } : {}),
      },
    });
  }

  async cancelOrder(brokerOrderId: string): Promise<void> {
    await this.options.http.request({
      method: 'POST',
      path: GROWW_PATHS.cancel,
      orderCall: true,
      schema: growwOrderAckSchema,
      body: { groww_order_id: brokerOrderId, segment: SEGMENT },
    });
  }

  async getOrder(ref: OrderRef): Promise<BrokerOrderSnapshot | undefined> {
    let brokerOrderId: string;
    if ('clientOrderId' in ref) {
      // A placement whose answer was lost: Groww finds an order by its reference id directly.
      const status = await this.notFoundAsUndefined(() =>
        this.options.http.request({
          method: 'GET',
          path: `${GROWW_PATHS.statusByReference}${encodeURIComponent(
            growwReference(this.options.algoTag, ref.clientOrderId),
          )}`,
          query: { segment: SEGMENT },
          schema: growwOrderStatusSchema,
        }),
      );
      if (status === undefined) return undefined;
      brokerOrderId = status.groww_order_id;
    } else {
      brokerOrderId = ref.brokerOrderId;
    }
    const row = await this.detail(brokerOrderId);
    return row === undefined ? undefined : toSnapshot(row, this.options.now());
  }

  async getPositions(): Promise<readonly BrokerPosition[]> {
    const { positions } = await this.options.http.request({
      method: 'GET',
      path: GROWW_PATHS.positions,
      query: { segment: SEGMENT },
      schema: growwPositionsSchema,
    });
    await this.options.instruments.ensureFresh().catch(() => undefined);
    return positions.map((p) => ({
      // Positions outside the NIFTY options (placed by hand) keep Groww's symbol so reconciliation sees them.
      symbol: this.options.instruments.canonicalOf(p.trading_symbol) ?? p.trading_symbol,
      quantity: p.quantity,
      avgPrice: p.quantity > 0 ? p.credit_price : p.quantity < 0 ? p.debit_price : 0,
      realisedPnl: p.realised_pnl,
    }));
  }

  /** A signal armed: a cheap read opens the keep-alive connection the order will take; the master is loaded. */
  async prepare(): Promise<void> {
    await Promise.all([this.funds(), this.options.instruments.ensureFresh()]);
  }

  /** The account's clear cash and what is free for buying options, in paise. */
  async funds(): Promise<{ readonly clearCashPaise: number; readonly optionBuyPaise: number }> {
    const m = await this.options.http.request({
      method: 'GET',
      path: GROWW_PATHS.margins,
      schema: growwMarginSchema,
    });
    return {
      clearCashPaise: rupeesToPaise(m.clear_cash),
      optionBuyPaise: rupeesToPaise(m.fno_margin_details.option_buy_balance_available),
    };
  }

  /** The day's FNO orders, every page. */
  async orderList(): Promise<GrowwOrder[]> {
    const all: GrowwOrder[] = [];
    for (let page = 0; ; page += 1) {
      const { order_list } = await this.options.http.request({
        method: 'GET',
        path: GROWW_PATHS.list,
        query: { segment: SEGMENT, page: String(page), page_size: String(PAGE_SIZE) },
        schema: growwOrderListSchema,
      });
      all.push(...order_list);
      if (order_list.length < PAGE_SIZE) return all;
    }
  }

  private detail(brokerOrderId: string): Promise<GrowwOrder | undefined> {
    return this.notFoundAsUndefined(() =>
      this.options.http.request({
        method: 'GET',
        path: `${GROWW_PATHS.detail}${encodeURIComponent(brokerOrderId)}`,
        query: { segment: SEGMENT },
        schema: growwOrderSchema,
      }),
    );
  }

  private async notFoundAsUndefined<T>(call: () => Promise<T>): Promise<T | undefined> {
    try {
      return await call();
    } catch (error) {
      if (isBrokerError(error) && (error.code === GROWW_NOT_FOUND || error.code === '404')) {
        return undefined;
      }
      throw error;
    }
  }
}
