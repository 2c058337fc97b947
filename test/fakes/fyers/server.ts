// A fake of Fyers API v3 on 127.0.0.1 (random port) speaking Fyers' wire format: the login redirect,
// validate-authcode with its appIdHash, profile and funds, synchronous orders (`/api/v3/orders/sync`), the order
// book, trade book and positions, `/data/symbol-token`, the NSE_FO symbol master, the order socket and the binary
// data socket. One host stands in for all of Fyers' (API, socket and master roots). Faults can be injected.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrokerFault } from '../../brokers/conformance';
import { FakeFyersAuth, type FyersFakeApp } from './auth';
import { fakeNiftyOptions, fyersMasterCsv, NIFTY_INDEX_FYTOKEN, type FakeFyersInstrument } from './master';
import { FakeFyersOrderBook, type FyersOrder } from './orderBook';
import { sendError, sendJson, sendTokenExpired, sendUnauthenticated } from './replies';
import { FakeHsmSocket, FakeOrderSocket } from './sockets';
import { FakeFaults, OrderRequestLog } from '../faults';

export type { FyersFakeApp } from './auth';

export interface FyersFakeOptions {
  readonly apps?: readonly FyersFakeApp[];
  /** `YYYY-MM-DD` of the listed NIFTY weekly expiry */
  readonly expiry?: string;
  readonly baseStrike?: number;
  readonly lotSize?: number;
  /** how long a `timeout_placed` answer is held back */
  readonly timeoutDelayMs?: number;
  /** fill every new LIMIT order in full right after answering, at its price; stops (SL-L, SL-M) rest until `fill` */
  readonly autoFillPrice?: number;
  /** the data socket asks for an acknowledgement every this many messages (0: none); default 5 */
  readonly ackEvery?: number;
  /** fixed port (a standalone fake for e2e); default a random free one */
  readonly port?: number;
}

/** NIFTY options' exchange freeze quantity (DOMAIN.md §1). */
export const FAKE_FREEZE_QTY = 1_800;

const FAULT_REPLIES: Readonly<Record<string, { status: number; code: number; message: string }>> = {
  reject: { status: 400, code: -99, message: 'RMS:Margin Exceeds, Required:9750.00, Available:0.00' },
  rate_limit: { status: 429, code: -429, message: 'request limit reached' },
  server_error: { status: 500, code: 500, message: 'Internal Server Error' },
  // Our reading of the static-IP refusal (see server/src/brokers/fyers/README.md): 403 on order writes.
  ip_not_allowed: { status: 403, code: -373, message: 'Orders are not allowed from this IP address' },
};

export class FyersFake {
  readonly auth = new FakeFyersAuth();
  readonly book = new FakeFyersOrderBook(() => Date.now());
  readonly instruments: readonly FakeFyersInstrument[];
  readonly hsm: FakeHsmSocket;
  readonly orderSocket: FakeOrderSocket;
  readonly lotSize: number;
  readonly expiry: string;
  /** every place / modify / cancel request received (refused ones included), by Fyers id */
  readonly orderRequests = new OrderRequestLog();
  /** the body of every modify request, in order */
  readonly modifyBodies: Record<string, unknown>[] = [];
  /** epoch ms the last fill was made (its socket message follows) */
  lastFillAt = 0;
  readonly autoFillPrice: number | undefined;
  private readonly requestCounts = new Map<string, number>();
  private readonly faults: FakeFaults;
  private readonly server = createServer((req, res) => void this.handle(req, res));
  private readonly port: number;
  url = '';

