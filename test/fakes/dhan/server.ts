// A fake of Dhan v2 on 127.0.0.1 (random port) speaking its documented wire format: the consent login
// (`/app/generate-consent`, the `/login/consentApp-login` page that redirects back with `tokenId`,
// `/app/consumeApp-consent`), profile, fund limit, orders (place / modify / cancel with Dhan's checks: protected
// LIMIT / STOP_LOSS only, whole lots, the freeze quantity, `correlationId` up to 25 characters, `securityId` from
// the scrip master, the account's client id), order book, one order, order by correlation id, trades, positions,
// kill switch, P&L exit, the scrip master CSV, the order update socket and the binary market feed. Errors are
// `{errorType, errorCode, errorMessage}`. Faults can be injected per request (README.md). This file routes and
// answers the reads; the consent login and tokens are auth.ts, the order writes orderRoutes.ts, the envelopes
// replies.ts, the sockets sockets.ts.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrokerFault } from '../../brokers/conformance';
import { DhanFakeAuth, type DhanFakeAccount } from './auth';
import { niftyOptions, scripMasterCsv, type FakeInstrument } from './instruments';
import { DhanFakeOrderBook, type DhanFakeOrder } from './orderBook';
import { handleOrderWrite } from './orderRoutes';
import { INPUT, INVALID_AUTH, send, type Reply } from './replies';
import { DhanFakeSockets } from './sockets';
import { FakeFaults, OrderRequestLog, type FaultedRequest } from '../faults';

export type { DhanFakeAccount } from './auth';
export { FAKE_FREEZE_QTY } from './orderRoutes';

export interface DhanFakeOptions {
  readonly accounts?: readonly DhanFakeAccount[];
  /** `YYYY-MM-DD` of the listed NIFTY weekly expiry */
  readonly expiry?: string;
  readonly baseStrike?: number;
  readonly lotSize?: number;
  /** how long a `timeout_placed` answer is held back */
  readonly timeoutDelayMs?: number;
  /** fill every new LIMIT order in full at its price right after answering; stops rest until `fill` */
  readonly autoFillPrice?: number;
  readonly port?: number;
}

export class DhanFake {
  readonly book = new DhanFakeOrderBook(() => Date.now());
  readonly instruments: readonly FakeInstrument[];
  readonly sockets: DhanFakeSockets;
  readonly lotSize: number;
  readonly expiry: string;
  readonly autoFillPrice: number | undefined;
  /** every place / modify / cancel request received (refused ones included), by client id */
  readonly orderRequests = new OrderRequestLog();
  lastFillAt = 0;
  /** kill switch / P&L exit calls by client id */
  readonly safetyCalls: { clientId: string; path: string; body: unknown }[] = [];
  readonly requests: { method: string; path: string; headers: IncomingHttpHeaders }[] = [];
  readonly auth = new DhanFakeAuth();
  /** the injected faults, taken by the order writes (orderRoutes.ts) and the reads */
  readonly faults: FakeFaults;
  private readonly server = createServer((req, res) => void this.handle(req, res));
  private readonly port: number;
  private readonly master: string;
  url = '';

