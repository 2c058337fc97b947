// A fake of Angel One's SmartAPI on 127.0.0.1 (random port) speaking its documented wire format: the form login
// (`loginByPassword`: client code, MPIN and a TOTP checked against the account's secret), the publisher-login page
// that redirects back with the tokens, profile, RMS limits, orders (place / modify / cancel with Angel's checks:
// no MARKET or IOC from APIs, whole lots, the freeze quantity, ordertag under 20 characters, symboltoken from the
// scrip master), order book, order details, trade book, positions, the scrip master JSON, the order-status socket
// and SmartStream 2.0. Faults can be injected per request (see README.md). This file routes and answers the reads;
// the logins and sessions are auth.ts, the order writes orderRoutes.ts, the envelopes replies.ts, the sockets
// sockets.ts.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrokerFault } from '../../brokers/conformance';
import { AngelFakeAuth, type AngelFakeAccount, type AngelTokens } from './auth';
import { niftyOptions, scripMasterJson, type FakeInstrument } from './instruments';
import { AngelFakeOrderBook, orderRowJson, type AngelFakeOrder } from './orderBook';
import { handleOrderWrite, type OrderRoute } from './orderRoutes';
import { envelope, failure, INVALID_TOKEN, send, type Reply } from './replies';
import { AngelFakeSockets } from './sockets';
import { FakeFaults, OrderRequestLog, type FaultedRequest } from '../faults';

export type { AngelFakeAccount } from './auth';
export { FAKE_FREEZE_QTY } from './orderRoutes';

export interface AngelFakeOptions {
  readonly accounts?: readonly AngelFakeAccount[];
  /** `YYYY-MM-DD` of the listed NIFTY weekly expiry */
  readonly expiry?: string;
  readonly baseStrike?: number;
  readonly lotSize?: number;
  /** how long a `timeout_placed` answer is held back */
  readonly timeoutDelayMs?: number;
  /** fill every new LIMIT order in full at its price right after answering; stop-limits rest until `fill` */
  readonly autoFillPrice?: number;
  /** fixed port (demo, end-to-end); default a random free one */
  readonly port?: number;
}

/** A request as the fake saw it (tests check the headers Angel requires). */
export interface SeenRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
}

/** The headers SmartAPI requires on every call. */
const REQUIRED_HEADERS = [
  'x-usertype',
  'x-sourceid',
  'x-clientlocalip',
  'x-clientpublicip',
  'x-macaddress',
  'x-privatekey',
];

const SECURE = '/rest/secure/angelbroking';
const ORDER_ROUTES: Readonly<Record<string, OrderRoute>> = {
  [`${SECURE}/order/v1/placeOrder`]: 'place',
  [`${SECURE}/order/v1/modifyOrder`]: 'modify',
  [`${SECURE}/order/v1/cancelOrder`]: 'cancel',
};

export class AngelFake {
  readonly book = new AngelFakeOrderBook(() => Date.now());
  readonly instruments: readonly FakeInstrument[];
  readonly sockets: AngelFakeSockets;
  readonly lotSize: number;
  readonly expiry: string;
  readonly autoFillPrice: number | undefined;
  /** every place / modify / cancel request received (refused ones included), by client code */
  readonly orderRequests = new OrderRequestLog();
  /** epoch ms of the last fill (its order-status message follows at once) */
  lastFillAt = 0;
  /** every request, in order */
  readonly requests: SeenRequest[] = [];
  readonly auth = new AngelFakeAuth();
  /** the injected faults, taken by the order writes (orderRoutes.ts) and the reads */
  readonly faults: FakeFaults;
  private readonly server = createServer((req, res) => void this.handle(req, res));
  private readonly port: number;
  private master = '';
  url = '';

  /** logins attempted (form and publisher) */
  get logins(): number {
    return this.auth.logins;
  }

