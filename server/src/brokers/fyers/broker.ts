// The order adapter for one Fyers account: the engine's `Broker` port over Fyers API v3's synchronous order
// endpoints (`/api/v3/orders/sync`), the order book, the trade book and positions. Updates come from the order
// socket with the order book polled as the fallback (`orderUpdates.ts`).
import { roundToPaisa } from '@optionpilot/engine/money';
import { asyncScheduler, type Observable, type SchedulerLike } from 'rxjs';
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
import type { BrokerInstrument } from '../types';
import { FYERS_ORDER_NOT_FOUND_CODES, type FyersHttp } from './http';
import type { InstrumentBook } from '../instruments/book';
import { fyersOrderSocket$ } from './orderSocket';
import { fyersOrderUpdates$ } from './orderUpdates';
import {
  FYERS_ORDER_TYPE,
  fyersOrderBookSchema,
  fyersOrderIdSchema,
  fyersPositionsSchema,
  fyersTradeBookSchema,
  toSnapshot,
  type FyersOrderRow,
} from './wire';

/** Fyers' `orderTag`: alphanumeric, at most 30 characters (API v3 order placement). */
export const FYERS_TAG_MAX_LENGTH = 30;

/**
 * Fyers' limits for API orders: 10/s and 200/min per app and account (DOMAIN.md §3); NIFTY options freeze at
 * 1,800 units. Since the SEBI rule of 1 Apr 2026 raw MARKET and SL-M orders from algos are not sent: the router
 * sends protected LIMIT and SL-L (stop-limit) orders, and the adapter refuses a raw one.
 */
export const FYERS_CAPABILITIES: BrokerCapabilities = {
  name: 'fyers',
  supportsMarketOrders: true,
  supportsSlm: true,
  requiresMarketProtection: true,
  rateLimits: { perSecond: 10, perMinute: 200 },
  freezeQty: 1_800,
  tagMaxLength: FYERS_TAG_MAX_LENGTH,
};

export interface FyersBrokerOptions {
  readonly http: FyersHttp;
  readonly instruments: InstrumentBook;
  /** `wss://socket.fyers.in` (the order socket is `/trade/v3`) */
  readonly wsRoot: string;
  readonly now: () => number;
  /** the operator's SEBI algo tag (ALGO_TAG): as much of it as fits goes before the client order id */
  readonly algoTag?: string;
  readonly scheduler?: SchedulerLike;
  /** order-book polling interval while the order socket is down */
  readonly pollIntervalMs?: number;
  readonly reconnectBackoffMs?: readonly number[];
}

const PRODUCT = { MIS: 'INTRADAY', NRML: 'MARGIN' } as const;

/** The fields of an open order a modify repeats. */
interface WorkingOrder {
  readonly type: number;
  readonly qty: number;
  readonly limitPrice: number;
  readonly stopPrice: number;
}

export class FyersBroker implements Broker {
  readonly capabilities = FYERS_CAPABILITIES;
  readonly orderUpdates$: Observable<BrokerOrderSnapshot>;
  /** what a modify must repeat, for the orders this adapter placed */
  private readonly working = new Map<string, WorkingOrder>();

  constructor(private readonly options: FyersBrokerOptions) {
    const scheduler = options.scheduler ?? asyncScheduler;
    this.orderUpdates$ = fyersOrderUpdates$({
      socket$: fyersOrderSocket$({
        wsRoot: options.wsRoot,
        authorization: options.http.authorization,
        backoffMs: options.reconnectBackoffMs ?? [1_000, 2_000, 5_000, 10_000, 30_000],
        scheduler,
      }),
      orderBook: () => this.orderBook(),
      now: options.now,
      scheduler,
      ...(options.pollIntervalMs === undefined ? {} : { pollIntervalMs: options.pollIntervalMs }),
    });
  }

  async placeOrder(request: OrderRequest): Promise<{ readonly brokerOrderId: string }> {
    if (request.type === 'MARKET' || request.type === 'SL-M') {
      // Unprotected market orders are not sent from an algo; the router converts them before they get here.
      throw new BrokerError('rejected', 'UNPROTECTED', `unprotected ${request.type} order`, 'fyers');
    }
    let instrument: BrokerInstrument | undefined;
    try {
      instrument = await this.options.instruments.instrumentOf(request.symbol);
    } catch {
      // Nothing was sent: a refusal (safe to retry), not an unknown outcome.
      throw new BrokerError('rejected', 'NO_INSTRUMENT_MASTER', 'Fyers symbol master unavailable', 'fyers');
    }
    if (instrument === undefined) {
      throw new BrokerError(
        'rejected',
        'UNKNOWN_INSTRUMENT',
        `${request.symbol} is not in Fyers' NSE_FO master`,
        'fyers',
      );
    }
    const body = await this.options.http.request({
      method: 'POST',
      path: '/api/v3/orders/sync',
      orderWrite: true,
      schema: fyersOrderIdSchema,
      json: {
        symbol: instrument.tradingSymbol,
        qty: request.quantity,
        type: FYERS_ORDER_TYPE[request.type],
        side: request.side === 'BUY' ? 1 : -1,
        productType: PRODUCT[request.product],
        limitPrice: request.price ?? 0,
        stopPrice: request.type === 'SL' ? (request.triggerPrice ?? 0) : 0,
        validity: 'DAY',
        disclosedQty: 0,
        offlineOrder: false,
        stopLoss: 0,
        takeProfit: 0,
        // Fyers keeps one alphanumeric tag of 30 characters: the client order id (16, so a lost order is found
        // again) after the first 14 characters of ALGO_TAG. The exchange's algo id is stamped by Fyers on the
        // orders of the registered app, not sent by us.
        orderTag: algoOrderTag(this.options.algoTag ?? '', request.clientOrderId, FYERS_TAG_MAX_LENGTH),
      },
    });
    this.working.set(body.id, {
      type: FYERS_ORDER_TYPE[request.type],
      qty: request.quantity,
      limitPrice: request.price ?? 0,
      stopPrice: request.type === 'SL' ? (request.triggerPrice ?? 0) : 0,
    });
    return { brokerOrderId: body.id };
  }

