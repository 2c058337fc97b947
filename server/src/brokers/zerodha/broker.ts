// The order adapter for one Zerodha account: the engine's `Broker` port over Kite Connect v3's regular orders.
// Updates arrive as verified postbacks (through the module's hub) and, as the fallback for a lost postback, from
// polling the order book while this adapter has open orders — the router itself only queries UNKNOWN orders.
import { Observable, share, Subject } from 'rxjs';
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
import type { KiteHttp } from './http';
import type { InstrumentBook } from '../instruments/book';
import type { PostbackReceiver } from './postbacks';
import {
  kiteOrderIdSchema,
  kiteOrderSchema,
  kiteOrdersSchema,
  kitePositionsSchema,
  toSnapshot,
} from './wire';
import { z } from 'zod';

/**
 * Kite's limits for API orders: 10/s, 400/min, 5,000/day per Zerodha account; market protection is mandatory for
 * MARKET and SL-M; `tag` holds 20 alphanumeric characters; NIFTY options freeze at 1,800 units per order.
 */
export const KITE_CAPABILITIES: BrokerCapabilities = {
  name: 'zerodha',
  supportsMarketOrders: true,
  supportsSlm: true,
  requiresMarketProtection: true,
  rateLimits: { perSecond: 10, perMinute: 400, perDay: 5_000 },
  freezeQty: 1_800,
  tagMaxLength: 20,
};

const TERMINAL = new Set(['FILLED', 'REJECTED', 'CANCELLED', 'EXPIRED']);

export interface KiteBrokerOptions {
  readonly http: KiteHttp;
  readonly instruments: InstrumentBook;
  readonly now: () => number;
  /** registers this adapter for its user's postbacks; returns the unregister function */
  readonly registerPostbacks?: (receiver: PostbackReceiver) => () => void;
  readonly apiSecret: string;
  /** the operator's SEBI algo tag (ALGO_TAG): as much of it as fits goes before the client order id in Kite's tag */
  readonly algoTag?: string;
  /** how often the order book is polled while orders are open; 0 turns polling off */
  readonly pollIntervalMs?: number;
}

export class KiteBroker implements Broker {
  readonly capabilities = KITE_CAPABILITIES;
  readonly orderUpdates$: Observable<BrokerOrderSnapshot>;
  /** the last state seen of every order this adapter placed or was asked about, so polling emits only changes */
  private readonly known = new Map<string, string>();
  private readonly updates = new Subject<BrokerOrderSnapshot>();

  constructor(private readonly options: KiteBrokerOptions) {
    this.orderUpdates$ = new Observable<BrokerOrderSnapshot>((subscriber) => {
      const forward = this.updates.subscribe(subscriber);
      const unregister = options.registerPostbacks?.({
        apiSecret: options.apiSecret,
        deliver: (postback) => this.emit(toSnapshot(postback, options.now())),
      });
      const interval = options.pollIntervalMs ?? 3_000;
      const timer = interval > 0 ? setInterval(() => void this.poll(), interval) : undefined;
      return () => {
        forward.unsubscribe();
        unregister?.();
        if (timer !== undefined) clearInterval(timer);
      };
    }).pipe(share());
  }

  async placeOrder(request: OrderRequest): Promise<{ readonly brokerOrderId: string }> {
    const instrument = await this.options.instruments.instrumentOf(request.symbol);
    if (instrument === undefined) {
      throw new BrokerError(
        'rejected',
        'UNKNOWN_INSTRUMENT',
        `${request.symbol} is not in Kite's NFO master`,
        'zerodha',
      );
    }
    const stop = request.type === 'SL' || request.type === 'SL-M';
    const data = await this.options.http.request({
      method: 'POST',
      path: '/orders/regular',
      orderWrite: true,
      schema: kiteOrderIdSchema,
      form: {
        exchange: 'NFO',
        tradingsymbol: instrument.tradingSymbol,
        transaction_type: request.side,
        order_type: request.type,
        quantity: request.quantity,
        product: request.product,
        validity: 'DAY',
        price: request.type === 'LIMIT' || request.type === 'SL' ? request.price : undefined,
        trigger_price: stop ? request.triggerPrice : undefined,
        // Kite refuses MARKET / SL-M from APIs without protection; -1 lets Kite pick the exchange's band. The
        // router already sends protected limits, so this covers direct callers.
        market_protection: request.type === 'MARKET' || request.type === 'SL-M' ? -1 : undefined,
        // Kite keeps one alphanumeric tag of 20 characters per order: the client order id (16, so a lost order
        // is found again) after the first 4 characters of ALGO_TAG. The exchange's algo id itself is not a Kite
        // order field: Zerodha stamps it on every order of the registered app.
        tag: algoOrderTag(this.options.algoTag ?? '', request.clientOrderId, KITE_CAPABILITIES.tagMaxLength),
      },
    });
    this.known.set(data.order_id, 'ACCEPTED:0');
    return { brokerOrderId: data.order_id };
  }