  constructor(options: AngelFakeOptions = {}) {
    this.lotSize = options.lotSize ?? 65;
    this.expiry = options.expiry ?? '2026-12-01';
    this.instruments = niftyOptions(this.expiry, options.baseStrike ?? 24_000, 6, this.lotSize);
    this.master = scripMasterJson(this.instruments, this.expiry);
    this.autoFillPrice = options.autoFillPrice;
    this.port = options.port ?? 0;
    for (const account of options.accounts ?? []) this.auth.addAccount(account);
    this.sockets = new AngelFakeSockets(({ jwt, apiKey, clientCode, feedToken }) => {
      const session = this.auth.session(jwt, apiKey);
      return session?.clientCode === clientCode && session.feedToken === feedToken;
    });
    this.faults = new FakeFaults(() => this.sockets.dropAll(), options.timeoutDelayMs ?? 1_500);
    this.server.on('upgrade', (req, socket, head) => this.sockets.upgrade(req, socket, head));
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(this.port, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  get wsUrl(): string {
    return this.url.replace('http:', 'ws:');
  }

  /** Every ANGELONE_* endpoint at this fake. */
  get endpoints(): { apiRoot: string; loginUrl: string; wsRoot: string; masterRoot: string } {
    return {
      apiRoot: this.url,
      loginUrl: `${this.url}/publisher-login`,
      wsRoot: this.wsUrl,
      masterRoot: this.url,
    };
  }

  addAccount(account: AngelFakeAccount): void {
    this.auth.addAccount(account);
  }

  /** A session as a login would issue it, without one (tests that start logged in). */
  issueSession(clientCode: string): AngelTokens {
    return this.auth.issueSession(clientCode);
  }

  /** Angel's midnight logout: every session issued so far is refused from now on. */
  expireSessions(): void {
    this.auth.expireSessions();
    // Live sockets of ended sessions are closed; their reconnects are refused.
    this.sockets.dropAll();
  }

  inject(fault: BrokerFault, times = 1, on?: FaultedRequest): void {
    this.faults.inject(fault, times, on);
  }

  instrument(symbolToken: string): FakeInstrument | undefined {
    return this.instruments.find((i) => i.token === symbolToken);
  }

  /** Fills `quantity` more of an order (default: the rest) at `price` and pushes the order-status message. */
  async fill(orderid: string, price: number, quantity?: number): Promise<void> {
    const found = this.book.get(orderid);
    if (!found) throw new Error(`no order ${orderid}`);
    const pending = found.order.quantity - found.order.filledshares;
    const order = this.book.fill(orderid, price, Math.min(quantity ?? pending, pending));
    this.lastFillAt = Date.now();
    this.sockets.pushOrder(found.clientCode, order);
    return Promise.resolve();
  }

  /** An order the trader placed by hand in Angel's app (not through the API), filled at `price`. */
  placeByHand(
    clientCode: string,
    input: { symbolToken: string; side: 'BUY' | 'SELL'; quantity: number; price: number },
  ): AngelFakeOrder {
    const instrument = this.instrument(input.symbolToken);
    if (!instrument) throw new Error(`no instrument ${input.symbolToken}`);
    const order = this.book.add(clientCode, {
      variety: 'NORMAL',
      ordertype: 'LIMIT',
      producttype: 'INTRADAY',
      duration: 'DAY',
      transactiontype: input.side,
      exchange: 'NFO',
      tradingsymbol: instrument.tradingSymbol,
      symboltoken: instrument.token,
      quantity: input.quantity,
      price: input.price,
      triggerprice: 0,
      ordertag: '',
    });
    return this.book.fill(order.orderid, input.price, input.quantity);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const path = url.pathname;
    const method = req.method ?? 'GET';
    this.requests.push({ method, path, headers: req.headers });
    if (method === 'GET' && path === '/') return send(res, { status: 200, text: 'SmartAPI fake' });
    if (method === 'GET' && path === '/publisher-login') return this.auth.publisherLogin(url, res);
    if (method === 'GET' && path === '/OpenAPI_File/files/OpenAPIScripMaster.json') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(this.master);
      return;
    }
    let body: Record<string, unknown> = {};
    if (chunks.length > 0) {
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      } catch {
        return send(res, failure(400, 'AB1007', 'Invalid request body'));
      }
    }
    const missing = REQUIRED_HEADERS.find((h) => !req.headers[h]);
    if (
      missing !== undefined ||
      req.headers['x-usertype'] !== 'USER' ||
      req.headers['x-sourceid'] !== 'WEB'
    ) {
      return send(res, failure(400, 'AB1007', `Invalid header ${missing ?? 'x-usertype / x-sourceid'}`));
    }
    const apiKey = String(req.headers['x-privatekey']);
    if (method === 'POST' && path === '/rest/auth/angelbroking/user/v1/loginByPassword') {
      return send(res, this.auth.login(apiKey, body));
    }
    if (!path.startsWith(`${SECURE}/`)) return send(res, failure(404, 'AB1004', 'Route not found'));
    const jwt = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
    const session = this.auth.session(jwt, apiKey);
    if (session === undefined) return send(res, INVALID_TOKEN);
    const route = method === 'POST' ? ORDER_ROUTES[path] : undefined;
    if (route !== undefined) return handleOrderWrite(this, route, session.clientCode, body, res);
    const read = path === `${SECURE}/order/v1/getPosition` ? 'positions' : 'read';
    if (this.faults.take(read) === 'token_expired') return send(res, INVALID_TOKEN);
    return send(res, this.read(method, path, session.clientCode));
  }

