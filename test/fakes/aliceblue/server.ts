// A fake of Alice Blue ANT on 127.0.0.1 (random port) speaking its documented wire format: the vendor login page
// (`/?appcode=…` → the app's redirect URL with `authCode` and `userId`), `sso/getUserDetails` (the checksum
// sha256(userId + authCode + apiSecret) checked, single-use codes), account details, RMS limits, orders (place as
// an array / modify / cancel, with ANT's checks as this adapter relies on them: protected L / SL only from algos,
// whole lots, the freeze quantity, `symbol_id` and `trading_symbol` from the master), order book, trade book,
// positions, the NFO contract master CSV, socket sessions and the NOREN socket (sockets.ts). Faults can be
// injected per request (README.md).
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrokerFault } from '../../brokers/conformance';
import { contractMasterCsv, niftyOptions, type FakeInstrument } from './master';
import { AliceFakeOrderBook, orderRowJson, type AliceFakeOrder } from './orderBook';
import { AliceFakeSockets } from './sockets';
import { FakeFaults, OrderRequestLog, type FaultedRequest } from '../faults';
import { send, type JsonReply as Reply } from '../reply';

/** A trader at the fake: their ANT app (app code, API secret) and account. */
export interface AliceFakeAccount {
  readonly userId: string;
  readonly appCode: string;
  readonly apiSecret: string;
  readonly name: string;
  /** the app's registered redirect URL */
  readonly redirectUrl?: string;
}

export interface AliceFakeOptions {
  readonly accounts?: readonly AliceFakeAccount[];
  /** `YYYY-MM-DD` of the listed NIFTY weekly expiry */
  readonly expiry?: string;
  readonly baseStrike?: number;
  readonly lotSize?: number;
  /** how long a `timeout_placed` answer is held back */
  readonly timeoutDelayMs?: number;
  /** fill every new LIMIT order in full at its price right after answering; stops rest until `fill` */
  readonly autoFillPrice?: number;
  /** fixed port (demo, end-to-end); default a random free one */
  readonly port?: number;
  /** pass the login URL's `state` back on the redirect (ANT documents no such thing); default false */
  readonly echoState?: boolean;
}

/** NIFTY options' exchange freeze quantity (DOMAIN.md §1). */
export const FAKE_FREEZE_QTY = 1_800;
const API = '/rest/AliceBlueAPIService/api';

const notOk = (status: number, emsg: string): Reply => ({ status, json: { stat: 'Not_Ok', emsg } });
const UNAUTHORIZED = notOk(401, 'Unauthorized');

const FAULT_REPLIES: Readonly<Partial<Record<BrokerFault, Reply>>> = {
  reject: { status: 200, json: [{ stat: 'Not_Ok', emsg: 'RMS:Margin Exceeds,Required:1300.00' }] },
  rate_limit: notOk(429, 'Too many requests'),
  server_error: notOk(500, 'Internal server error'),
  token_expired: UNAUTHORIZED,
  ip_not_allowed: notOk(403, 'Access denied: the request IP is not whitelisted for this app'),
};

const ORDER_ROUTES: Readonly<Record<string, 'place' | 'modify' | 'cancel'>> = {
  [`${API}/placeOrder/executePlaceOrder`]: 'place',
  [`${API}/placeOrder/modifyOrder`]: 'modify',
  [`${API}/placeOrder/cancelOrder`]: 'cancel',
};

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

export class AliceFake {
  readonly book = new AliceFakeOrderBook(() => Date.now());
  readonly instruments: readonly FakeInstrument[];
  readonly sockets: AliceFakeSockets;
  readonly lotSize: number;
  readonly expiry: string;
  /** every place / modify / cancel request received (refused ones included), by user id */
  readonly orderRequests = new OrderRequestLog();
  /** sessions issued by `getUserDetails` */
  logins = 0;
  /** epoch ms of the last fill (its order message follows at once) */
  lastFillAt = 0;
  /** every request's method and path, in order */
  readonly requests: { method: string; path: string; body: unknown }[] = [];
  private readonly accounts = new Map<string, AliceFakeAccount>();
  /** userSession → user id */
  private readonly sessions = new Map<string, string>();
  /** sessions that made a socket session */
  private readonly socketSessions = new Set<string>();
  /** auth codes the login page issued and not yet used → user id */
  private readonly authCodes = new Map<string, string>();
  private readonly faults: FakeFaults;
  private readonly server = createServer((req, res) => void this.handle(req, res));
  private readonly master: string;
  private readonly options: AliceFakeOptions;
  url = '';

