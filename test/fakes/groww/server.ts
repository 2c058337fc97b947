// A fake of Groww's Trade API on 127.0.0.1 (random port) speaking its documented wire format (groww.in/trade-api/docs
// curl pages): the access-token call (approval checksum or TOTP, with the API key as bearer), user detail, margins,
// orders (create / modify / cancel with Groww's checks: NSE FNO, DAY, a known trading symbol, whole lots, the
// freeze quantity, an 8–20 character reference id, unique), order detail / status / status by reference, the order
// list (paged), positions, the LTP call, the instrument CSV, and the socket-token call with its NATS-over-WebSocket
// socket (socket.ts). Envelopes `{status: "SUCCESS", payload}` /
// `{status: "FAILURE", error: {code, message}}`. Faults can be injected per request (README.md).
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrokerFault } from '../../brokers/conformance';
import { FakeFaults, OrderRequestLog } from '../faults';
import { totp } from '../angelone/totp';
import { growwInstrumentCsv, growwNiftyOptions, type GrowwFakeInstrument } from './instruments';
import { GrowwFakeBook, type GrowwFakeOrder } from './orderBook';
import { GrowwFakeSocket } from './socket';
import { send, type JsonReply as Reply } from '../reply';
import { cancelOrder, fail, modifyOrder, ok, placeOrder } from './orders';

export { GROWW_FAKE_FREEZE_QTY } from './orders';

/** A trader at the fake: their API key and secret, the key's TOTP secret and the account's UCC. */
export interface GrowwFakeAccount {
  readonly apiKey: string;
  readonly apiSecret: string;
  /** base32 TOTP secret of a TOTP key */
  readonly totpSecret: string;
  readonly ucc: string;
  /** whether the key was approved on Groww's API keys page today (the approval flow needs it); default true */
  readonly approved?: boolean;
}

export interface GrowwFakeOptions {
  readonly accounts?: readonly GrowwFakeAccount[];
  /** `YYYY-MM-DD` of the listed NIFTY weekly expiry */
  readonly expiry?: string;
  readonly baseStrike?: number;
  readonly lotSize?: number;
  /** how long a `timeout_placed` answer is held back */
  readonly timeoutDelayMs?: number;
  /** fill every new LIMIT order in full at its price right after answering; SL orders rest until `fill` */
  readonly autoFillPrice?: number;
  /** the NIFTY 50 index and every option's last price (LTP call) */
  readonly ltp?: { index: number; option: number };
  /** fixed port (demo, end-to-end); default a random free one */
  readonly port?: number;
  /** how often the socket publishes prices on subscribed subjects; default 250 ms */
  readonly tickMs?: number;
}

/** A request as the fake saw it (tests check the headers Groww requires). */
export interface SeenRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
}

/** Groww documents no code for these; the SDK reads them by HTTP status. */
const UNAUTHORISED = fail(401, 'GA005', 'User not authorised to perform this operation');
const FAULT_REPLIES: Readonly<Partial<Record<BrokerFault, Reply>>> = {
  reject: fail(400, 'GA006', 'Cannot process this request'),
  rate_limit: fail(429, null, 'Too many requests'),
  server_error: fail(500, 'GA000', 'Internal error occurred'),
  token_expired: UNAUTHORISED,
  ip_not_allowed: fail(403, 'GA005', 'Request from an unregistered IP address'),
};

const ORDER_ROUTES: Readonly<Record<string, 'place' | 'modify' | 'cancel'>> = {
  '/v1/order/create': 'place',
  '/v1/order/modify': 'modify',
  '/v1/order/cancel': 'cancel',
};

export class GrowwFake {
  readonly book = new GrowwFakeBook(() => Date.now());
  readonly instruments: readonly GrowwFakeInstrument[];
  readonly lotSize: number;
  readonly expiry: string;
  /** every create / modify / cancel request received (refused ones included), by UCC */
  readonly orderRequests = new OrderRequestLog();
  logins = 0;
  /** epoch ms of the last fill */
  lastFillAt = 0;
  readonly requests: SeenRequest[] = [];
  ltp: { index: number; option: number };
  /** a trading symbol's own last price (`NSE_` dropped), over `ltp.option` */
  readonly optionPrices = new Map<string, number>();
  private readonly accounts = new Map<string, GrowwFakeAccount>();
  /** access token → UCC */
  private readonly sessions = new Map<string, string>();
  private readonly faults: FakeFaults;
  private readonly server = createServer((req, res) => void this.handle(req, res));
  /** the NATS socket on the same port */
  readonly socket: GrowwFakeSocket;
  private readonly master: string;
  private readonly autoFillPrice: number | undefined;
  private readonly port: number;
  url = '';

