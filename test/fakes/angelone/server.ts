// A fake of Angel One's SmartAPI on 127.0.0.1 (random port) speaking its documented wire format: the form login
// (`loginByPassword`: client code, MPIN and a TOTP checked against the account's secret), the publisher-login page
// that redirects back with the tokens, profile, RMS limits, orders (place / modify / cancel with Angel's checks:
// no MARKET or IOC from APIs, whole lots, the freeze quantity, ordertag under 20 characters, symboltoken from the
// scrip master), order book, order details, trade book, positions, the scrip master JSON, the order-status socket
// and SmartStream 2.0. Faults can be injected per request (see README.md).
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrokerFault } from '../../brokers/conformance';
import { niftyOptions, scripMasterJson, type FakeInstrument } from './instruments';
import { AngelFakeOrderBook, orderRowJson, type AngelFakeOrder } from './orderBook';
import { AngelFakeSockets } from './sockets';
import { totp } from './totp';

/** A trader at the fake: their SmartAPI app (API key), account and daily-login secrets. */
export interface AngelFakeAccount {
  readonly apiKey: string;
  readonly clientCode: string;
  readonly mpin: string;
  /** base32 TOTP secret (the QR value of Angel's "Enable TOTP" page) */
  readonly totpSecret: string;
  readonly name: string;
  /** the app's redirect URL, for the publisher login */
  readonly redirectUrl?: string;
}

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

/** NIFTY options' exchange freeze quantity (DOMAIN.md §1). */
export const FAKE_FREEZE_QTY = 1_800;

interface Session {
  readonly clientCode: string;
  readonly apiKey: string;
  readonly feedToken: string;
}

/** A request as the fake saw it (tests check the headers Angel requires). */
export interface SeenRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
}

type Reply = { status: number; json: unknown } | { status: number; text: string };

const envelope = (data: unknown) => ({ status: true, message: 'SUCCESS', errorcode: '', data });
const failure = (status: number, errorcode: string, message: string): Reply => ({
  status,
  json: { status: false, message, errorcode, data: null },
});
/** The API gateway's own refusals use another envelope. */
const gateway = (status: number, errorCode: string, message: string): Reply => ({
  status,
  json: { success: false, message, errorCode, data: '' },
});
const INVALID_TOKEN = gateway(401, 'AG8001', 'Invalid Token');

const FAULT_REPLIES: Readonly<Partial<Record<BrokerFault, Reply>>> = {
  reject: failure(200, 'AB2020', 'Insufficient Funds'),
  rate_limit: { status: 403, text: 'Access denied because of exceeding access rate' },
  server_error: failure(500, 'AB2001', 'Internal Error, Please try after sometime'),
  token_expired: INVALID_TOKEN,
  ip_not_allowed: gateway(
    403,
    'AG7002',
    'Access denied: Unregistered IP address. Register your IP before retrying.',
  ),
};

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
const ORDER_ROUTES: Readonly<Record<string, 'place' | 'modify' | 'cancel'>> = {
  [`${SECURE}/order/v1/placeOrder`]: 'place',
  [`${SECURE}/order/v1/modifyOrder`]: 'modify',
  [`${SECURE}/order/v1/cancelOrder`]: 'cancel',
};

const token = (): string =>
  `eyJhbGciOiJIUzUxMiJ9.${randomBytes(24).toString('base64url')}.${randomBytes(16).toString('base64url')}`;

export class AngelFake {
  readonly book = new AngelFakeOrderBook(() => Date.now());
  readonly instruments: readonly FakeInstrument[];
  readonly sockets: AngelFakeSockets;
  readonly lotSize: number;
  readonly expiry: string;
  readonly autoFillPrice: number | undefined;
  /** epoch ms of every place / modify / cancel request received, refused ones included */
  readonly orderRequestTimes: number[] = [];
  /** the same, by client code */
  readonly orderRequestsByClient = new Map<string, number[]>();
  placeRequests = 0;
  /** logins attempted (form and publisher) */
  logins = 0;
  /** epoch ms of the last fill (its order-status message follows at once) */
  lastFillAt = 0;
  /** every request, in order */
  readonly requests: SeenRequest[] = [];
  private readonly accounts = new Map<string, AngelFakeAccount>();
  private readonly sessions = new Map<string, Session>();
  private readonly faults: BrokerFault[] = [];
  private readonly held = new Set<NodeJS.Timeout>();
  private readonly server = createServer((req, res) => void this.handle(req, res));
  private readonly timeoutDelayMs: number;
  private readonly port: number;
  private master = '';
  url = '';

