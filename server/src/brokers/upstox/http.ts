// A thin typed HTTP client for Upstox's REST API. Why not the official `upstox-js-sdk`: its `ApiClient` is a
// process-wide singleton holding one access token (we serve one session per trader), its WebSocket feeders
// hard-code wss://api.upstox.com (the fakes could not stand in), it ships no TypeScript types and it loads the feed
// `.proto` asynchronously per connection. Upstox's wire format is small and documented, so we speak it directly,
// through the adapters' shared keep-alive transport (../brokerHttp.ts).
import { classifyBrokerFailure } from '@optionpilot/engine';
import type { BrokerCodeTable, BrokerError } from '@optionpilot/engine';
import { HttpNoAnswer, sendHttp, type HttpAnswer } from '../brokerHttp';

/**
 * Upstox error codes → kinds (DOMAIN.md §3). Codes are read from the error body, never from its message text.
 * UDAPI100010 ("unknown order id") is rejected here; `getOrder` treats it as "no such order" before this table.
 */
export const UPSTOX_ERROR_CODES: BrokerCodeTable = {
  UDAPI100050: 'auth_expired', // invalid or expired token (tokens end at 03:30 IST)
  UDAPI100067: 'auth_expired', // the extended token may not call this API
  UDAPI10005: 'rate_limited', // order-rate limit (no Retry-After)
  UDAPI100099: 'rate_limited', // token API rate limit
  UDAPI1154: 'ip_not_allowed', // static IP not registered (order APIs only)
  UDAPI1119: 'rejected', // tag longer than 40 characters
  UDAPI1158: 'rejected', // market orders blocked
  UDAPI1159: 'rejected', // market protection out of range
  UDAPI100010: 'rejected', // unknown order id
  UDAPI100040: 'rejected', // cancel of an order already in a final state
  UDAPI100041: 'rejected', // modify of an order already in a final state
  UDAPI100016: 'rejected', // invalid credentials / auth code at the token exchange
};

/** Upstox's "order not found" code. */
export const ORDER_NOT_FOUND_CODE = 'UDAPI100010';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface UpstoxRequest {
  readonly method: HttpMethod;
  /** full URL including the query */
  readonly url: string;
  readonly accessToken?: string;
  /** JSON body */
  readonly json?: unknown;
  /** application/x-www-form-urlencoded body */
  readonly form?: Readonly<Record<string, string>>;
  /** the adapter's own ceiling; the order router races every call against its shorter timeout anyway */
  readonly timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 15_000;

/** The first error code of an Upstox error body (`errorCode` or `error_code`; both spellings occur). */
export function upstoxErrorCode(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const errors = (body as { errors?: unknown }).errors;
  if (!Array.isArray(errors)) return undefined;
  const first: unknown = errors[0];
  if (typeof first !== 'object' || first === null) return undefined;
  const { errorCode, error_code } = first as { errorCode?: unknown; error_code?: unknown };
  if (typeof errorCode === 'string') return errorCode;
  return typeof error_code === 'string' ? error_code : undefined;
}

/** Builds the typed failure for a refused or failed call; the message never includes the broker's raw text. */
export function upstoxFailure(props: {
  httpStatus?: number;
  body?: unknown;
  systemCode?: string;
}): BrokerError {
  const code = upstoxErrorCode(props.body);
  return classifyBrokerFailure(
    {
      broker: 'upstox',
      code,
      httpStatus: props.httpStatus,
      systemCode: props.systemCode,
      message: `upstox ${code ?? props.systemCode ?? `HTTP ${props.httpStatus ?? '?'}`}`,
    },
    UPSTOX_ERROR_CODES,
  );
}

/**
 * Sends one request and returns the parsed JSON body of a 2xx answer. Anything else throws a `BrokerError`
 * classified by Upstox's error code, then the HTTP status, then the system error code.
 */
export async function upstoxRequest(request: UpstoxRequest): Promise<unknown> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (request.accessToken !== undefined) headers.Authorization = `Bearer ${request.accessToken}`;
  let body: string | undefined;
  if (request.form !== undefined) {
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(request.form).toString();
  } else if (request.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(request.json);
  }
  let answer: HttpAnswer;
  try {
    answer = await sendHttp({
      method: request.method,
      url: request.url,
      headers,
      body,
      timeoutMs: request.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    });
  } catch (error) {
    throw upstoxFailure({ systemCode: error instanceof HttpNoAnswer ? error.code : 'ECONNRESET' });
  }
  const ok = answer.status >= 200 && answer.status <= 299;
  let parsed: unknown;
  try {
    parsed = answer.text === '' ? undefined : JSON.parse(answer.text);
  } catch {
    // A 2xx whose body is not JSON leaves the outcome unknown, like a dropped connection.
    if (ok) throw upstoxFailure({ systemCode: 'ECONNRESET' });
    parsed = undefined;
  }
  if (!ok) throw upstoxFailure({ httpStatus: answer.status, body: parsed });
  return parsed;
}