  constructor(options: FyersFakeOptions = {}) {
    this.lotSize = options.lotSize ?? 65;
    this.expiry = options.expiry ?? '2026-12-01';
    this.instruments = fakeNiftyOptions(this.expiry, options.baseStrike ?? 24_000, 6, this.lotSize);
    this.autoFillPrice = options.autoFillPrice;
    this.port = options.port ?? 0;
    for (const app of options.apps ?? []) this.addApp(app);
    this.hsm = new FakeHsmSocket(
      (key) => this.auth.appOfHsmKey(key),
      (fyToken) => {
        const instrument = this.instruments.find((i) => i.fyToken === fyToken);
        return instrument === undefined ? undefined : `sf|nse_fo|${instrument.scripCode}`;
      },
      options.ackEvery ?? 5,
    );
    this.orderSocket = new FakeOrderSocket((header) => {
      const app = this.auth.check(header);
      return app === 'expired' ? undefined : app;
    });
    this.faults = new FakeFaults(() => {
      this.hsm.drop();
      this.orderSocket.drop();
    }, options.timeoutDelayMs ?? 1_500);
    this.server.on('upgrade', (req, socket, head) => {
      const path = new URL(req.url ?? '/', 'http://fake').pathname;
      if (path === '/hsm/v1-5/prod') this.hsm.upgrade(req, socket, head);
      else if (path === '/trade/v3') this.orderSocket.upgrade(req, socket, head);
      else socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n');
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(this.port, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  get wsUrl(): string {
    return this.url.replace('http:', 'ws:');
  }

  /** The FYERS_* endpoints of this fake: one host for the API, the sockets and the master. */
  get endpoints(): { apiRoot: string; loginUrl: string; wsRoot: string; masterRoot: string } {
    return {
      apiRoot: this.url,
      loginUrl: `${this.url}/api/v3/generate-authcode`,
      wsRoot: this.wsUrl,
      masterRoot: this.url,
    };
  }

  addApp(app: FyersFakeApp): void {
    this.auth.addApp(app);
  }

  issueSession(appId: string): string {
    return this.auth.issueSession(appId);
  }

  /** Ends every session (06:00 IST); the order sockets of ended sessions close. */
  expireSessions(): void {
    this.auth.expireSessions();
    this.orderSocket.drop();
  }

  /**
   * The next `times` requests the fault concerns fail with it: `token_expired` ends every session for good (as at
   * 06:00 IST, so background calls cannot use it up), `ip_not_allowed` place / modify / cancel, `drop_socket` the
   * sockets, every other fault a placement.
   */
  inject(fault: BrokerFault, times = 1): void {
    if (fault === 'token_expired') return this.expireSessions();
    this.faults.inject(fault, times);
  }

  /** How many requests reached a path (e.g. `/api/v3/orders` polls). */
  requestCount(path: string): number {
    return this.requestCounts.get(path) ?? 0;
  }

  instrument(ticker: string): FakeFyersInstrument | undefined {
    return this.instruments.find((i) => i.ticker === ticker);
  }

  /** Fills `quantity` more of an order (default: the rest) at `price` and pushes it on the order socket. */
  async fill(orderId: string, price: number, quantity?: number): Promise<void> {
    const found = this.book.get(orderId);
    if (!found) throw new Error(`no order ${orderId}`);
    const qty = Math.min(quantity ?? found.order.remainingQuantity, found.order.remainingQuantity);
    this.lastFillAt = Date.now();
    const order = this.book.fill(orderId, price, qty);
    this.orderSocket.push(found.fyId, FakeFyersOrderBook.socketMessage(order));
    await Promise.resolve();
  }

  private changed(fyId: string, order: FyersOrder): void {
    this.orderSocket.push(fyId, FakeFyersOrderBook.socketMessage(order));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    this.requestCounts.set(url.pathname, (this.requestCounts.get(url.pathname) ?? 0) + 1);
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    let body: Record<string, unknown> = {};
    try {
      const text = Buffer.concat(chunks).toString('utf8');
      if (text !== '') body = JSON.parse(text) as Record<string, unknown>;
    } catch {
      return sendError(res, 400, -50, 'Invalid input');
    }
    const path = url.pathname;
    if (req.method === 'GET' && path === '/api/v3/generate-authcode') return this.auth.login(url, res);
    if (req.method === 'POST' && path === '/api/v3/validate-authcode')
      return this.auth.validateAuthCode(body, res);
    if (req.method === 'GET' && path === '/sym_details/NSE_FO.csv') {
      res.writeHead(200, { 'content-type': 'text/csv' });
      res.end(fyersMasterCsv(this.instruments, this.expiry, this.lotSize));
      return;
    }
    const app = this.auth.check(req.headers.authorization);
    if (app === 'expired') return sendTokenExpired(res);
    if (app === undefined) return sendUnauthenticated(res);
    const fyId = app.fyId;
    if (path === '/api/v3/orders/sync') return this.orderWrite(fyId, req.method ?? '', body, res);
    if (req.method === 'GET' && path === '/api/v3/orders') {
      const id = url.searchParams.get('id');
      const orders = this.book.ordersOf(fyId);
      if (id === null) return sendJson(res, 200, { s: 'ok', code: 200, message: '', orderBook: orders });
      const one = orders.filter((o) => o.id === id);
      if (one.length === 0) return sendError(res, 400, -209, 'Please provide a valid order number');
      return sendJson(res, 200, { s: 'ok', code: 200, message: '', orderBook: one });
    }
    if (req.method === 'GET' && path === '/api/v3/tradebook') {
      return sendJson(res, 200, { s: 'ok', code: 200, message: '', tradeBook: this.book.fillsOf(fyId) });
    }
    if (req.method === 'GET' && path === '/api/v3/positions') {
      const netPositions = this.book.positionsOf(fyId);
      return sendJson(res, 200, {
        s: 'ok',
        code: 200,
        message: '',
        netPositions,
        overall: { count_total: netPositions.length },
      });
    }
    if (req.method === 'GET' && path === '/api/v3/profile') {
      return sendJson(res, 200, {
        s: 'ok',
        code: 200,
        message: '',
        data: {
          fy_id: fyId,
          name: app.name,
          display_name: app.name.split(' ')[0],
          email_id: 'XXXXXX',
          PAN: null,
          totp: true,
        },
      });
    }
    if (req.method === 'GET' && path === '/api/v3/funds') {
      return sendJson(res, 200, {
        s: 'ok',
        code: 200,
        message: '',
        fund_limit: [{ id: 10, title: 'Available Balance', equityAmount: 250_000, commodityAmount: 0 }],
      });
    }
    if (req.method === 'POST' && path === '/data/symbol-token') {
      const symbols = Array.isArray(body.symbols) ? body.symbols.map(String) : [];
      const validSymbol: Record<string, string> = {};
      const invalidSymbol: string[] = [];
      for (const s of symbols) {
        const token = s === 'NSE:NIFTY50-INDEX' ? NIFTY_INDEX_FYTOKEN : this.instrument(s)?.fyToken;
        if (token === undefined) invalidSymbol.push(s);
        else validSymbol[s] = token;
      }
      return sendJson(res, 200, { s: 'ok', code: 200, message: '', validSymbol, invalidSymbol });
    }
    sendError(res, 404, -50, 'Route not found');
  }

  private orderWrite(fyId: string, method: string, body: Record<string, unknown>, res: ServerResponse): void {
    const route =
      method === 'POST'
        ? 'place'
        : method === 'PATCH'
          ? 'modify'
          : method === 'DELETE'
            ? 'cancel'
            : undefined;
    if (route === undefined) return sendError(res, 404, -50, 'Route not found');
    this.orderRequests.record(route, fyId);
    const fault = this.faults.take(route);
    const refusal = fault === undefined ? undefined : FAULT_REPLIES[fault];
    if (refusal) return sendError(res, refusal.status, refusal.code, refusal.message);
    if (route === 'place') return this.place(fyId, body, res, fault);
    const found = this.book.get(String(body.id ?? ''));
    if (!found || found.fyId !== fyId)
      return sendError(res, 400, -209, 'Please provide a valid order number');
    const { order } = found;
    if (order.status !== 6) {
      const code = order.status === 1 ? -161 : order.status === 2 ? -162 : -164;
      return sendError(res, 400, code, 'This order is no longer open');
    }
    if (route === 'cancel') {
      const next = this.book.update(order.id, { status: 1, remainingQuantity: 0 });
      sendJson(res, 200, { s: 'ok', code: 1103, message: 'Successfully cancelled order', id: next.id });
      this.changed(fyId, next);
      return;
    }
    this.modifyBodies.push(body);
    if (body.type !== undefined && ![1, 2, 3, 4].includes(Number(body.type))) {
      return sendError(res, 400, -101, 'Please provide a valid order type');
    }
    const qty = typeof body.qty === 'number' ? body.qty : order.qty;
    const next = this.book.update(order.id, {
      qty,
      remainingQuantity: qty - order.filledQty,
      limitPrice: typeof body.limitPrice === 'number' ? body.limitPrice : order.limitPrice,
      stopPrice: typeof body.stopPrice === 'number' ? body.stopPrice : order.stopPrice,
    });
    sendJson(res, 200, { s: 'ok', code: 1102, message: 'Successfully modified order', id: next.id });
    this.changed(fyId, next);
  }

  private place(
    fyId: string,
    body: Record<string, unknown>,
    res: ServerResponse,
    fault: BrokerFault | undefined,
  ): void {
    const instrument = this.instrument(String(body.symbol ?? ''));
    const qty = Number(body.qty);
    const type = Number(body.type);
    const side = Number(body.side);
    const limitPrice = Number(body.limitPrice ?? 0);
    const stopPrice = Number(body.stopPrice ?? 0);
    const productType = String(body.productType ?? '');
    const tag = body.orderTag === undefined ? '' : String(body.orderTag);
    const onTick = (price: number) => Math.abs(Math.round(price * 20) - price * 20) < 1e-6;
    if (!instrument) return sendError(res, 400, -300, 'Please provide a valid symbol');
    if (![1, 2, 3, 4].includes(type)) return sendError(res, 400, -101, 'Please provide a valid order type');
    if (side !== 1 && side !== -1)
      return sendError(res, 400, -313, 'Please provide a valid order side of either buy or sell');
    if (!['INTRADAY', 'MARGIN', 'CNC'].includes(productType))
      return sendError(res, 400, -314, 'Please provide a valid product type for the order');
    if (!Number.isInteger(qty) || qty <= 0 || qty % instrument.lotSize !== 0 || qty > FAKE_FREEZE_QTY)
      return sendError(res, 400, -310, 'Please provide a valid order quantity');
    if ((type === 1 || type === 4) && !(limitPrice > 0))
      return sendError(res, 400, -308, 'Please provide a valid limitPrice');
    if ((type === 3 || type === 4) && !(stopPrice > 0))
      return sendError(res, 400, -309, 'Please provide a valid stop price');
    if (!onTick(limitPrice) || !onTick(stopPrice))
      return sendError(res, 400, -392, 'Price should be in multiples of tick size.');
    if (tag !== '' && !/^[A-Za-z0-9]{1,30}$/.test(tag)) return sendError(res, 400, -50, 'Invalid orderTag');
    const order = this.book.add(fyId, {
      symbol: instrument.ticker,
      fyToken: instrument.fyToken,
      qty,
      limitPrice,
      stopPrice,
      type,
      side,
      productType,
      orderTag: tag,
    });
    const answer = (): void =>
      sendJson(res, 200, {
        s: 'ok',
        code: 1101,
        message: `Order Submitted Successfully. Your Order Ref. No.${order.id}`,
        id: order.id,
      });
    if (fault === 'timeout_placed') return this.faults.hold(answer);
    answer();
    this.changed(fyId, order);
    // A stop rests (pending) until the test fills it, as at the exchange until its trigger is crossed.
    const resting = type === 3 || type === 4;
    if (this.autoFillPrice !== undefined && fault === undefined && !resting) {
      void this.fill(order.id, limitPrice > 0 ? limitPrice : this.autoFillPrice);
    }
    if (fault === 'partial_fill') {
      // Half the lots (at least one) fill at once; the rest stays open.
      const lots = qty / instrument.lotSize;
      void this.fill(
        order.id,
        limitPrice > 0 ? limitPrice : 100,
        Math.max(1, Math.floor(lots / 2)) * instrument.lotSize,
      );
    }
  }

  async close(): Promise<void> {
    this.faults.close();
    this.hsm.close();
    this.orderSocket.close();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** Starts a Fyers fake on a random loopback port. */
export function startFyersFake(options: FyersFakeOptions = {}): Promise<FyersFake> {
  return new FyersFake(options).start();
}
