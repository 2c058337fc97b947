// The fake Upstox's state (app credentials, auth codes, tokens, orders, queued faults, its own order-rate window)
// and the helpers that answer in Upstox's wire format.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { FakeOrderBook } from './orderBook';
import { niftyOptionRows } from './instrumentRows';
import type { UpstoxInstrumentRow } from './instrumentRows';
import { FakeSockets } from './sockets';
import { OrderRequestLog } from '../faults';
import type { FakeUpstoxFault, FakeUpstoxOptions, FakeUpstoxRequest } from './server';

export function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** Upstox's error body; both spellings of each field occur in Upstox's answers. */
export function refuse(
  res: ServerResponse,
  status: number,
  code: string,
  message: string,
  property?: string,
): void {
  const error = {
    errorCode: code,
    message,
    propertyPath: property ?? null,
    invalidValue: null,
    error_code: code,
    property_path: property ?? null,
    invalid_value: null,
  };
  send(res, status, { status: 'error', errors: [error] });
}

const FAULT_ANSWERS: Record<Exclude<FakeUpstoxFault, 'timeout_placed'>, [number, string, string]> = {
  rate_limited: [429, 'UDAPI10005', 'Too many requests'],
  server_error: [500, 'UDAPI100500', 'Something went wrong'],
  token_expired: [401, 'UDAPI100050', 'Invalid token used to access API'],
  ip_not_allowed: [403, 'UDAPI1154', 'Static IP not registered'],
  market_blocked: [400, 'UDAPI1158', 'Market orders are not allowed'],
  price_out_of_range: [400, 'UDAPI1159', 'Price is outside the market protection range'],
};

// Field-validation answers: Upstox's codes for these are not documented where we could read them, so the fake
// uses a placeholder code (the adapter classifies it by HTTP status: 400 → rejected).
const INVALID = 'FAKE_INVALID_INPUT';

export class FakeState {
  readonly apiKey: string;
  readonly apiSecret: string;
  readonly userId: string;
  readonly userName: string;
  readonly now: () => number;
  readonly tokens = new Map<string, string>();
  readonly codes = new Map<string, { redirectUri: string }>();
  readonly requests: FakeUpstoxRequest[] = [];
  readonly faults: FakeUpstoxFault[] = [];
  readonly rejections: string[] = [];
  readonly partials: Array<number | 'half'> = [];
  /** every place / modify / cancel received (refused ones included), on the fake's clock */
  readonly orderRequests = new OrderRequestLog();

  readonly book: FakeOrderBook;
  readonly sockets: FakeSockets;
  rateLimited = 0;
  private wsBase = '';
  private readonly orderCalls: number[] = [];
  private readonly ordersPerSecond: number;
  private readonly master: Buffer;
  private readonly instruments: Map<string, UpstoxInstrumentRow>;

  constructor(options: FakeUpstoxOptions) {
    this.apiKey = options.apiKey ?? 'upstox-api-key';
    this.apiSecret = options.apiSecret ?? 'upstox-api-secret';
    this.userId = options.userId ?? '7ABCDE';
    this.userName = options.userName ?? 'Asha Trader';
    this.now = options.now ?? Date.now;
    this.ordersPerSecond = options.ordersPerSecond ?? 10;
    const rows = options.instruments ?? niftyOptionRows(['2026-12-01'], [23_950, 24_000, 24_050]);
    this.master = gzipSync(JSON.stringify(rows));
    this.instruments = new Map(rows.map((row) => [String(row.instrument_key), row]));
    this.sockets = new FakeSockets(() => this.wsBase, this.now);
    this.book = new FakeOrderBook(this.now, (order) => this.sockets.pushOrder(order.userId, order.current));
  }

  setWsBase(base: string): void {
    this.wsBase = base;
  }

  issueToken(): string {
    const token = `fake-upstox-${randomBytes(16).toString('hex')}`;
    this.tokens.set(token, this.userId);
    return token;
  }

  userOf(req: IncomingMessage): string | undefined {
    const header = req.headers.authorization ?? '';
    return header.startsWith('Bearer ') ? this.tokens.get(header.slice(7)) : undefined;
  }

  /** True when the user's order calls in the last second are within the limit (then this call counts). */
  takeOrderSlot(): boolean {
    const now = this.now();
    while (this.orderCalls.length > 0 && (this.orderCalls[0] as number) <= now - 1_000)
      this.orderCalls.shift();
    if (this.orderCalls.length >= this.ordersPerSecond) return false;
    this.orderCalls.push(now);
    return true;
  }

  instrument(key: string): UpstoxInstrumentRow | undefined {
    return this.instruments.get(key);
  }

  masterGzip(): Buffer {
    return this.master;
  }
}

/** Answers the next queued fault of an order API call, if any; `timeout_placed` only applies to placement. */
export function answerFault(
  state: FakeState,
  res: ServerResponse,
  placing: boolean,
): FakeUpstoxFault | 'none' {
  const fault = state.faults.shift();
  if (fault === undefined) return 'none';
  if (fault === 'timeout_placed') return placing ? fault : 'none';
  const [status, code, message] = FAULT_ANSWERS[fault];
  refuse(res, status, code, message);
  return fault;
}

export { INVALID };