  constructor(options: GrowwFakeOptions = {}) {
    this.lotSize = options.lotSize ?? 65;
    this.expiry = options.expiry ?? '2026-12-01';
    this.instruments = growwNiftyOptions(this.expiry, options.baseStrike ?? 24_000, 6, this.lotSize);
    this.master = growwInstrumentCsv(this.instruments, this.expiry);
    this.faults = new FakeFaults(() => this.socket.dropAll(), options.timeoutDelayMs ?? 1_500);
    this.autoFillPrice = options.autoFillPrice;
    this.ltp = options.ltp ?? { index: 24_010, option: 120 };
    this.port = options.port ?? 0;
    for (const account of options.accounts ?? []) this.addAccount(account);
    this.socket = new GrowwFakeSocket(this.server, {
      instruments: this.instruments,
      prices: () => ({
        index: this.ltp.index,
        option: (symbol) => this.optionPrices.get(symbol) ?? this.ltp.option,
      }),
      tickMs: options.tickMs ?? 250,
    });
    this.book.onChange = (order) => this.socket.pushOrder(order);
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(this.port, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** Every GROWW_* endpoint at this fake (`wsRoot`: its NATS socket, on the same port). */
  get endpoints(): { apiRoot: string; loginUrl: string; wsRoot: string; masterRoot: string } {
    return {
      apiRoot: this.url,
      loginUrl: `${this.url}/trade-api/api-keys`,
      wsRoot: this.url.replace('http:', 'ws:'),
      masterRoot: this.url,
    };
  }

  addAccount(account: GrowwFakeAccount): void {
    this.accounts.set(account.apiKey, account);
  }

  /** An access token as a login would issue it (tests and benches that start logged in). */
  issueToken(apiKey: string): string {
    const account = this.accounts.get(apiKey);
    if (!account) throw new Error(`no account with key ${apiKey}`);
    const token = `eyJraWQiOiJ${randomBytes(24).toString('base64url')}`;
    this.sessions.set(token, account.ucc);
    return token;
  }

  /** Groww's 06:00 IST expiry: every token issued so far is refused from now on, and its sockets end. */
  expireSessions(): void {
    this.sessions.clear();
    this.socket.expire();
  }

  /** Faults for the next requests they concern; `drop_socket` drops every socket connection now. */
  inject(fault: BrokerFault, times = 1): void {
    this.faults.inject(fault, times);
  }

  /** Fills `quantity` more of an order (default: the rest) at `price`. */
  fill(orderId: string, price: number, quantity?: number): Promise<void> {
    this.book.fill(orderId, price, quantity);
    this.lastFillAt = Date.now();
    return Promise.resolve();
  }

  /** An order the trader placed by hand in Groww's app (no reference id), filled at `price`. */
  placeByHand(
    ucc: string,
    input: { tradingSymbol: string; side: 'BUY' | 'SELL'; quantity: number; price: number },
  ): GrowwFakeOrder {
    const order = this.book.add(ucc, {
      trading_symbol: input.tradingSymbol,
      transaction_type: input.side,
      order_type: 'LIMIT',
      product: 'MIS',
      order_reference_id: '',
      quantity: input.quantity,
      price: input.price,
      trigger_price: 0,
    });
    return this.book.fill(order.groww_order_id, input.price, input.quantity);
  }

  close(): Promise<void> {
    this.faults.close();
    this.socket.close();
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const { pathname: path } = url;
    const method = req.method ?? 'GET';
    this.requests.push({ method, path, headers: req.headers });
    if (method === 'GET' && path === '/instruments/instrument.csv') {
      res.writeHead(200, { 'content-type': 'text/csv' }).end(this.master);
      return;
    }
    if (method === 'GET' && path === '/trade-api/api-keys') {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>Groww API keys (fake)</h1>');
      return;
    }
    let body: Record<string, unknown> = {};
    if (chunks.length > 0) {
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      } catch {
        return send(res, fail(400, 'GA001', 'Bad request'));
      }
    }
    const bearer = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
    if (method === 'POST' && path === '/v1/token/api/access') return send(res, this.token(bearer, body));
    if (req.headers['x-api-version'] !== '1.0') return send(res, fail(400, 'GA001', 'Missing X-API-VERSION'));
    const ucc = this.sessions.get(bearer);
    if (ucc === undefined) return send(res, UNAUTHORISED);
    if (method === 'POST' && path === '/v1/api/apex/v1/socket/token/create/') {
      const grant = this.socket.issue(ucc, body.socketKey);
      // Bare like the token call (the SDK reads `token` and `subscriptionId` off the answer).
      return send(
        res,
        grant === undefined ? fail(400, 'GA001', 'Invalid socketKey') : { status: 200, json: grant },
      );
    }
    const route = method === 'POST' ? ORDER_ROUTES[path] : undefined;
    if (route !== undefined) return this.orderWrite(route, ucc, body, res);
    if (this.faults.take('read') === 'token_expired') return send(res, UNAUTHORISED);
    return send(res, this.read(method, path, url.searchParams, ucc));
  }

  private token(apiKey: string, body: Record<string, unknown>): Reply {
    this.logins += 1;
    const account = this.accounts.get(apiKey);
    if (account === undefined) return UNAUTHORISED;
    if (body.key_type === 'approval') {
      const timestamp = String(body.timestamp ?? '');
      const fresh = Math.abs(Date.now() / 1_000 - Number(timestamp)) <= 600;
      const checksum = createHash('sha256')
        .update(account.apiSecret + timestamp)
        .digest('hex');
      if (!fresh || body.checksum !== checksum) return fail(400, 'GA001', 'Invalid checksum');
      if (account.approved === false) return fail(403, 'GA005', 'API key not approved today');
    } else if (body.key_type === 'totp') {
      const now = Date.now();
      const codes = [totp(account.totpSecret, now), totp(account.totpSecret, now - 30_000)];
      if (!codes.includes(String(body.totp ?? ''))) return fail(400, 'GA001', 'Invalid TOTP');
    } else {
      return fail(400, 'GA001', 'Invalid key_type');
    }
    const token = this.issueToken(apiKey);
    // The token call answers bare, without the envelope (Groww's curl docs).
    return {
      status: 200,
      json: { token, tokenRefId: randomBytes(6).toString('hex'), sessionName: 'api', isActive: true },
    };
  }

  private orderWrite(
    route: 'place' | 'modify' | 'cancel',
    ucc: string,
    body: Record<string, unknown>,
    res: ServerResponse,
  ): void {
    this.orderRequests.record(route, ucc);
    const fault = this.faults.take(route);
    if (fault === 'timeout_placed') {
      const reply = placeOrder(this, ucc, body);
      this.faults.hold(() => send(res, reply));
      return;
    }
    const canned = fault === undefined || fault === 'partial_fill' ? undefined : FAULT_REPLIES[fault];
    if (canned !== undefined) return send(res, canned);
    if (route === 'modify') return send(res, modifyOrder(this, ucc, body));
    if (route === 'cancel') return send(res, cancelOrder(this, ucc, body));
    const reply = placeOrder(this, ucc, body);
    send(res, reply);
    const placed = (reply.json as { payload?: { groww_order_id?: string } }).payload?.groww_order_id;
    if (placed === undefined) return;
    const order = this.book.get(placed);
    // Pushed once answered (a placement whose answer is held back is not: the router must ask for it).
    if (order !== undefined) this.socket.pushOrder(order);
    if (fault === 'partial_fill' && order !== undefined) {
      void this.fill(
        placed,
        order.price,
        Math.max(this.lotSize, Math.floor(order.quantity / 2 / this.lotSize) * this.lotSize),
      );
    } else if (this.autoFillPrice !== undefined && order?.order_type === 'LIMIT') {
      void this.fill(placed, order.price);
    }
  }

  private read(method: string, path: string, query: URLSearchParams, ucc: string): Reply {
    if (method !== 'GET') return fail(404, 'GA004', 'Requested entity does not exist');
    const notFound = fail(404, 'GA004', 'Requested entity does not exist');
    const view = (o: GrowwFakeOrder | undefined) =>
      o === undefined || o.ucc !== ucc ? undefined : this.book.row(o);
    if (path === '/v1/user/detail') {
      return ok({
        vendor_user_id: `v-${ucc}`,
        ucc,
        nse_enabled: true,
        bse_enabled: true,
        active_segments: ['CASH', 'FNO'],
      });
    }
    if (path === '/v1/margins/detail/user') {
      return ok({
        clear_cash: 250_000,
        net_margin_used: 0,
        fno_margin_details: { option_buy_balance_available: 250_000 },
      });
    }
    if (path.startsWith('/v1/order/detail/')) {
      return this.withSegment(query, () => view(this.book.get(path.slice(17))));
    }
    if (path.startsWith('/v1/order/status/reference/')) {
      return this.withSegment(query, () =>
        view(this.book.byReference(ucc, decodeURIComponent(path.slice(27)))),
      );
    }
    if (path === '/v1/order/list') {
      const page = Number(query.get('page') ?? 0);
      const size = Math.min(100, Number(query.get('page_size') ?? 100));
      const rows = this.book.of(ucc).map((o) => this.book.row(o));
      return ok({ order_list: rows.slice(page * size, (page + 1) * size) });
    }
    if (path === '/v1/positions/user') return ok({ positions: this.book.positions(ucc) });
    if (path === '/v1/live-data/ltp') {
      const keys = (query.get('exchange_symbols') ?? '').split(',').filter((k) => k !== '');
      if (keys.length > 50) return fail(400, 'GA001', 'Too many symbols');
      const cash = query.get('segment') === 'CASH';
      const price = (key: string) =>
        cash ? this.ltp.index : (this.optionPrices.get(key.replace(/^NSE_/, '')) ?? this.ltp.option);
      return ok(Object.fromEntries(keys.map((k) => [k, price(k)])));
    }
    return notFound;
  }

  private withSegment(query: URLSearchParams, find: () => unknown): Reply {
    if (query.get('segment') !== 'FNO') return fail(400, 'GA001', 'segment is required');
    const row = find();
    return row === undefined ? fail(404, 'GA004', 'Requested entity does not exist') : ok(row);
  }
}

/** Starts a Groww fake on a loopback port. */
export function startGrowwFake(options: GrowwFakeOptions = {}): Promise<GrowwFake> {
  return new GrowwFake(options).start();
}