  async modifyOrder(brokerOrderId: string, amendment: BrokerAmendment): Promise<void> {
    // Fyers' modify takes the order's type, quantity and both prices (as the official samples and OpenAlgo send
    // them), not a difference: what this adapter placed is remembered, an order of an earlier process is read.
    let current = this.working.get(brokerOrderId);
    if (current === undefined) {
      const row = await this.orderRow(brokerOrderId);
      if (row === undefined) throw new BrokerError('rejected', '-209', 'unknown order', 'fyers');
      current = { type: row.type, qty: row.qty, limitPrice: row.limitPrice, stopPrice: row.stopPrice };
    }
    const next: WorkingOrder = {
      type: current.type,
      qty: amendment.quantity ?? current.qty,
      limitPrice: amendment.price ?? current.limitPrice,
      stopPrice: amendment.triggerPrice ?? current.stopPrice,
    };
    await this.options.http.request({
      method: 'PATCH',
      path: '/api/v3/orders/sync',
      orderWrite: true,
      schema: fyersOrderIdSchema,
      json: { id: brokerOrderId, ...next },
    });
    this.working.set(brokerOrderId, next);
  }

  async cancelOrder(brokerOrderId: string): Promise<void> {
    await this.options.http.request({
      method: 'DELETE',
      path: '/api/v3/orders/sync',
      orderWrite: true,
      schema: fyersOrderIdSchema,
      json: { id: brokerOrderId },
    });
  }

  async getOrder(ref: OrderRef): Promise<BrokerOrderSnapshot | undefined> {
    let row: FyersOrderRow | undefined;
    if ('clientOrderId' in ref) {
      // An id lost to a timeout: find the order by the client order id its tag carries.
      row = (await this.orderBook()).find((o) => clientOrderIdOfTag(o.orderTag) === ref.clientOrderId);
    } else {
      row = await this.orderRow(ref.brokerOrderId);
    }
    if (row === undefined) return undefined;
    return toSnapshot(await this.withAverage(row), this.options.now());
  }

  /**
   * A signal armed: a cheap read opens (or keeps) the keep-alive connection the order will take, and the symbol
   * master the order needs is loaded if it is not.
   */
  async prepare(): Promise<void> {
    await Promise.all([this.orderBook(), this.options.instruments.ensureFresh()]);
  }

  async getPositions(): Promise<readonly BrokerPosition[]> {
    const body = await this.options.http.request({
      method: 'GET',
      path: '/api/v3/positions',
      schema: fyersPositionsSchema,
    });
    await this.options.instruments.ensureFresh().catch(() => undefined);
    return body.netPositions
      .filter((p) => p.symbol.startsWith('NSE:'))
      .map((p) => ({
        // Positions outside the NIFTY options (placed by hand) keep Fyers' ticker so reconciliation sees them.
        symbol: this.options.instruments.canonicalOf(p.symbol) ?? p.symbol,
        quantity: p.netQty,
        avgPrice: p.netQty >= 0 ? p.buyAvg || p.netAvg : p.sellAvg || p.netAvg,
        realisedPnl: p.realized_profit,
      }));
  }

  /** One order's row (`GET /api/v3/orders?id=`), or undefined when Fyers has no such order. */
  private async orderRow(brokerOrderId: string): Promise<FyersOrderRow | undefined> {
    try {
      const body = await this.options.http.request({
        method: 'GET',
        path: `/api/v3/orders?id=${encodeURIComponent(brokerOrderId)}`,
        schema: fyersOrderBookSchema,
      });
      return body.orderBook.find((o) => o.id === brokerOrderId);
    } catch (error) {
      if (isBrokerError(error) && FYERS_ORDER_NOT_FOUND_CODES.has(error.code)) return undefined;
      throw error;
    }
  }

  private async orderBook(): Promise<FyersOrderRow[]> {
    const body = await this.options.http.request({
      method: 'GET',
      path: '/api/v3/orders',
      schema: fyersOrderBookSchema,
    });
    return body.orderBook;
  }

  /** A row with fills but no traded price (seen on partial fills): the trade book gives the average. */
  private async withAverage(row: FyersOrderRow): Promise<FyersOrderRow> {
    if (row.filledQty === 0 || row.tradedPrice > 0) return row;
    const book = await this.options.http.request({
      method: 'GET',
      path: '/api/v3/tradebook',
      schema: fyersTradeBookSchema,
    });
    const fills = book.tradeBook.filter((t) => t.orderNumber === row.id);
    const qty = fills.reduce((sum, t) => sum + t.tradedQty, 0);
    if (qty === 0) return row;
    const value = fills.reduce((sum, t) => sum + t.tradedQty * t.tradePrice, 0);
    return { ...row, tradedPrice: roundToPaisa(value / qty) };
  }
}
