import { Subject } from 'rxjs';
import type { Observable, SchedulerLike } from 'rxjs';
import type { Quote } from '../core/types';
import { roundToTick } from '../instruments/strikes';
import { roundToPaisa } from '../money';
import { BrokerError } from './broker';
import type {
  Broker,
  BrokerAmendment,
  BrokerCapabilities,
  BrokerOrderSnapshot,
  BrokerPosition,
  OrderRef,
} from './broker';
import type { BrokerOrderStatus, OrderRequest } from './orderTypes';

/** Where the paper broker reads prices: the simulated, replayed or live feed's latest quote per symbol. */
export interface QuoteSource {
  getQuote(symbol: string): Quote | undefined;
}

/** Adverse slippage applied to every paper fill: a number of ticks, or basis points of the price. */
export type Slippage = { readonly ticks: number } | { readonly bps: number };

/** The adverse slippage of paper trading, live and in backtests alike: one tick beyond the touch. */
export const PAPER_SLIPPAGE: Slippage = { ticks: 1 };

/** Options of `PaperBroker`. */
export interface PaperBrokerOptions {
  readonly quotes: QuoteSource;
  readonly scheduler: SchedulerLike;
  /** virtual ms each call takes before the broker acts (0: acts at once) */
  readonly latencyMs?: number;
  readonly slippage?: Slippage;
  readonly tickSize?: number;
  readonly capabilities?: Partial<BrokerCapabilities>;
  /** prefix of broker order ids, so ids of several paper accounts differ */
  readonly idPrefix?: string;
}

/** The paper broker's capabilities unless overridden: what an Indian discount broker allows today. */
export const PAPER_CAPABILITIES: BrokerCapabilities = {
  name: 'paper',
  supportsMarketOrders: true,
  supportsSlm: true,
  requiresMarketProtection: false,
  rateLimits: { perSecond: 10, perMinute: 400, perDay: 5_000 },
  freezeQty: 1_800,
  tagMaxLength: 20,
};

/** Refuses a request the way a broker's validation does (a module function: `validate` runs on every order). */
function reject(code: string, message: string): never {
  throw new BrokerError('rejected', code, message, 'paper');
}

interface PaperOrder {
  readonly brokerOrderId: string;
  request: OrderRequest;
  status: BrokerOrderStatus;
  filledQty: number;
  avgPrice: number;
  /** a stop order whose trigger has been reached and now works as a limit/market order */
  triggered: boolean;
  reason?: string;
}

interface PaperPosition {
  quantity: number;
  avgPrice: number;
  realisedPnl: number;
}

/**
 * A deterministic simulated broker. BUY fills at the ask and SELL at the bid (plus adverse slippage) of the
 * quote source; a LIMIT fills only when marketable (at the better of the touch and its limit); stops trigger on
 * the LTP. Orders fill completely (the paper book has no depth). Calls take `latencyMs` on the injected
 * scheduler. Resting orders are re-checked when the feed calls `reevaluate`.
 */
export class PaperBroker implements Broker {
  readonly capabilities: BrokerCapabilities;
  readonly orderUpdates$: Observable<BrokerOrderSnapshot>;
  private readonly updates = new Subject<BrokerOrderSnapshot>();
  private readonly orders = new Map<string, PaperOrder>();
  private readonly byClientId = new Map<string, string>();
  private readonly positions = new Map<string, PaperPosition>();
  private seq = 0;
  private readonly tickSize: number;
  private readonly latencyMs: number;
  private readonly idPrefix: string;

  constructor(private readonly options: PaperBrokerOptions) {
    this.capabilities = { ...PAPER_CAPABILITIES, ...options.capabilities };
    this.orderUpdates$ = this.updates.asObservable();
    this.tickSize = options.tickSize ?? 0.05;
    this.latencyMs = options.latencyMs ?? 0;
    this.idPrefix = options.idPrefix ?? 'PB';
  }

