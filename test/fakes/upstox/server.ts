// A fake of Upstox's APIs on 127.0.0.1, speaking the documented wire format: the OAuth2 dialog and token exchange,
// v3 order placement/modify/cancel on a separate orders host (api-hft), order details/history (by id or tag), the
// order book, short-term positions, `complete.json.gz`, the portfolio stream and market data feed v3 (protobuf).
// Faults are injected per call (see README.md). Shapes come from Upstox's docs and upstox/upstox-nodejs models.
import { createServer } from 'node:http';
import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { handle } from './handlers';
import type { FakeOrderBook, FakeUpstoxOrder } from './orderBook';
import type { UpstoxInstrumentRow } from './instrumentRows';
import { FakeState } from './state';
import type { FakeSockets, TickInput } from './sockets';
import type { OrderRequestLog } from '../faults';

/** Faults the next order API calls (place, modify, cancel) answer with. */
export type FakeUpstoxFault =
  | 'rate_limited'
  | 'server_error'
  | 'token_expired'
  | 'ip_not_allowed'
  | 'market_blocked'
  /** 400 UDAPI1159: a limit outside the protection band */
  | 'price_out_of_range'
  /** the order is placed but the answer, and its stream updates, never come (placement only) */
  | 'timeout_placed';

export interface FakeUpstoxOptions {
  readonly apiKey?: string;
  readonly apiSecret?: string;
  readonly userId?: string;
  readonly userName?: string;
  /** the master's rows; default: NIFTY options of 1 Dec 2026 at 23950/24000/24050 and rows to skip */
  readonly instruments?: readonly UpstoxInstrumentRow[];
  readonly now?: () => number;
  /** order API calls per second before 429 (Upstox: 10) */
  readonly ordersPerSecond?: number;
}

export interface FakeUpstoxRequest {
  readonly host: 'api' | 'orders';
  readonly method: string;
  readonly path: string;
  readonly query: string;
  readonly body: string;
}

export interface FakeUpstox {
  /** API root: login, order queries, portfolio, feeds, instruments */
  readonly url: string;
  /** orders root (the api-hft host): place, modify, cancel */
  readonly ordersUrl: string;
  /** the dialog URL to configure as the login URL */
  readonly loginUrl: string;
  readonly apiKey: string;
  readonly apiSecret: string;
  readonly userId: string;
  readonly userName: string;
  readonly book: FakeOrderBook;
  readonly sockets: FakeSockets;
  readonly requests: readonly FakeUpstoxRequest[];
  /** order API calls refused with 429 by the fake's own rate limit */
  readonly rateLimited: number;
  /** the fake's hosts as a broker module's endpoints */
  readonly endpoints: {
    apiRoot: string;
    loginUrl: string;
    wsRoot: string;
    ordersRoot: string;
    masterRoot: string;
  };
  /** a valid access token for the user, without the login dance */
  issueToken(): string;
  /** a logged-in session (a fresh token) valid for an hour, without the login dance */
  session(): { accessToken: string; expiresAt: number; accountId: string; accountName: string };
  failNext(fault: FakeUpstoxFault, count?: number): void;
  /** the next placed order is rejected by the RMS (`rejected` after acceptance) */
  rejectNext(message?: string): void;
  /** the next placed order fills `quantity` (default half of it) at once and stays open for the rest */
  partialNext(quantity?: number): void;
  /** every order write received (place, modify, cancel), refused ones included, on the fake's clock */
  readonly orderRequests: OrderRequestLog;
  fill(orderId: string, quantity?: number, price?: number): void;
  /** every token issued so far stops working (401 UDAPI100050), as at 03:30 IST */
  expireTokens(): void;
  /** sends a market feed frame for an instrument key to subscribed connections; returns how many got it */
  tick(instrumentKey: string, input: TickInput): number;
  order(orderId: string): FakeUpstoxOrder | undefined;
  orderByTag(tag: string): FakeUpstoxOrder | undefined;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

export async function startFakeUpstox(options: FakeUpstoxOptions = {}): Promise<FakeUpstox> {
  const state = new FakeState(options);
  const serve = (host: 'api' | 'orders') =>
    createServer((req, res) => {
      void readBody(req).then(async (body) => {
        const url = new URL(req.url ?? '/', 'http://fake');
        state.requests.push({
          host,
          method: req.method ?? 'GET',
          path: url.pathname,
          query: url.search,
          body,
        });
        await handle({ state, req, res, url, body }, host);
      });
    });
  const api = serve('api');
  const orders = serve('orders');
  const url = await listen(api);
  const ordersUrl = await listen(orders);
  state.setWsBase(url.replace('http://', 'ws://'));
  api.on('upgrade', (req, socket, head: Buffer) => state.sockets.handleUpgrade(req, socket, head));
  return {
    url,
    ordersUrl,
    loginUrl: `${url}/v2/login/authorization/dialog`,
    apiKey: state.apiKey,
    apiSecret: state.apiSecret,
    userId: state.userId,
    userName: state.userName,
    book: state.book,
    sockets: state.sockets,
    requests: state.requests,
    get rateLimited() {
      return state.rateLimited;
    },
    endpoints: {
      apiRoot: url,
      loginUrl: `${url}/v2/login/authorization/dialog`,
      wsRoot: url,
      ordersRoot: ordersUrl,
      // The fake serves the instrument master on its API host.
      masterRoot: url,
    },
    issueToken: () => state.issueToken(),
    session: () => ({
      accessToken: state.issueToken(),
      expiresAt: state.now() + 3_600_000,
      accountId: state.userId,
      accountName: state.userName,
    }),
    failNext: (fault, count = 1) => {
      for (let i = 0; i < count; i += 1) state.faults.push(fault);
    },
    rejectNext: (message = 'Insufficient funds') => void state.rejections.push(message),
    partialNext: (quantity) => void state.partials.push(quantity ?? 'half'),
    orderRequests: state.orderRequests,
    fill: (orderId, quantity, price) => void state.book.fill(orderId, quantity, price),
    expireTokens: () => state.tokens.clear(),
    tick: (key, input) => state.sockets.tick(key, input),
    order: (orderId) => state.book.orders.get(orderId),
    orderByTag: (tag) => [...state.book.orders.values()].find((o) => o.current.tag === tag),
    async close() {
      state.sockets.close();
      for (const server of [api, orders]) {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    },
  };
}