  constructor(options: DhanFakeOptions = {}) {
    this.lotSize = options.lotSize ?? 65;
    this.expiry = options.expiry ?? '2026-12-01';
    this.instruments = niftyOptions(this.expiry, options.baseStrike ?? 24_000, 6, this.lotSize);
    this.master = scripMasterCsv(this.instruments, this.expiry);
    this.autoFillPrice = options.autoFillPrice;
    this.port = options.port ?? 0;
    for (const account of options.accounts ?? []) this.auth.addAccount(account);
    this.sockets = new DhanFakeSockets((clientId, token) => this.auth.clientOf(token) === clientId);
    this.faults = new FakeFaults(() => this.sockets.dropAll(), options.timeoutDelayMs ?? 1_500);
    this.server.on('upgrade', (req, socket, head) => this.sockets.upgrade(req, socket, head));
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(this.port, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** Every DHAN_* endpoint at this fake. */
  get endpoints(): { apiRoot: string; loginUrl: string; wsRoot: string; masterRoot: string } {
    return {
      apiRoot: this.url,
      loginUrl: `${this.url}/login/consentApp-login`,
      wsRoot: this.url.replace('http:', 'ws:'),
      masterRoot: this.url,
    };
  }

  addAccount(account: DhanFakeAccount): void {
    this.auth.addAccount(account);
  }

  /** A token as web.dhan.co would generate it (the pasted-token login, and tests that start logged in). */
  issueToken(clientId: string): string {
    return this.auth.issueToken(clientId);
  }

  /** Every token issued so far ends (24 h passed); live sockets close and their reconnects are refused. */
  expireSessions(): void {
    this.auth.expireSessions();
    this.sockets.dropAll();
  }

  inject(fault: BrokerFault, times = 1, on?: FaultedRequest): void {
    this.faults.inject(fault, times, on);
  }

  instrument(securityId: string): FakeInstrument | undefined {
    return this.instruments.find((i) => i.securityId === securityId);
  }

  /** Fills `quantity` more of an order (default: the rest) at `price` and pushes the order update. */
  async fill(orderId: string, price: number, quantity?: number): Promise<void> {
    const order = this.book.get(orderId);
    if (!order) throw new Error(`no order ${orderId}`);
    const pending = order.quantity - order.filledQty;
    this.book.fill(orderId, price, Math.min(quantity ?? pending, pending));
    this.lastFillAt = Date.now();
    this.sockets.pushOrder(order.dhanClientId, order);
    return Promise.resolve();
  }

  /** An order the trader placed by hand in Dhan's app (no correlation id), filled at `price`. */
  placeByHand(
    clientId: string,
    input: { securityId: string; side: 'BUY' | 'SELL'; quantity: number; price: number },
  ): DhanFakeOrder {
    const instrument = this.instrument(input.securityId);
    if (!instrument) throw new Error(`no instrument ${input.securityId}`);
    const order = this.book.add({
      dhanClientId: clientId,
      correlationId: '',
      transactionType: input.side,
      exchangeSegment: 'NSE_FNO',
      productType: 'INTRADAY',
      orderType: 'LIMIT',
      validity: 'DAY',
      tradingSymbol: instrument.tradingSymbol,
      securityId: instrument.securityId,
      quantity: input.quantity,
      price: input.price,
      triggerPrice: 0,
    });
    return this.book.fill(order.orderId, input.price, input.quantity);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const path = url.pathname;
    const method = req.method ?? 'GET';
    this.requests.push({ method, path, headers: req.headers });
    if (method === 'GET' && path === '/api-data/api-scrip-master.csv') {
      res.writeHead(200, { 'content-type': 'text/csv' });
      res.end(this.master);
      return;
    }
    if (path.startsWith('/app/') || path.startsWith('/login/'))
      return this.auth.handle(method, url, req.headers, res);
    let body: Record<string, unknown> = {};
    if (chunks.length > 0) {
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      } catch {
        return send(res, INPUT('Invalid JSON body'));
      }
    }
    if (!path.startsWith('/v2/')) return send(res, INPUT('Route not found'));
    const clientId = this.auth.clientOf(String(req.headers['access-token'] ?? ''));
    if (clientId === undefined) return send(res, INVALID_AUTH);
    const orderId = /^\/v2\/orders\/(\d+)$/.exec(path)?.[1];
    if (method === 'POST' && path === '/v2/orders')
      return handleOrderWrite(this, 'place', clientId, body, undefined, res);
    if ((method === 'PUT' || method === 'DELETE') && orderId !== undefined) {
      return handleOrderWrite(this, method === 'PUT' ? 'modify' : 'cancel', clientId, body, orderId, res);
    }
    const read = path === '/v2/positions' ? 'positions' : 'read';
    if (this.faults.take(read) === 'token_expired') return send(res, INVALID_AUTH);
    return send(res, this.read(method, path, url, clientId, body));
  }

  private read(
    method: string,
    path: string,
    url: URL,
    clientId: string,
    body: Record<string, unknown>,
  ): Reply {
    if (method === 'GET' && path === '/v2/profile') {
      const validity = new Date(Date.now() + 24 * 3_600_000 + 5.5 * 3_600_000);
      const two = (n: number) => String(n).padStart(2, '0');
      return {
        status: 200,
        json: {
          dhanClientId: clientId,
          tokenValidity: `${two(validity.getUTCDate())}/${two(validity.getUTCMonth() + 1)}/${validity.getUTCFullYear()} ${two(validity.getUTCHours())}:${two(validity.getUTCMinutes())}`,
          activeSegment: 'Equity, Derivative',
          ddpi: 'Active',
          mtf: 'Active',
          dataPlan: 'Active',
          dataValidity: '2026-12-31 00:00:00.0',
        },
      };
    }
    if (method === 'GET' && path === '/v2/fundlimit') {
      return {
        status: 200,
        json: {
          dhanClientId: clientId,
          availabelBalance: 250000.0,
          sodLimit: 250000.0,
          collateralAmount: 0,
          receiveableAmount: 0,
          utilizedAmount: 0,
          blockedPayoutAmount: 0,
          withdrawableBalance: 250000.0,
        },
      };
    }
    if (method === 'GET' && path === '/v2/orders')
      return { status: 200, json: this.book.ordersOf(clientId).map(rowJson) };
    const one = /^\/v2\/orders\/(\d+)$/.exec(path)?.[1];
    if (method === 'GET' && one !== undefined) {
      const order = this.book.get(one);
      return order?.dhanClientId === clientId
        ? { status: 200, json: rowJson(order) }
        : INPUT('Order not found');
    }
    const correlation = /^\/v2\/orders\/external\/([^/]+)$/.exec(path)?.[1];
    if (method === 'GET' && correlation !== undefined) {
      const rows = this.book.byCorrelation(clientId, decodeURIComponent(correlation));
      return rows.length === 0
        ? INPUT('No order found for the correlation id')
        : { status: 200, json: rows.map(rowJson) };
    }
    if (method === 'GET' && path === '/v2/trades') {
      return {
        status: 200,
        json: this.book.tradesOf(clientId).map((t, i) => ({
          dhanClientId: clientId,
          exchangeOrderId: `1100${t.orderId}`,
          exchangeTradeId: String(5_000 + i),
          exchangeSegment: 'NSE_FNO',
          productType: 'INTRADAY',
          orderType: 'LIMIT',
          ...t,
        })),
      };
    }
    if (method === 'GET' && path === '/v2/positions') {
      const rows = [...this.book.positionsOf(clientId)].map(([securityId, p]) => {
        const netQty = p.buyQty - p.sellQty;
        return {
          dhanClientId: clientId,
          tradingSymbol: p.symbol,
          securityId,
          positionType: netQty > 0 ? 'LONG' : netQty < 0 ? 'SHORT' : 'CLOSED',
          exchangeSegment: 'NSE_FNO',
          productType: 'INTRADAY',
          buyAvg: p.buyQty > 0 ? p.buyValue / p.buyQty : 0,
          buyQty: p.buyQty,
          sellAvg: p.sellQty > 0 ? p.sellValue / p.sellQty : 0,
          sellQty: p.sellQty,
          netQty,
          realizedProfit: netQty === 0 ? p.sellValue - p.buyValue : 0,
          unrealizedProfit: 0,
        };
      });
      return { status: 200, json: rows };
    }
    if (method === 'POST' && path === '/v2/killswitch') {
      this.safetyCalls.push({ clientId, path: `${path}${url.search}`, body });
      return {
        status: 200,
        json: { dhanClientId: clientId, killSwitchStatus: 'Kill Switch has been successfully activated' },
      };
    }
    if (method === 'POST' && path === '/v2/pnlExit') {
      this.safetyCalls.push({ clientId, path, body });
      return {
        status: 200,
        json: { pnlExitStatus: 'ACTIVE', message: 'P&L based exit configured successfully' },
      };
    }
    return INPUT('Route not found');
  }

  async close(): Promise<void> {
    this.faults.close();
    this.sockets.close();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** An order as Dhan's order book row. */
export function rowJson(order: DhanFakeOrder): Record<string, unknown> {
  return {
    dhanClientId: order.dhanClientId,
    orderId: order.orderId,
    correlationId: order.correlationId,
    orderStatus: order.orderStatus,
    transactionType: order.transactionType,
    exchangeSegment: order.exchangeSegment,
    productType: order.productType,
    orderType: order.orderType,
    validity: order.validity,
    tradingSymbol: order.tradingSymbol,
    securityId: order.securityId,
    quantity: order.quantity,
    disclosedQuantity: 0,
    price: order.price,
    triggerPrice: order.triggerPrice,
    afterMarketOrder: false,
    createTime: order.createTime,
    updateTime: order.updateTime,
    exchangeTime: order.updateTime,
    omsErrorCode: '',
    omsErrorDescription: order.omsErrorDescription,
    remainingQuantity: order.quantity - order.filledQty,
    averageTradedPrice: order.averageTradedPrice,
    filledQty: order.filledQty,
  };
}

/** Starts a Dhan fake on a loopback port. */
export function startDhanFake(options: DhanFakeOptions = {}): Promise<DhanFake> {
  return new DhanFake(options).start();
}
