// The fake Upstox's endpoints, by host. Order writes (v3 place/modify/cancel) exist only on the orders host, as at
// Upstox (api-hft), so an adapter that sends them to the API root fails visibly.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import { answerFault, INVALID, refuse, send } from './state';
import type { FakeState } from './state';

interface Ctx {
  readonly state: FakeState;
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly url: URL;
  readonly body: string;
}

const ORDER_TYPES = new Set(['MARKET', 'LIMIT', 'SL', 'SL-M']);
/** The order host's routes, by the kind of order write each is. */
const ORDER_WRITES: Readonly<Record<string, 'place' | 'modify' | 'cancel'>> = {
  'POST /v3/order/place': 'place',
  'PUT /v3/order/modify': 'modify',
  'DELETE /v3/order/cancel': 'cancel',
};

function json(body: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(body);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function dialog({ state, res, url }: Ctx): void {
  const redirectUri = url.searchParams.get('redirect_uri');
  if (
    url.searchParams.get('client_id') !== state.apiKey ||
    !redirectUri ||
    url.searchParams.get('response_type') !== 'code'
  ) {
    refuse(res, 400, 'UDAPI100068', 'Check your client_id and redirect_uri');
    return;
  }
  // The trader logs in and approves: Upstox sends the browser back with a single-use code and the state.
  const code = randomBytes(4).toString('hex');
  state.codes.set(code, { redirectUri });
  const back = new URL(redirectUri);
  back.searchParams.set('code', code);
  const st = url.searchParams.get('state');
  if (st !== null) back.searchParams.set('state', st);
  res.writeHead(302, { location: back.toString() });
  res.end();
}

function token({ state, res, body }: Ctx): void {
  const form = new URLSearchParams(body);
  const code = form.get('code') ?? '';
  const grant = state.codes.get(code);
  state.codes.delete(code); // single-use even when the exchange fails
  if (
    grant === undefined ||
    form.get('client_id') !== state.apiKey ||
    form.get('client_secret') !== state.apiSecret ||
    form.get('redirect_uri') !== grant.redirectUri ||
    form.get('grant_type') !== 'authorization_code'
  ) {
    refuse(res, 401, 'UDAPI100016', 'Invalid Credentials');
    return;
  }
  // Not wrapped in { status, data }.
  send(res, 200, {
    email: 'asha@example.com',
    exchanges: ['NSE', 'NFO', 'BSE', 'BFO'],
    products: ['D', 'I', 'CO', 'MTF'],
    broker: 'UPSTOX',
    user_id: state.userId,
    user_name: state.userName,
    order_types: ['MARKET', 'LIMIT', 'SL', 'SL-M'],
    user_type: 'individual',
    poa: false,
    ddpi: false,
    is_active: true,
    access_token: state.issueToken(),
    extended_token: null,
  });
}

function place(ctx: Ctx, userId: string): void {
  const { state, res } = ctx;
  const b = json(ctx.body);
  const quantity = b?.quantity;
  if (b === undefined || typeof quantity !== 'number' || !Number.isInteger(quantity) || quantity <= 0) {
    refuse(res, 400, INVALID, 'Invalid quantity', 'quantity');
    return;
  }
  if (typeof b.tag === 'string' && b.tag.length > 40) {
    refuse(res, 400, 'UDAPI1119', 'Tag length cannot exceed 40 characters', 'tag');
    return;
  }
  const instrument = state.instrument(String(b.instrument_token));
  if (instrument === undefined) {
    refuse(res, 400, INVALID, 'Invalid instrument_token', 'instrument_token');
    return;
  }
  const orderType = String(b.order_type);
  if (!ORDER_TYPES.has(orderType) || (b.transaction_type !== 'BUY' && b.transaction_type !== 'SELL')) {
    refuse(res, 400, INVALID, 'Invalid order_type or transaction_type', 'order_type');
    return;
  }
  if (orderType === 'MARKET' || orderType === 'SL-M') {
    refuse(res, 400, 'UDAPI1158', 'Market orders are not allowed');
    return;
  }
  const fault = answerFault(state, res, true);
  if (fault !== 'none' && fault !== 'timeout_placed') return;
  const freeze = Number(instrument.freeze_quantity ?? quantity);
  const legs: number[] = [];
  for (let rest = quantity; rest > 0; rest -= freeze)
    legs.push(b.slice === true ? Math.min(rest, freeze) : rest);
  if (b.slice !== true) legs.splice(1);
  // A lost answer is a network cut: the placement's stream updates are lost with it.
  state.sockets.muted = fault === 'timeout_placed';
  const ids = legs.map((legQuantity) => {
    const order = state.book.place({
      userId,
      instrumentKey: String(b.instrument_token),
      tradingSymbol: String(instrument.trading_symbol),
      product: String(b.product),
      orderType,
      side: b.transaction_type as 'BUY' | 'SELL',
      quantity: legQuantity,
      price: Number(b.price ?? 0),
      triggerPrice: Number(b.trigger_price ?? 0),
      validity: String(b.validity ?? 'DAY'),
      tag: typeof b.tag === 'string' ? b.tag : null,
    });
    const id = order.current.order_id;
    const rejection = state.rejections.shift();
    if (rejection !== undefined)
      state.book.update(id, { status: 'rejected', status_message: rejection, status_message_raw: rejection });
    else {
      const partial = state.partials.shift();
      if (partial !== undefined)
        state.book.fill(id, partial === 'half' ? Math.floor(legQuantity / 2) : partial);
    }
    return id;
  });
  state.sockets.muted = false;
  // The order exists, but the answer is lost: the client times out and must ask by tag.
  if (fault === 'timeout_placed') return;
  send(res, 200, { status: 'success', data: { order_ids: ids }, metadata: { latency: 12 } });
}

function modify(ctx: Ctx): void {
  const { state, res } = ctx;
  const b = json(ctx.body);
  const orderId = String(b?.order_id ?? '');
  if (b === undefined || !state.book.orders.has(orderId)) {
    refuse(res, 400, 'UDAPI100010', 'Unknown order id', 'order_id');
    return;
  }
  if (state.book.isTerminal(orderId)) {
    refuse(res, 400, 'UDAPI100041', 'Order cannot be modified as it is already in a final state');
    return;
  }
  if (answerFault(state, res, false) !== 'none') return;
  const orderType = String(b.order_type);
  if (orderType === 'MARKET' || orderType === 'SL-M') {
    refuse(res, 400, 'UDAPI1158', 'Market orders are not allowed');
    return;
  }
  const current = state.book.orders.get(orderId)?.current;
  state.book.update(orderId, {
    quantity: typeof b.quantity === 'number' ? b.quantity : current?.quantity,
    price: Number(b.price ?? 0),
    trigger_price: Number(b.trigger_price ?? 0),
    order_type: orderType,
    status: orderType === 'SL' ? 'trigger pending' : 'open',
  });
  send(res, 200, { status: 'success', data: { order_id: orderId }, metadata: { latency: 9 } });
}

function cancel({ state, res, url }: Ctx): void {
  const orderId = url.searchParams.get('order_id') ?? '';
  if (!state.book.orders.has(orderId)) {
    refuse(res, 400, 'UDAPI100010', 'Unknown order id', 'order_id');
    return;
  }
  if (state.book.isTerminal(orderId)) {
    refuse(res, 400, 'UDAPI100040', 'Order cannot be cancelled as it is already in a final state');
    return;
  }
  if (answerFault(state, res, false) !== 'none') return;
  state.book.update(orderId, { status: 'cancelled', status_message: 'Cancelled by user' });
  send(res, 200, { status: 'success', data: { order_id: orderId }, metadata: { latency: 8 } });
}

function details({ state, res, url }: Ctx, userId: string): void {
  const order = state.book.orders.get(url.searchParams.get('order_id') ?? '');
  if (order === undefined || order.userId !== userId) {
    refuse(res, 404, 'UDAPI100010', 'Unknown order id', 'order_id');
    return;
  }
  send(res, 200, { status: 'success', data: order.current });
}

function history({ state, res, url }: Ctx, userId: string): void {
  const orderId = url.searchParams.get('order_id');
  const tag = url.searchParams.get('tag');
  const mine = state.book.ofUser(userId);
  if (orderId !== null) {
    const order = mine.find((o) => o.current.order_id === orderId);
    if (order === undefined) refuse(res, 404, 'UDAPI100010', 'Unknown order id', 'order_id');
    else send(res, 200, { status: 'success', data: order.history });
    return;
  }
  if (tag === null) {
    refuse(res, 400, INVALID, 'order_id or tag is required', 'order_id');
    return;
  }
  send(res, 200, {
    status: 'success',
    data: mine.filter((o) => o.current.tag === tag).flatMap((o) => o.history),
  });
}

/** Routes one request; every call except the dialog, the token exchange and the master needs a valid token. */
export async function handle(ctx: Ctx, host: 'api' | 'orders'): Promise<void> {
  const { state, req, res, url } = ctx;
  const route = `${req.method ?? 'GET'} ${url.pathname}`;
  if (host === 'api' && route === 'GET /v2/login/authorization/dialog') return dialog(ctx);
  if (host === 'api' && route === 'POST /v2/login/authorization/token') return token(ctx);
  if (host === 'api' && route === 'GET /market-quote/instruments/exchange/complete.json.gz') {
    res.writeHead(200, { 'content-type': 'application/gzip' });
    res.end(state.masterGzip());
    return;
  }
  // The assets host needs no token; it answers 404 for any other file.
  if (host === 'api' && url.pathname.startsWith('/market-quote/'))
    return refuse(res, 404, 'UDAPI100060', 'Resource not Found');
  const userId = state.userOf(req);
  if (userId === undefined) {
    return refuse(res, 401, 'UDAPI100050', 'Invalid token used to access API');
  }
  if (host === 'orders') {
    const write = ORDER_WRITES[route];
    if (write === undefined) return refuse(res, 404, 'UDAPI100060', 'Resource not Found');
    state.orderRequests.record(write, userId, state.now());
    if (!state.takeOrderSlot()) {
      state.rateLimited += 1;
      return refuse(res, 429, 'UDAPI10005', 'Too many requests');
    }
    if (write === 'place') return place(ctx, userId);
    if (write === 'modify') return modify(ctx);
    return cancel(ctx);
  }
  switch (route) {
    case 'GET /v2/order/details':
      return details(ctx, userId);
    case 'GET /v2/order/history':
      return history(ctx, userId);
    case 'GET /v2/order/retrieve-all':
      return send(res, 200, { status: 'success', data: state.book.ofUser(userId).map((o) => o.current) });
    case 'GET /v2/user/profile':
      return send(res, 200, {
        status: 'success',
        data: { user_id: userId, user_name: state.userName, broker: 'UPSTOX', is_active: true },
      });
    case 'GET /v2/portfolio/short-term-positions':
      return send(res, 200, { status: 'success', data: state.book.positions(userId) });
    case 'GET /v2/feed/portfolio-stream-feed/authorize':
    case 'GET /v3/feed/market-data-feed/authorize': {
      const uri = state.sockets.authorize(route.includes('portfolio') ? 'portfolio' : 'market', userId);
      return send(res, 200, {
        status: 'success',
        data: { authorized_redirect_uri: uri, authorizedRedirectUri: uri },
      });
    }
    default:
      return refuse(res, 404, 'UDAPI100060', 'Resource not Found');
  }
}
