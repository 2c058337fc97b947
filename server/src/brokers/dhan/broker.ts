// The order adapter for one Dhan account: the engine's `Broker` port over Dhan v2's orders. Dhan converts API
// MARKET orders into limits with its own market-price protection and the exchanges refuse unprotected ones from
// algos, so the capabilities ask the router for protected LIMIT orders and stop-limit stops (`STOP_LOSS`); a raw
// MARKET / SL-M reaching this adapter is refused here, never sent. Orders are by the scrip master's `securityId`
// and carry the client order id in `correlationId`, which `/v2/orders/external/{correlationId}` finds again after a
// lost answer. Updates come from the order update socket, with the order book polled while it is down.
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
import type { InstrumentBook } from '../instruments/book';
import type { DhanHttp } from './http';
import {
  dhanFundsSchema,
  dhanOrderAckSchema,
  dhanOrderRowSchema,
  dhanOrderRowsSchema,
  dhanPositionSchema,
  dhanTradeSchema,
  toSnapshot,
  type DhanOrderRow,
  type DhanTrade,
} from './wire';
import { z } from 'zod';

/** Dhan's `correlationId`: up to 25 characters (**verify**: Dhan documents 25 for partners, 30 elsewhere). */
export const DHAN_TAG_MAX_LENGTH = 25;

/**
 * What Dhan accepts: protected limit orders and stop-limits, 25 orders/s per account at Dhan (capped at 10/s by
 * SEBI's threshold for unregistered algos) and 250/min; NIFTY options freeze at 1,800 units per order.
 */
export const DHAN_CAPABILITIES: BrokerCapabilities = {
  name: 'dhan',
  supportsMarketOrders: false,
  supportsSlm: false,
  requiresMarketProtection: true,
  rateLimits: { perSecond: 10, perMinute: 250 },
  freezeQty: 1_800,
  tagMaxLength: DHAN_TAG_MAX_LENGTH,
};

export const DHAN_PATHS = {
  orders: '/v2/orders',
  external: '/v2/orders/external/',
  trades: '/v2/trades',
  positions: '/v2/positions',
  funds: '/v2/fundlimit',
  killSwitch: '/v2/killswitch?killSwitchStatus=ACTIVATE',
  pnlExit: '/v2/pnlExit',
} as const;

/** What a modify must repeat (Dhan takes the order's fields again, not a difference). */
interface WorkingOrder {
  orderType: string;
  quantity: number;
  price: number;
  triggerPrice: number;
}

export interface DhanBrokerOptions {
  readonly http: DhanHttp;
  readonly instruments: InstrumentBook;
  /** SEBI algo tag (ALGO_TAG): as much of it as fits goes before the client order id in `correlationId` */
  readonly algoTag: string;
  readonly now: () => number;
  /** the account's order updates (orderUpdates.ts), built over this adapter's order book */
  readonly orderUpdates: (orderBook: () => Promise<DhanOrderRow[]>) => Observable<BrokerOrderSnapshot>;
}

const ackOrList = z.unknown();

export class DhanBroker implements Broker {
  readonly capabilities = DHAN_CAPABILITIES;
  readonly orderUpdates$: Observable<BrokerOrderSnapshot>;
  private readonly working = new Map<string, WorkingOrder>();

  constructor(private readonly options: DhanBrokerOptions) {
    this.orderUpdates$ = options.orderUpdates(() => this.orderBook());
  }

  private tagOf(clientOrderId: string): string {
    return algoOrderTag(this.options.algoTag, clientOrderId, DHAN_TAG_MAX_LENGTH);
  }