  constructor(options: AngelFakeOptions = {}) {
    this.lotSize = options.lotSize ?? 65;
    this.expiry = options.expiry ?? '2026-12-01';
    this.instruments = niftyOptions(this.expiry, options.baseStrike ?? 24_000, 6, this.lotSize);
    this.master = scripMasterJson(this.instruments, this.expiry);
    this.timeoutDelayMs = options.timeoutDelayMs ?? 1_500;
    this.autoFillPrice = options.autoFillPrice;
    this.port = options.port ?? 0;
    for (const account of options.accounts ?? []) this.addAccount(account);
    this.sockets = new AngelFakeSockets(({ jwt, apiKey, clientCode, feedToken }) => {
      const session = this.sessions.get(jwt);
      return (
        session !== undefined &&
        session.apiKey === apiKey &&
        session.clientCode === clientCode &&
        session.feedToken === feedToken
      );
    });
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
    this.accounts.set(account.clientCode, account);
  }

  /** A session as a login would issue it, without one (tests that start logged in). */
  issueSession(clientCode: string): { jwt: string; feedToken: string; refreshToken: string } {
    const account = this.accounts.get(clientCode);
    if (!account) throw new Error(`no account ${clientCode}`);
    const jwt = token();
    const feedToken = token();
    this.sessions.set(jwt, { clientCode, apiKey: account.apiKey, feedToken });
    return { jwt, feedToken, refreshToken: token() };
  }

  /** Angel's midnight logout: every session issued so far is refused from now on. */
  expireSessions(): void {
    this.sessions.clear();
    // Live sockets of ended sessions are closed; their reconnects are refused.
    this.sockets.dropAll();
  }

  inject(fault: BrokerFault, times = 1): void {
    if (fault === 'drop_socket') {
      for (let i = 0; i < times; i += 1) this.sockets.dropAll();
      return;
    }
    for (let i = 0; i < times; i += 1) this.faults.push(fault);
  }

  /** Takes the first pending fault that concerns this request. */
  private takeFault(kind: 'read' | 'place' | 'modify' | 'cancel'): BrokerFault | undefined {
    const index = this.faults.findIndex(
      (f) =>
        f === 'token_expired' ||
        (f === 'ip_not_allowed' && kind !== 'read') ||
        (kind === 'place' && f !== 'ip_not_allowed'),
    );
    return index < 0 ? undefined : this.faults.splice(index, 1)[0];
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

  /** Holds a response back (the `timeout_placed` fault); released on close. */
  private hold(fn: () => void): void {
    const timer = setTimeout(() => {
      this.held.delete(timer);
      fn();
    }, this.timeoutDelayMs);
    this.held.add(timer);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const path = url.pathname;
    const method = req.method ?? 'GET';
    this.requests.push({ method, path, headers: req.headers });
    if (method === 'GET' && path === '/') return send(res, { status: 200, text: 'SmartAPI fake' });
    if (method === 'GET' && path === '/publisher-login') return this.publisherLogin(url, res);
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
      return send(res, this.login(apiKey, body));
    }
    if (!path.startsWith(`${SECURE}/`)) return send(res, failure(404, 'AB1004', 'Route not found'));
    const jwt = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
    const session = this.sessions.get(jwt);
    if (session === undefined || session.apiKey !== apiKey) return send(res, INVALID_TOKEN);
    const route = method === 'POST' ? ORDER_ROUTES[path] : undefined;
    if (route !== undefined) return this.orderWrite(route, session.clientCode, body, res);
    if (this.takeFault('read') === 'token_expired') return send(res, INVALID_TOKEN);
    return send(res, this.read(method, path, session.clientCode));
  }