  async modifyOrder(brokerOrderId: string, amendment: BrokerAmendment): Promise<void> {
    await this.options.http.request({
      method: 'PUT',
      path: `/orders/regular/${encodeURIComponent(brokerOrderId)}`,
      orderWrite: true,
      schema: kiteOrderIdSchema,
      form: { quantity: amendment.quantity, price: amendment.price, trigger_price: amendment.triggerPrice },
    });
  }

  async cancelOrder(brokerOrderId: string): Promise<void> {
    await this.options.http.request({
      method: 'DELETE',
      path: `/orders/regular/${encodeURIComponent(brokerOrderId)}`,
      orderWrite: true,
      schema: kiteOrderIdSchema,
    });
  }

  async getOrder(ref: OrderRef): Promise<BrokerOrderSnapshot | undefined> {
    if ('clientOrderId' in ref) {
      // An id lost to a timeout: find the order by the client order id its tag carries.
      const orders = await this.orderBook();
      const found = orders.find((o) => clientOrderIdOfTag(o.tag) === ref.clientOrderId);
      return found && this.follow(toSnapshot(found, this.options.now()));
    }
    let history: z.infer<typeof kiteOrdersSchema>;
    try {
      history = await this.options.http.request({
        method: 'GET',
        path: `/orders/${encodeURIComponent(ref.brokerOrderId)}`,
        schema: z.array(kiteOrderSchema),
      });
    } catch (error) {
      // Kite answers an order id it does not know with an InputException.
      if (error instanceof BrokerError && error.code === 'InputException') return undefined;
      throw error;
    }
    const latest = history[history.length - 1];
    return latest && this.follow(toSnapshot(latest, this.options.now()));
  }

  /**
   * An order the engine asked about is one it tracks (after a restart, orders placed by an earlier process): the
   * poll follows it from now on. The caller applies this snapshot itself, so it is not emitted.
   */
  private follow(snapshot: BrokerOrderSnapshot): BrokerOrderSnapshot {
    this.known.set(snapshot.brokerOrderId, `${snapshot.status}:${snapshot.filledQty}`);
    return snapshot;
  }

  /**
   * A signal armed: a cheap read opens (or keeps) the keep-alive connection to Kite that the order will take, and
   * the instrument master the order needs is loaded if it is not.
   */
  async prepare(): Promise<void> {
    await Promise.all([
      this.options.http.request({ method: 'GET', path: '/portfolio/positions', schema: z.unknown() }),
      this.options.instruments.ensureFresh(),
    ]);
  }

  async getPositions(): Promise<readonly BrokerPosition[]> {
    const data = await this.options.http.request({
      method: 'GET',
      path: '/portfolio/positions',
      schema: kitePositionsSchema,
    });
    await this.options.instruments.ensureFresh().catch(() => undefined);
    return data.net
      .filter((p) => p.exchange === 'NFO')
      .map((p) => ({
        symbol: this.options.instruments.canonicalOf(p.tradingsymbol) ?? p.tradingsymbol,
        quantity: p.quantity,
        avgPrice: p.average_price,
        realisedPnl: p.realised,
      }));
  }

  private orderBook(): Promise<z.infer<typeof kiteOrdersSchema>> {
    return this.options.http.request({ method: 'GET', path: '/orders', schema: kiteOrdersSchema });
  }

  /** Emits a snapshot unless it repeats the last one seen for that order (postback and poll both report it). */
  private emit(snapshot: BrokerOrderSnapshot): void {
    const key = `${snapshot.status}:${snapshot.filledQty}`;
    if (this.known.get(snapshot.brokerOrderId) === key) return;
    this.known.set(snapshot.brokerOrderId, key);
    this.updates.next(snapshot);
  }

  /** Polls the order book for changes of this adapter's open orders. */
  private async poll(): Promise<void> {
    const open = [...this.known].filter(([, key]) => !TERMINAL.has(key.split(':')[0] ?? ''));
    if (open.length === 0) return;
    try {
      const orders = await this.orderBook();
      for (const order of orders) {
        if (this.known.has(order.order_id)) this.emit(toSnapshot(order, this.options.now()));
      }
    } catch {
      // The next poll tries again; postbacks keep arriving meanwhile.
    }
  }
}