  async placeOrder(request: OrderRequest): Promise<{ readonly brokerOrderId: string }> {
    if (request.type === 'MARKET' || request.type === 'SL-M') {
      // Unprotected orders are not sent; the router converts them before they get here.
      throw new BrokerError('rejected', 'UNPROTECTED', `unprotected ${request.type} order`, 'dhan');
    }
    let instrument;
    try {
      instrument = await this.options.instruments.instrumentOf(request.symbol);
    } catch {
      // Nothing was sent: a refusal, not an unknown outcome.
      throw new BrokerError('rejected', 'NO_SCRIP_MASTER', 'Dhan scrip master unavailable', 'dhan');
    }
    if (instrument === undefined) {
      throw new BrokerError(
        'rejected',
        'UNKNOWN_INSTRUMENT',
        `${request.symbol} is not in Dhan's scrip master`,
        'dhan',
      );
    }
    const stop = request.type === 'SL';
    const order: WorkingOrder = {
      orderType: stop ? 'STOP_LOSS' : 'LIMIT',
      quantity: request.quantity,
      price: request.price ?? 0,
      triggerPrice: stop ? (request.triggerPrice ?? 0) : 0,
    };
    const ack = await this.options.http.request({
      method: 'POST',
      path: DHAN_PATHS.orders,
      schema: dhanOrderAckSchema,
      body: {
        dhanClientId: this.options.http.clientId,
        correlationId: this.tagOf(request.clientOrderId),
        transactionType: request.side,
        exchangeSegment: 'NSE_FNO',
        productType: request.product === 'MIS' ? 'INTRADAY' : 'MARGIN',
        orderType: order.orderType,
        validity: 'DAY',
        securityId: instrument.token,
        quantity: order.quantity,
        disclosedQuantity: 0,
        price: order.price,
        triggerPrice: order.triggerPrice,
        afterMarketOrder: false,
      },
    });
    this.working.set(ack.orderId, order);
    return { brokerOrderId: ack.orderId };
  }

  async modifyOrder(brokerOrderId: string, amendment: BrokerAmendment): Promise<void> {
    const current = await this.workingOrder(brokerOrderId);
    const next: WorkingOrder = {
      ...current,
      quantity: amendment.quantity ?? current.quantity,
      price: amendment.price ?? current.price,
      triggerPrice: amendment.triggerPrice ?? current.triggerPrice,
    };
    await this.options.http.request({
      method: 'PUT',
      path: `${DHAN_PATHS.orders}/${encodeURIComponent(brokerOrderId)}`,
      schema: dhanOrderAckSchema,
      body: {
        dhanClientId: this.options.http.clientId,
        orderId: brokerOrderId,
        orderType: next.orderType,
        legName: '',
        quantity: next.quantity,
        price: next.price,
        disclosedQuantity: 0,
        triggerPrice: next.triggerPrice,
        validity: 'DAY',
      },
    });
    this.working.set(brokerOrderId, next);
  }

  async cancelOrder(brokerOrderId: string): Promise<void> {
    await this.options.http.request({
      method: 'DELETE',
      path: `${DHAN_PATHS.orders}/${encodeURIComponent(brokerOrderId)}`,
      schema: dhanOrderAckSchema,
    });
  }

  async getOrder(ref: OrderRef): Promise<BrokerOrderSnapshot | undefined> {
    const row =
      'clientOrderId' in ref
        ? await this.byCorrelation(ref.clientOrderId)
        : await this.byId(ref.brokerOrderId);
    return row === undefined ? undefined : toSnapshot(row, this.options.now());
  }

  async getPositions(): Promise<readonly BrokerPosition[]> {
    const rows = await this.options.http.request({
      method: 'GET',
      path: DHAN_PATHS.positions,
      schema: z.array(dhanPositionSchema),
    });
    await this.options.instruments.ensureFresh().catch(() => undefined);
    return rows
      .filter((p) => p.exchangeSegment === 'NSE_FNO')
      .map((p) => ({
        // Positions outside the NIFTY options (placed by hand) keep Dhan's symbol so reconciliation sees them.
        symbol: this.options.instruments.canonicalOf(p.securityId) ?? p.tradingSymbol,
        quantity: p.netQty,
        avgPrice: p.netQty > 0 ? p.buyAvg : p.netQty < 0 ? p.sellAvg : 0,
        realisedPnl: p.realizedProfit,
      }));
  }

  /** A signal armed: a cheap read (the fund limit) warms the keep-alive connection; the scrip master is loaded. */
  async prepare(): Promise<void> {
    await Promise.all([this.funds(), this.options.instruments.ensureFresh()]);
  }