  /** Places an order and fills it at once if marketable. */
  async placeOrder(request: OrderRequest): Promise<{ brokerOrderId: string }> {
    // With no latency the broker acts within the call (no extra turn of the microtask queue per order).
    if (this.latencyMs > 0) await this.latency();
    this.validate(request);
    if (this.byClientId.has(request.clientOrderId)) {
      // Real brokers do not dedupe tags; the paper broker refuses so a test catches a router that resends.
      throw new BrokerError(
        'rejected',
        'DUPLICATE_TAG',
        `order ${request.clientOrderId} already placed`,
        'paper',
      );
    }
    this.seq += 1;
    const order: PaperOrder = {
      brokerOrderId: `${this.idPrefix}${this.seq}`,
      request,
      status: 'ACCEPTED',
      filledQty: 0,
      avgPrice: 0,
      triggered: false,
    };
    this.orders.set(order.brokerOrderId, order);
    this.byClientId.set(request.clientOrderId, order.brokerOrderId);
    this.emit(order);
    this.tryFill(order);
    return { brokerOrderId: order.brokerOrderId };
  }

  /** Changes an open order's price, trigger or quantity. */
  async modifyOrder(brokerOrderId: string, amendment: BrokerAmendment): Promise<void> {
    if (this.latencyMs > 0) await this.latency();
    const order = this.openOrder(brokerOrderId);
    if (amendment.quantity !== undefined && amendment.quantity < order.filledQty) {
      throw new BrokerError('rejected', 'QTY_BELOW_FILLED', 'quantity below the filled quantity', 'paper');
    }
    order.request = { ...order.request, ...amendment };
    this.emit(order);
    this.tryFill(order);
  }

  /** Cancels an open order. */
  async cancelOrder(brokerOrderId: string): Promise<void> {
    if (this.latencyMs > 0) await this.latency();
    const order = this.openOrder(brokerOrderId);
    order.status = 'CANCELLED';
    this.emit(order);
  }

  /** The paper broker's view of an order. */
  async getOrder(ref: OrderRef): Promise<BrokerOrderSnapshot | undefined> {
    if (this.latencyMs > 0) await this.latency();
    const id = 'brokerOrderId' in ref ? ref.brokerOrderId : this.byClientId.get(ref.clientOrderId);
    const order = id === undefined ? undefined : this.orders.get(id);
    return order && this.snapshot(order);
  }

  /** Net positions from paper fills. */
  async getPositions(): Promise<readonly BrokerPosition[]> {
    if (this.latencyMs > 0) await this.latency();
    return [...this.positions.entries()].map(([symbol, p]) => ({ symbol, ...p }));
  }

  /** Re-checks resting orders (of one symbol, or all) against the current quotes; call on every quote. */
  reevaluate(symbol?: string): void {
    for (const order of this.orders.values()) {
      if (order.status === 'ACCEPTED' && (symbol === undefined || order.request.symbol === symbol))
        this.tryFill(order);
    }
  }

  private latency(): Promise<void> {
    return new Promise((resolve) => this.options.scheduler.schedule(() => resolve(), this.latencyMs));
  }

  private validate(request: OrderRequest): void {
    if (!Number.isInteger(request.quantity) || request.quantity <= 0)
      reject('BAD_QTY', 'quantity must be positive');
    const freeze = this.capabilities.freezeQty;
    if (freeze !== undefined && request.quantity > freeze) reject('FREEZE_QTY', `quantity above ${freeze}`);
    if (request.tag.length > this.capabilities.tagMaxLength) reject('TAG_TOO_LONG', 'tag too long');
    if (
      (request.type === 'LIMIT' || request.type === 'SL') &&
      !(request.price !== undefined && request.price > 0)
    ) {
      reject('BAD_PRICE', 'limit price required');
    }
    if ((request.type === 'SL' || request.type === 'SL-M') && request.triggerPrice === undefined) {
      reject('BAD_TRIGGER', 'trigger price required');
    }
    if (request.type === 'MARKET' && !this.capabilities.supportsMarketOrders)
      reject('NO_MARKET', 'market orders refused');
    if (request.type === 'SL-M' && !this.capabilities.supportsSlm) reject('NO_SLM', 'SL-M orders refused');
    if (request.type === 'MARKET' && this.options.quotes.getQuote(request.symbol) === undefined) {
      reject('NO_QUOTE', `no quote for ${request.symbol}`);
    }
  }