  private read(method: string, path: string, clientCode: string): Reply {
    const account = this.auth.account(clientCode);
    if (method === 'GET' && path === `${SECURE}/user/v1/getProfile`) {
      return {
        status: 200,
        json: envelope({
          clientcode: clientCode,
          name: account?.name ?? '',
          email: '',
          mobileno: '',
          exchanges: ['nse_fo', 'nse_cm'],
          products: ['MARGIN', 'INTRADAY'],
          lastlogintime: '',
          brokerid: 'B2C',
        }),
      };
    }
    if (method === 'GET' && path === `${SECURE}/user/v1/getRMS`) {
      return {
        status: 200,
        json: envelope({
          net: '250000.00',
          availablecash: '250000.00',
          availableintradaypayin: '0',
          utiliseddebits: '0.00',
        }),
      };
    }
    if (method === 'GET' && path === `${SECURE}/order/v1/getOrderBook`) {
      const rows = this.book.ordersOf(clientCode).map(orderRowJson);
      return { status: 200, json: envelope(rows.length === 0 ? null : rows) };
    }
    const unique = new RegExp(`^${SECURE}/order/v1/details/([^/]+)$`).exec(path)?.[1];
    if (method === 'GET' && unique !== undefined) {
      const found = this.book.byUnique(decodeURIComponent(unique));
      if (!found || found.clientCode !== clientCode) return failure(200, 'AB1013', 'Order not found');
      return { status: 200, json: envelope(orderRowJson(found.order)) };
    }
    if (method === 'GET' && path === `${SECURE}/order/v1/getTradeBook`) {
      const rows = this.book.tradesOf(clientCode);
      return { status: 200, json: envelope(rows.length === 0 ? null : rows) };
    }
    if (method === 'GET' && path === `${SECURE}/order/v1/getPosition`) {
      const rows = [...this.book.positionsOf(clientCode)].map(([tradingsymbol, p]) => {
        const netqty = p.buyQty - p.sellQty;
        return {
          exchange: 'NFO',
          symboltoken: p.token,
          producttype: 'INTRADAY',
          tradingsymbol,
          instrumenttype: 'OPTIDX',
          buyqty: String(p.buyQty),
          sellqty: String(p.sellQty),
          buyamount: p.buyValue.toFixed(2),
          sellamount: p.sellValue.toFixed(2),
          buyavgprice: (p.buyQty > 0 ? p.buyValue / p.buyQty : 0).toFixed(2),
          sellavgprice: (p.sellQty > 0 ? p.sellValue / p.sellQty : 0).toFixed(2),
          netqty: String(netqty),
          realised: (netqty === 0 ? p.sellValue - p.buyValue : 0).toFixed(2),
          unrealised: '0.00',
          ltp: '0.00',
        };
      });
      return { status: 200, json: envelope(rows.length === 0 ? null : rows) };
    }
    return failure(404, 'AB1004', 'Route not found');
  }

  async close(): Promise<void> {
    this.faults.close();
    this.sockets.close();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** Starts an Angel One fake on a loopback port. */
export function startAngelFake(options: AngelFakeOptions = {}): Promise<AngelFake> {
  return new AngelFake(options).start();
}