  /** The account's fund limit: available balance and start-of-day limit, in paise. */
  async funds(): Promise<{ readonly netPaise: number; readonly availableCashPaise: number }> {
    const f = await this.options.http.request({
      method: 'GET',
      path: DHAN_PATHS.funds,
      schema: dhanFundsSchema,
    });
    return { netPaise: rupeesToPaise(f.sodLimit), availableCashPaise: rupeesToPaise(f.availabelBalance) };
  }

  /** The day's fills (trade book). */
  tradeBook(): Promise<DhanTrade[]> {
    return this.options.http.request({
      method: 'GET',
      path: DHAN_PATHS.trades,
      schema: z.array(dhanTradeSchema),
    });
  }

  /**
   * The trader's daily loss lock fired: Dhan's own safety net on top of OptionPilot's exits. The P&L-based exit is
   * armed at a loss of ₹1 from now (Dhan squares off intraday positions and, with `enableKillSwitch`, blocks the
   * day's trading), and the kill switch is activated (Dhan refuses it while positions are open, so its refusal is
   * expected then and not an error of the lock). Best effort: the engine's own exits do not wait for it.
   */
  async onDailyLossLock(): Promise<{ readonly pnlExit: boolean; readonly killSwitch: boolean }> {
    const attempt = (call: Promise<unknown>): Promise<boolean> =>
      call.then(
        () => true,
        (error: unknown) => {
          if (isBrokerError(error)) return false;
          throw error;
        },
      );
    const pnlExit = await attempt(
      this.options.http.request({
        method: 'POST',
        path: DHAN_PATHS.pnlExit,
        schema: ackOrList,
        body: { profitValue: '0', lossValue: '1', productType: ['INTRADAY'], enableKillSwitch: true },
      }),
    );
    const killSwitch = await attempt(
      this.options.http.request({ method: 'POST', path: DHAN_PATHS.killSwitch, schema: ackOrList }),
    );
    return { pnlExit, killSwitch };
  }

  private orderBook(): Promise<DhanOrderRow[]> {
    return this.options.http.request({
      method: 'GET',
      path: DHAN_PATHS.orders,
      schema: z.array(dhanOrderRowSchema),
    });
  }

  /**
   * A placement whose answer was lost: Dhan finds it by the `correlationId` it was sent with. When that finds
   * nothing, the day's order book is read for the client order id at the end of any tag, so an order placed under
   * another ALGO_TAG (changed across a restart) is still found rather than reported missing.
   */
  private async byCorrelation(clientOrderId: string): Promise<DhanOrderRow | undefined> {
    let rows: DhanOrderRow[] = [];
    try {
      rows = await this.options.http.request({
        method: 'GET',
        path: `${DHAN_PATHS.external}${encodeURIComponent(this.tagOf(clientOrderId))}`,
        schema: dhanOrderRowsSchema,
      });
    } catch (error) {
      // Dhan answers an unknown correlation id with an input error (DH-905): no such order under this tag.
      if (!(isBrokerError(error) && error.kind === 'rejected')) throw error;
    }
    return (
      rows.at(-1) ??
      (await this.orderBook()).find((o) => clientOrderIdOfTag(o.correlationId) === clientOrderId)
    );
  }

  private async byId(brokerOrderId: string): Promise<DhanOrderRow | undefined> {
    try {
      return await this.options.http.request({
        method: 'GET',
        path: `${DHAN_PATHS.orders}/${encodeURIComponent(brokerOrderId)}`,
        schema: dhanOrderRowSchema,
      });
    } catch (error) {
      if (isBrokerError(error) && error.kind === 'rejected') return undefined;
      throw error;
    }
  }

  /** What a modify must repeat: remembered from the placement, else read from Dhan (orders placed before a restart). */
  private async workingOrder(brokerOrderId: string): Promise<WorkingOrder> {
    const known = this.working.get(brokerOrderId);
    if (known !== undefined) return known;
    const row = await this.byId(brokerOrderId);
    if (row === undefined) throw new BrokerError('rejected', 'NOT_FOUND', 'unknown order', 'dhan');
    const order: WorkingOrder = {
      orderType: row.orderType ?? 'LIMIT',
      quantity: row.quantity,
      price: row.price,
      triggerPrice: row.triggerPrice,
    };
    this.working.set(brokerOrderId, order);
    return order;
  }
}