  private login(apiKey: string, body: Record<string, unknown>): Reply {
    this.logins += 1;
    const account = this.accounts.get(String(body.clientcode ?? ''));
    if (account === undefined || account.apiKey !== apiKey) {
      return failure(200, 'AB1007', 'LoginId or password is invalid');
    }
    if (String(body.password ?? '') !== account.mpin) return failure(200, 'AB1007', 'Invalid MPIN');
    const now = Date.now();
    // The code of this 30-second step or the one before (a code typed at the end of its step).
    const totps = [totp(account.totpSecret, now), totp(account.totpSecret, now - 30_000)];
    if (!totps.includes(String(body.totp ?? ''))) return failure(200, 'AB1050', 'Invalid totp');
    const { jwt, feedToken, refreshToken } = this.issueSession(account.clientCode);
    return { status: 200, json: envelope({ jwtToken: jwt, refreshToken, feedToken, state: 'live' }) };
  }

  private publisherLogin(url: URL, res: ServerResponse): void {
    this.logins += 1;
    const apiKey = url.searchParams.get('api_key') ?? '';
    const account = [...this.accounts.values()].find((a) => a.apiKey === apiKey);
    if (account?.redirectUrl === undefined) {
      res.writeHead(400, { 'content-type': 'text/html' }).end('<h1>Invalid API key</h1>');
      return;
    }
    // The trader logs in on Angel's page (client code, MPIN, TOTP); the fake sends them straight back.
    const { jwt, feedToken, refreshToken } = this.issueSession(account.clientCode);
    const back = new URL(account.redirectUrl);
    back.searchParams.set('auth_token', jwt);
    back.searchParams.set('feed_token', feedToken);
    back.searchParams.set('refresh_token', refreshToken);
    const state = url.searchParams.get('state');
    if (state !== null) back.searchParams.set('state', state);
    res.writeHead(302, { location: back.toString() }).end();
  }

