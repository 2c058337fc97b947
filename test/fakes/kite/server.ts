// A fake of Kite Connect v3 on 127.0.0.1 (random port) speaking Kite's documented wire format: the login
// redirect, `session/token` with its checksum, regular orders, order history, the order book, positions, the
// `instruments/NFO` CSV, signed postbacks and the binary ticker WebSocket. Faults can be injected per request.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrokerFault } from '../../brokers/conformance';
import { instrumentsCsv, niftyOptions, type FakeInstrument } from './instruments';
import { FakeOrderBook, postbackChecksum, type KiteOrder } from './orderBook';
import { FakeKiteAuth, type KiteFakeApp } from './auth';
import { handleOrderRequest } from './orderRoutes';
import { sendError, sendJson, TOKEN_ERROR } from './replies';
import { FakeFaults, OrderRequestLog, type FaultedRequest } from '../faults';

export type { KiteFakeApp } from './auth';
import { FakeTicker } from './ticker';

export interface KiteFakeOptions {
  readonly apps?: readonly KiteFakeApp[];
  /** `YYYY-MM-DD` of the listed NIFTY weekly expiry */
  readonly expiry?: string;
  readonly baseStrike?: number;
  readonly lotSize?: number;
  /** how long a `timeout_placed` answer is held back */
  readonly timeoutDelayMs?: number;
  /** fill every new order in full right after answering (LIMIT at its price, MARKET at this price); stops (SL, SL-M) rest until `fill` */
  readonly autoFillPrice?: number;
  /** fixed port (a standalone fake for e2e); default a random free one */
  readonly port?: number;
}

export class KiteFake {
  readonly book = new FakeOrderBook(() => Date.now());
  readonly instruments: readonly FakeInstrument[];
  readonly ticker: FakeTicker;
  readonly lotSize: number;
  readonly expiry: string;
  /** every place / modify / cancel request received (refused ones included), by Kite user id */
  readonly orderRequests = new OrderRequestLog();
  /** epoch ms the last fill was made (its postback follows) */
  lastFillAt = 0;
  readonly autoFillPrice: number | undefined;
  private readonly requestCounts = new Map<string, number>();
  readonly auth = new FakeKiteAuth();
  /** the injected faults, taken by the order routes (orderRoutes.ts) and the reads */
  readonly faults: FakeFaults;
  private readonly server = createServer((req, res) => void this.handle(req, res));
  private readonly port: number;
  url = '';