  constructor(options: AliceFakeOptions = {}) {
    this.options = options;
    this.lotSize = options.lotSize ?? 65;
    this.expiry = options.expiry ?? '2026-12-01';
    this.instruments = niftyOptions(this.expiry, options.baseStrike ?? 24_000, 6, this.lotSize);
    this.master = contractMasterCsv(this.instruments, this.expiry);
    for (const account of options.accounts ?? []) this.addAccount(account);
    this.sockets = new AliceFakeSockets((userId, token) =>
      [...this.sessions].some(
        ([session, owner]) =>
          owner === userId && this.socketSessions.has(session) && sha256(sha256(session)) === token,
      ),
    );
    this.faults = new FakeFaults(() => this.sockets.dropAll(), options.timeoutDelayMs ?? 1_500);
    this.server.on('upgrade', (req, socket, head) => this.sockets.upgrade(req, socket, head));
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(this.options.port ?? 0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** Every ALICEBLUE_* endpoint at this fake. */
  get endpoints(): { apiRoot: string; loginUrl: string; wsRoot: string; masterRoot: string } {
    return {
      apiRoot: this.url,
      loginUrl: `${this.url}/`,
      wsRoot: this.url.replace('http:', 'ws:'),
      masterRoot: this.url,
    };
  }

  addAccount(account: AliceFakeAccount): void {
    this.accounts.set(account.userId, account);
  }

  /** A session as the vendor login would issue it, without one (tests that start logged in). */
  issueSession(userId: string): string {
    if (!this.accounts.has(userId)) throw new Error(`no account ${userId}`);
    const session = randomBytes(24).toString('base64url');
    this.sessions.set(session, userId);
    return session;
  }

  /** The sessions' end: every session issued so far is refused from now on, and live sockets close. */
  expireSessions(): void {
    this.sessions.clear();
    this.socketSessions.clear();
    this.sockets.dropAll();
  }

  inject(fault: BrokerFault, times = 1, on?: FaultedRequest): void {
    this.faults.inject(fault, times, on);
  }

  instrument(token: string): FakeInstrument | undefined {
    return this.instruments.find((i) => i.token === token);
  }

  /** Fills `quantity` more of an order (default: the rest) at `price` and pushes its order message. */
  fill(id: string, price: number, quantity?: number): Promise<void> {
    const order = this.book.get(id);
    if (!order) throw new Error(`no order ${id}`);
    const pending = order.Qty - order.Fillshares;
    this.book.fill(id, price, Math.min(quantity ?? pending, pending));
    this.lastFillAt = Date.now();
    this.sockets.pushOrder(order);
    return Promise.resolve();
  }

  /** An order the trader placed by hand in ANT (no API tag), filled at `price`. */
  placeByHand(
    userId: string,
    input: { token: string; side: 'BUY' | 'SELL'; quantity: number; price: number },
  ): AliceFakeOrder {
    const instrument = this.instrument(input.token);
    if (!instrument) throw new Error(`no instrument ${input.token}`);
    const order = this.book.add({
      userId,
      Trantype: input.side,
      Prctype: 'L',
      Pcode: 'MIS',
      Trsym: instrument.tradingSymbol,
      token: instrument.token,
      Qty: input.quantity,
      Prc: input.price,
      Trgprc: 0,
      remarks: '',
    });
    return this.book.fill(order.Nstordno, input.price, input.quantity);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const path = url.pathname;
    const method = req.method ?? 'GET';
    let body: unknown = undefined;
    if (chunks.length > 0) {
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return send(res, notOk(400, 'Invalid request'));
      }
    }
    this.requests.push({ method, path, body });
    if (method === 'GET' && path === '/') return this.loginPage(url, res);
    if (method === 'GET' && path === '/restpy/static/contract_master/NFO.csv') {
      res.writeHead(200, { 'content-type': 'text/csv' }).end(this.master);
      return;
    }
    if (method === 'POST' && path === '/rest/AliceBlueAPIService/sso/getUserDetails') {
      return send(res, this.userDetails(body));
    }
    if (!path.startsWith(`${API}/`)) return send(res, notOk(404, 'Not found'));
    const [, userId, session] = /^Bearer (\S+) (\S+)$/.exec(String(req.headers.authorization ?? '')) ?? [];
    if (userId === undefined || session === undefined || this.sessions.get(session) !== userId) {
      return send(res, UNAUTHORIZED);
    }
    const route = method === 'POST' ? ORDER_ROUTES[path] : undefined;
    if (route !== undefined) return this.orderWrite(route, userId, body, res);
    const read = path === `${API}/positionAndHoldings/positionBook` ? 'positions' : 'read';
    if (this.faults.take(read) === 'token_expired') return send(res, UNAUTHORIZED);
    return send(res, this.read(method, path.slice(API.length), userId, session));
  }

  private loginPage(url: URL, res: ServerResponse): void {
    const appCode = url.searchParams.get('appcode') ?? '';
    const account = [...this.accounts.values()].find((a) => a.appCode === appCode);
    if (account?.redirectUrl === undefined) {
      res.writeHead(400, { 'content-type': 'text/html' }).end('<h1>Invalid app code</h1>');
      return;
    }
    // The trader logs in on ANT's page (password, TOTP); the fake sends them straight back.
    const authCode = randomBytes(10).toString('hex').toUpperCase();
    this.authCodes.set(authCode, account.userId);
    const back = new URL(account.redirectUrl);
    back.searchParams.set('authCode', authCode);
    back.searchParams.set('userId', account.userId);
    // ANT's documented redirect carries `authCode` and `userId` only; `echoState` plays a gateway that passes it.
    const state = url.searchParams.get('state');
    if (state !== null && this.options.echoState === true) back.searchParams.set('state', state);
    res.writeHead(302, { location: back.toString() }).end();
  }

  private userDetails(body: unknown): Reply {
    const checkSum = String((body as { checkSum?: unknown } | undefined)?.checkSum ?? '');
    for (const [code, userId] of this.authCodes) {
      const account = this.accounts.get(userId);
      if (account && sha256(`${userId}${code}${account.apiSecret}`) === checkSum) {
        this.authCodes.delete(code);
        this.logins += 1;
        return {
          status: 200,
          json: { stat: 'Ok', clientId: userId, userSession: this.issueSession(userId) },
        };
      }
    }
    return notOk(200, 'Invalid checksum or auth code');
  }

  private read(method: string, path: string, userId: string, session: string): Reply {
    const list = (rows: unknown[]): Reply =>
      rows.length === 0 ? notOk(200, 'No Data') : { status: 200, json: rows };
    if (method === 'GET' && path === '/customer/accountDetails') {
      const account = this.accounts.get(userId);
      return {
        status: 200,
        json: {
          accountId: userId,
          accountName: account?.name ?? '',
          exchEnabled: 'nse_cm|nse_fo|',
          emailAddr: '',
          cellAddr: '',
        },
      };
    }
    if (method === 'GET' && path === '/limits/getRmsLimits') {
      return {
        status: 200,
        json: [{ segment: 'ALL', net: '2,50,000.00', cashmarginavailable: '250000.00', stat: 'Ok' }],
      };
    }
    if (method === 'GET' && path === '/placeOrder/fetchOrderBook')
      return list(this.book.ordersOf(userId).map(orderRowJson));
    if (method === 'GET' && path === '/placeOrder/fetchTradeBook') return list(this.book.tradesOf(userId));
    if (method === 'POST' && path === '/positionAndHoldings/positionBook')
      return list(this.book.positionsOf(userId));
    if (method === 'POST' && path === '/ws/createSocketSess') {
      this.socketSessions.add(session);
      return { status: 200, json: { stat: 'Ok', result: { wsSess: randomBytes(8).toString('hex') } } };
    }
    return notOk(404, 'Not found');
  }

  private orderWrite(
    route: 'place' | 'modify' | 'cancel',
    userId: string,
    body: unknown,
    res: ServerResponse,
  ): void {
    this.orderRequests.record(route, userId);
    const fault = this.faults.take(route);
    const refusal = fault === undefined ? undefined : FAULT_REPLIES[fault];
    if (refusal !== undefined) return send(res, refusal);
    if (route === 'place') return this.place(userId, body, res, fault);
    const b = (body ?? {}) as Record<string, unknown>;
    const order = this.book.get(String(b.nestOrderNumber ?? ''));
    if (order?.userId !== userId) return send(res, notOk(200, 'Order not found'));
    if (!['open', 'trigger pending'].includes(order.Status)) {
      return send(res, notOk(200, `Order cannot be modified or cancelled: it is ${order.Status}`));
    }
    if (route === 'cancel') {
      this.book.update(order.Nstordno, { Status: 'cancelled', RejReason: 'Cancelled by user' });
      send(res, { status: 200, json: { stat: 'Ok', nestOrderNumber: order.Nstordno } });
      return this.sockets.pushOrder(order);
    }
    const qty = Number(b.qty);
    const price = Number(b.price);
    const trigger = Number(b.trigPrice || 0);
    if (
      b.trading_symbol !== order.Trsym ||
      b.exch !== 'NFO' ||
      b.prctyp !== order.Prctype ||
      b.pCode !== order.Pcode ||
      b.transtype !== order.Trantype ||
      !Number.isInteger(qty) ||
      qty % this.lotSize !== 0 ||
      !(price > 0)
    ) {
      return send(res, notOk(200, 'Invalid modify parameters'));
    }
    this.book.update(order.Nstordno, { Qty: qty, Prc: price, Trgprc: order.Prctype === 'SL' ? trigger : 0 });
    send(res, { status: 200, json: { stat: 'Ok', Result: ' Order Modified Successfully' } });
    this.sockets.pushOrder(order);
  }

  private place(userId: string, body: unknown, res: ServerResponse, fault: BrokerFault | undefined): void {
    if (!Array.isArray(body) || body.length !== 1) return send(res, notOk(200, 'Invalid order array'));
    const o = body[0] as Record<string, unknown>;
    const field = (name: string): string => String(o[name] ?? '');
    const refuse = (emsg: string) => send(res, { status: 200, json: [{ stat: 'Not_Ok', emsg }] });
    const instrument = this.instrument(field('symbol_id'));
    const prctyp = field('prctyp');
    const side = field('transtype');
    const qty = Number(field('qty'));
    const price = Number(field('price') || '0');
    const trigger = Number(field('trigPrice') || '0');
    const tag = field('orderTag');
    const onTick = (v: number): boolean => Math.abs(Math.round(v * 20) - v * 20) < 1e-6;
    if (field('exch') !== 'NFO' || !instrument || instrument.tradingSymbol !== field('trading_symbol')) {
      return refuse('Invalid Trading Symbol');
    }
    if (prctyp === 'MKT' || prctyp === 'SL-M' || field('ret') !== 'DAY' || field('complexty') !== 'regular') {
      return refuse('Unprotected market and IOC orders are not allowed for algo orders');
    }
    if (prctyp !== 'L' && prctyp !== 'SL') return refuse('Invalid price type');
    if (side !== 'BUY' && side !== 'SELL') return refuse('Invalid transaction type');
    if (!['MIS', 'NRML'].includes(field('pCode'))) return refuse('Invalid product code');
    if (!Number.isInteger(qty) || qty <= 0 || qty % instrument.lotSize !== 0 || qty > FAKE_FREEZE_QTY) {
      return refuse('Invalid quantity');
    }
    if (!(price > 0) || !onTick(price) || (prctyp === 'SL' && (!(trigger > 0) || !onTick(trigger)))) {
      return refuse('Invalid price');
    }
    if (tag.length > 20 || !/^[A-Za-z0-9]*$/.test(tag)) return refuse('Invalid order tag');
    const order = this.book.add({
      userId,
      Trantype: side,
      Prctype: prctyp,
      Pcode: field('pCode'),
      Trsym: instrument.tradingSymbol,
      token: instrument.token,
      Qty: qty,
      Prc: price,
      Trgprc: prctyp === 'SL' ? trigger : 0,
      remarks: tag,
    });
    const answer = (): void => send(res, { status: 200, json: [{ stat: 'Ok', NOrdNo: order.Nstordno }] });
    if (fault === 'timeout_placed') return this.faults.hold(answer);
    answer();
    this.sockets.pushOrder(order);
    if (this.options.autoFillPrice !== undefined && fault === undefined && prctyp === 'L') {
      void this.fill(order.Nstordno, price);
    }
    if (fault === 'partial_fill') {
      // Half the lots (at least one) fill at once; the rest stays open.
      const filled = Math.max(1, Math.floor(qty / instrument.lotSize / 2)) * instrument.lotSize;
      void this.fill(order.Nstordno, price, filled);
    }
  }

  async close(): Promise<void> {
    this.faults.close();
    this.sockets.close();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** Starts an Alice Blue fake on a loopback port. */
export function startAliceFake(options: AliceFakeOptions = {}): Promise<AliceFake> {
  return new AliceFake(options).start();
}