  private openOrder(brokerOrderId: string): PaperOrder {
    const order = this.orders.get(brokerOrderId);
    if (order === undefined)
      throw new BrokerError('rejected', 'NOT_FOUND', `no order ${brokerOrderId}`, 'paper');
    if (order.status !== 'ACCEPTED') {
      throw new BrokerError('rejected', 'NOT_OPEN', `order ${brokerOrderId} is ${order.status}`, 'paper');
    }
    return order;
  }

  /** The price a marketable order of this side gets: the touch plus adverse slippage. */
  private executionPrice(side: OrderRequest['side'], quote: Quote): number {
    const touch = side === 'BUY' ? quote.ask : quote.bid;
    const slippage = this.options.slippage;
    let slip = 0;
    if (slippage !== undefined)
      slip = 'ticks' in slippage ? slippage.ticks * this.tickSize : (touch * slippage.bps) / 10_000;
    return side === 'BUY'
      ? roundToTick(touch + slip, this.tickSize, 'up')
      : Math.max(this.tickSize, roundToTick(touch - slip, this.tickSize, 'down'));
  }

  private tryFill(order: PaperOrder): void {
    const quote = this.options.quotes.getQuote(order.request.symbol);
    if (quote === undefined || order.status !== 'ACCEPTED') return;
    const { side, type, price, triggerPrice } = order.request;
    if ((type === 'SL' || type === 'SL-M') && !order.triggered) {
      const trigger = triggerPrice as number;
      order.triggered = side === 'BUY' ? quote.ltp >= trigger : quote.ltp <= trigger;
      if (!order.triggered) return;
    }
    let fillPrice = this.executionPrice(side, quote);
    if (type === 'LIMIT' || type === 'SL') {
      const limit = price as number;
      const marketable = side === 'BUY' ? quote.ask <= limit : quote.bid >= limit;
      if (!marketable) return;
      fillPrice = side === 'BUY' ? Math.min(fillPrice, limit) : Math.max(fillPrice, limit);
    }
    const quantity = order.request.quantity - order.filledQty;
    order.avgPrice = (order.avgPrice * order.filledQty + fillPrice * quantity) / order.request.quantity;
    order.filledQty = order.request.quantity;
    order.status = 'FILLED';
    this.applyToPosition(order.request.symbol, side === 'BUY' ? quantity : -quantity, fillPrice);
    this.emit(order);
  }

  private applyToPosition(symbol: string, delta: number, price: number): void {
    const position = this.positions.get(symbol) ?? { quantity: 0, avgPrice: 0, realisedPnl: 0 };
    const { quantity } = position;
    if (quantity === 0 || Math.sign(quantity) === Math.sign(delta)) {
      const total = quantity + delta;
      position.avgPrice =
        (position.avgPrice * Math.abs(quantity) + price * Math.abs(delta)) / Math.abs(total);
      position.quantity = total;
    } else {
      const closing = Math.min(Math.abs(delta), Math.abs(quantity));
      position.realisedPnl += closing * (price - position.avgPrice) * Math.sign(quantity);
      position.quantity = quantity + delta;
      if (position.quantity === 0) position.avgPrice = 0;
      else if (Math.sign(position.quantity) !== Math.sign(quantity)) position.avgPrice = price;
    }
    position.realisedPnl = roundToPaisa(position.realisedPnl);
    this.positions.set(symbol, position);
  }

  private snapshot(order: PaperOrder): BrokerOrderSnapshot {
    const snapshot: { -readonly [K in keyof BrokerOrderSnapshot]: BrokerOrderSnapshot[K] } = {
      clientOrderId: order.request.clientOrderId,
      brokerOrderId: order.brokerOrderId,
      status: order.status,
      filledQty: order.filledQty,
      avgPrice: Math.round(order.avgPrice * 1e6) / 1e6,
      time: this.options.scheduler.now(),
    };
    if (order.reason !== undefined) snapshot.reason = order.reason;
    return snapshot;
  }

  private emit(order: PaperOrder): void {
    this.updates.next(this.snapshot(order));
  }
}