  constructor(options: KiteFakeOptions = {}) {
    this.lotSize = options.lotSize ?? 65;
    this.expiry = options.expiry ?? '2026-12-01';
    this.instruments = niftyOptions(this.expiry, options.baseStrike ?? 24_000, 6, this.lotSize);
    this.autoFillPrice = options.autoFillPrice;
    this.port = options.port ?? 0;
    for (const app of options.apps ?? []) this.addApp(app);
    this.ticker = new FakeTicker((apiKey, token) => this.auth.appOf(apiKey, token) !== undefined);
    this.faults = new FakeFaults(() => this.ticker.drop(), options.timeoutDelayMs ?? 1_500);
    this.server.on('upgrade', (req, socket, head) => this.ticker.upgrade(req, socket, head));
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(this.port, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  get wsUrl(): string {
    return this.url.replace('http:', 'ws:');
  }

  addApp(app: KiteFakeApp): void {
    this.auth.addApp(app);
  }

  issueSession(apiKey: string): string {
    return this.auth.issueSession(apiKey);
  }

  expireSessions(): void {
    this.auth.expireSessions();
  }

  inject(fault: BrokerFault, times = 1, on?: FaultedRequest): void {
    this.faults.inject(fault, times, on);
  }

  /** How many requests reached a path (e.g. `/orders` polls). */
  requestCount(path: string): number {
    return this.requestCounts.get(path) ?? 0;
  }

  instrument(tradingSymbol: string): FakeInstrument | undefined {
    return this.instruments.find((i) => i.tradingSymbol === tradingSymbol);
  }

  /** Fills `quantity` more of an order (default: the rest) at `price` and sends the postback. */
  async fill(orderId: string, price: number, quantity?: number): Promise<void> {
    const found = this.book.get(orderId);
    if (!found) throw new Error(`no order ${orderId}`);
    const { order } = found;
    const qty = Math.min(quantity ?? order.pending_quantity, order.pending_quantity);
    const filled = order.filled_quantity + qty;
    const average = (order.average_price * order.filled_quantity + price * qty) / filled;
    const done = filled === order.quantity;
    this.lastFillAt = Date.now();
    const next = this.book.update(orderId, {
      status: done ? 'COMPLETE' : 'OPEN',
      filled_quantity: filled,
      pending_quantity: order.quantity - filled,
      average_price: Math.round(average * 100) / 100,
    });
    await this.postback(found.userId, next);
  }

  /** Sends the order's postback to its app (if it has a postback URL); resolves with the HTTP status. */
  async postback(userId: string, order: KiteOrder, checksum?: string): Promise<number | undefined> {
    const app = this.auth.appOfUser(userId);
    if (!app?.postbackUrl) return undefined;
    const body = {
      ...order,
      user_id: userId,
      app_id: 1234,
      unfilled_quantity: 0,
      checksum: checksum ?? postbackChecksum(order.order_id, order.order_timestamp, app.apiSecret),
    };
    const res = await fetch(app.postbackUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    await res.arrayBuffer();
    return res.status;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    this.requestCounts.set(url.pathname, (this.requestCounts.get(url.pathname) ?? 0) + 1);
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
    if (req.method === 'GET' && url.pathname === '/connect/login') return this.auth.login(url, res);
    if (req.method === 'POST' && url.pathname === '/session/token') return this.auth.sessionToken(form, res);
    if (req.method === 'GET' && url.pathname === '/instruments/NFO') {
      res.writeHead(200, { 'content-type': 'text/csv' });
      res.end(instrumentsCsv(this.instruments, this.expiry, this.lotSize));
      return;
    }
    if (req.headers['x-kite-version'] !== '3') {
      return sendError(res, {
        status: 400,
        errorType: 'InputException',
        message: 'Invalid `X-Kite-Version` header.',
      });
    }
    const app = this.auth.appOfHeader(req.headers.authorization);
    if (!app) return sendError(res, TOKEN_ERROR);
    const isOrderWrite = url.pathname.startsWith('/orders/regular');
    const read = url.pathname === '/portfolio/positions' ? 'positions' : 'read';
    if (!isOrderWrite && this.faults.take(read) === 'token_expired') return sendError(res, TOKEN_ERROR);
    const userId = app.userId;
    if (isOrderWrite) return handleOrderRequest(this, userId, req.method ?? '', url.pathname, form, res);
    if (req.method === 'GET' && url.pathname === '/orders') {
      return sendJson(res, 200, { status: 'success', data: this.book.ordersOf(userId) });
    }
    const history = /^\/orders\/([^/]+)$/.exec(url.pathname);
    if (req.method === 'GET' && history) {
      const found = this.book.get(history[1] ?? '');
      if (!found || found.userId !== userId) {
        return sendError(res, {
          status: 400,
          errorType: 'InputException',
          message: "Couldn't find that `order_id`.",
        });
      }
      return sendJson(res, 200, { status: 'success', data: found.history });
    }
    if (req.method === 'GET' && url.pathname === '/portfolio/positions') return this.positions(userId, res);
    if (req.method === 'GET' && url.pathname === '/user/profile') {
      return sendJson(res, 200, {
        status: 'success',
        data: { user_id: userId, user_name: app.userName, user_type: 'individual', broker: 'ZERODHA' },
      });
    }
    sendError(res, { status: 404, errorType: 'GeneralException', message: 'Route not found' });
  }

  private positions(userId: string, res: ServerResponse): void {
    const net = [...this.book.positionsOf(userId)].map(([tradingsymbol, p]) => ({
      tradingsymbol,
      exchange: 'NFO',
      instrument_token: p.token,
      product: 'MIS',
      quantity: p.quantity,
      overnight_quantity: 0,
      multiplier: 1,
      average_price:
        p.quantity >= 0 ? p.buyValue / Math.max(p.buyQty, 1) : p.sellValue / Math.max(p.sellQty, 1),
      pnl: 0,
      realised: p.quantity === 0 ? p.sellValue - p.buyValue : 0,
      unrealised: 0,
      buy_quantity: p.buyQty,
      buy_value: p.buyValue,
      sell_quantity: p.sellQty,
      sell_value: p.sellValue,
    }));
    sendJson(res, 200, { status: 'success', data: { net, day: net } });
  }

  async close(): Promise<void> {
    this.faults.close();
    this.ticker.close();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** Starts a Kite fake on a random loopback port. */
export function startKiteFake(options: KiteFakeOptions = {}): Promise<KiteFake> {
  return new KiteFake(options).start();
}