  private read(method: string, path: string, clientCode: string): Reply {
    const account = this.accounts.get(clientCode);
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

  private orderWrite(
    route: 'place' | 'modify' | 'cancel',
    clientCode: string,
    body: Record<string, unknown>,
    res: ServerResponse,
  ): void {
    const at = Date.now();
    this.orderRequestTimes.push(at);
    const mine = this.orderRequestsByClient.get(clientCode) ?? [];
    mine.push(at);
    this.orderRequestsByClient.set(clientCode, mine);
    if (route === 'place') this.placeRequests += 1;
    const fault = this.takeFault(route);
    const refusal = fault === undefined ? undefined : FAULT_REPLIES[fault];
    if (refusal !== undefined) return send(res, refusal);
    if (route === 'place') return this.place(clientCode, body, res, fault);
    const found = this.book.get(String(body.orderid ?? ''));
    if (!found || found.clientCode !== clientCode)
      return send(res, failure(200, 'AB1013', 'Order not found'));
    const { order } = found;
    if (String(body.variety ?? '') !== order.variety)
      return send(res, failure(200, 'AB1008', 'Invalid Order Variety'));
    if (!['open', 'trigger pending'].includes(order.status)) {
      return send(
        res,
        failure(200, 'AB1007', `Order cannot be modified or cancelled: it is ${order.status}`),
      );
    }
    if (route === 'cancel') {
      const next = this.book.update(order.orderid, { status: 'cancelled', text: 'Cancelled by user' });
      send(res, {
        status: 200,
        json: envelope({ orderid: next.orderid, uniqueorderid: next.uniqueorderid }),
      });
      this.sockets.pushOrder(clientCode, next);
      return;
    }
    const quantity = Number(body.quantity ?? order.quantity);
    const price = Number(body.price ?? order.price);
    const trigger = Number(body.triggerprice ?? order.triggerprice);
    if (
      body.tradingsymbol !== order.tradingsymbol ||
      body.symboltoken !== order.symboltoken ||
      body.ordertype !== order.ordertype ||
      body.producttype !== order.producttype ||
      body.exchange !== 'NFO' ||
      !Number.isInteger(quantity) ||
      quantity % this.lotSize !== 0 ||
      !(price > 0)
    ) {
      return send(res, failure(200, 'AB1007', 'Invalid modify parameters'));
    }
    const next = this.book.update(order.orderid, { quantity, price, triggerprice: trigger });
    send(res, { status: 200, json: envelope({ orderid: next.orderid, uniqueorderid: next.uniqueorderid }) });
    this.sockets.pushOrder(clientCode, next);
  }

  private place(
    clientCode: string,
    body: Record<string, unknown>,
    res: ServerResponse,
    fault: BrokerFault | undefined,
  ): void {
    const field = (name: string): string => String(body[name] ?? '');
    const instrument = this.instrument(field('symboltoken'));
    const variety = field('variety');
    const ordertype = field('ordertype');
    const side = field('transactiontype');
    const quantity = Number(field('quantity'));
    const price = Number(field('price') || '0');
    const trigger = Number(field('triggerprice') || '0');
    const tag = field('ordertag');
    const onTick = (v: number): boolean => Math.abs(Math.round(v * 20) - v * 20) < 1e-6;
    if (field('exchange') !== 'NFO' || !instrument || instrument.tradingSymbol !== field('tradingsymbol')) {
      return send(res, failure(200, 'AB1009', 'Symbol Not Found'));
    }
    if (ordertype === 'MARKET' || ordertype === 'STOPLOSS_MARKET' || field('duration') !== 'DAY') {
      // Since 1 Apr 2026: no market or IOC orders from APIs.
      return send(res, failure(200, 'AB1007', 'Market and IOC orders are not allowed for API orders'));
    }
    if (!(
      (variety === 'NORMAL' && ordertype === 'LIMIT') ||
      (variety === 'STOPLOSS' && ordertype === 'STOPLOSS_LIMIT')
    )) {
      return send(res, failure(200, 'AB1008', 'Invalid Order Variety'));
    }
    if (side !== 'BUY' && side !== 'SELL')
      return send(res, failure(200, 'AB1007', 'Invalid transactiontype'));
    if (!['INTRADAY', 'CARRYFORWARD'].includes(field('producttype')))
      return send(res, failure(200, 'AB1012', 'Invalid Product Type'));
    if (
      !Number.isInteger(quantity) ||
      quantity <= 0 ||
      quantity % instrument.lotSize !== 0 ||
      quantity > FAKE_FREEZE_QTY
    ) {
      return send(res, failure(200, 'AB1007', 'Invalid quantity'));
    }
    if (!(price > 0) || !onTick(price) || (variety === 'STOPLOSS' && (!(trigger > 0) || !onTick(trigger)))) {
      return send(res, failure(200, 'AB1007', 'Invalid price'));
    }
    if (tag.length >= 20 || !/^[A-Za-z0-9]*$/.test(tag)) {
      return send(res, failure(200, 'AB4008', 'ordertag length should be less than 20 characters'));
    }
    const order = this.book.add(clientCode, {
      variety,
      ordertype,
      producttype: field('producttype'),
      duration: 'DAY',
      transactiontype: side,
      exchange: 'NFO',
      tradingsymbol: instrument.tradingSymbol,
      symboltoken: instrument.token,
      quantity,
      price,
      triggerprice: variety === 'STOPLOSS' ? trigger : 0,
      ordertag: tag,
    });
    const answer = (): void =>
      send(res, {
        status: 200,
        json: envelope({
          script: instrument.tradingSymbol,
          orderid: order.orderid,
          uniqueorderid: order.uniqueorderid,
        }),
      });
    if (fault === 'timeout_placed') return this.hold(answer);
    answer();
    this.sockets.pushOrder(clientCode, order);
    // A stop rests (trigger pending) until the test fills it, as at the exchange until its trigger is crossed.
    if (this.autoFillPrice !== undefined && fault === undefined && variety === 'NORMAL') {
      void this.fill(order.orderid, price);
    }
    if (fault === 'partial_fill') {
      // Half the lots (at least one) fill at once; the rest stays open.
      const filled = Math.max(1, Math.floor(quantity / instrument.lotSize / 2)) * instrument.lotSize;
      void this.fill(order.orderid, price, filled);
    }
  }

  async close(): Promise<void> {
    for (const timer of this.held) clearTimeout(timer);
    this.held.clear();
    this.sockets.close();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

function send(res: ServerResponse, reply: Reply): void {
  if ('json' in reply) {
    res.writeHead(reply.status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(reply.json));
  } else {
    res.writeHead(reply.status, { 'content-type': 'text/plain' });
    res.end(reply.text);
  }
}

/** Starts an Angel One fake on a loopback port. */
export function startAngelFake(options: AngelFakeOptions = {}): Promise<AngelFake> {
  return new AngelFake(options).start();
}
