// A thin typed client for Groww's Trade API (`<GROWW_API_ROOT>/v1/…`) over the adapters' shared keep-alive
// transport (../brokerHttp.ts): Groww has no official Node client. Every call carries `Authorization: Bearer <token>`
// (the access token; the API key for the token call itself), `Accept: application/json` and `X-API-VERSION: 1.0`.
//
// Answers are `{status: "SUCCESS", payload}` with HTTP 200, or `{status: "FAILURE", error: {code, message}}` with a
// 4xx / 5xx. Groww's documented codes are few (GA000–GA007) and none names an expired token, a refused IP or a rate
// limit, so the HTTP status decides those (the official SDK's exceptions are per status: 401 authentication, 403
// authorisation, 429 rate limit, 504 timeout). Codes decide, never message text.
import type { ZodType } from 'zod';
import { BrokerError, classifyBrokerFailure, isBrokerError, type BrokerCodeTable } from '@optionpilot/engine';
import { HttpNoAnswer, sendHttp, type HttpAnswer } from '../brokerHttp';

/**
 * The code this client gives a 403 on an order call (create / modify / cancel). Groww documents no code for an
 * unregistered IP; SEBI's static-IP rule applies to order calls only, and reads work from any IP, so a 403 there
 * is taken as the IP refusal (**verify** against a live account). A 403 on a read stays `rejected`.
 */
export const GROWW_ORDER_FORBIDDEN = 'ORDER_FORBIDDEN';

/** Groww's error codes (curl docs, "Error Codes") → kinds; statuses decide when the code is not listed. */
export const GROWW_ERROR_KINDS: BrokerCodeTable = {
  GA000: 'network', // internal error: what Groww did is unknown (a placement is resolved by asking)
  GA001: 'rejected', // bad request
  GA003: 'network', // unable to serve request currently
  GA004: 'rejected', // requested entity does not exist
  GA006: 'rejected', // cannot process this request
  // An order with this reference id exists already: this placement's earlier attempt got through. Unknown rather
  // than refused, so the router finds that order by its reference instead of calling it rejected.
  GA007: 'network',
  [GROWW_ORDER_FORBIDDEN]: 'ip_not_allowed',
};

/** Groww's "requested entity does not exist". */
export const GROWW_NOT_FOUND = 'GA004';

export interface GrowwHttpOptions {
  readonly apiRoot: string;
  /** the session's access token; for the token call, the trader's API key */
  readonly bearer: string;
  readonly timeoutMs?: number;
  /** Groww refused the token (401): the session has ended (revoked, or the 06:00 IST expiry came) */
  readonly onAuthExpired?: () => void;
}

export interface GrowwRequest<T> {
  readonly method: 'GET' | 'POST';
  /** the documented path, e.g. `/v1/order/create` */
  readonly path: string;
  readonly query?: Readonly<Record<string, string>>;
  readonly body?: unknown;
  /** the `payload` (or, for the token call, the whole body) */
  readonly schema: ZodType<T>;
  /** create / modify / cancel: the calls SEBI's static-IP rule covers */
  readonly orderCall?: boolean;
}

/** The typed failure of a call; the message names the code, never Groww's text (it may echo request data). */
export function growwFailure(input: {
  httpStatus?: number;
  code?: string;
  systemCode?: string;
}): BrokerError {
  const label = input.code ?? input.systemCode ?? `HTTP ${input.httpStatus ?? '?'}`;
  return classifyBrokerFailure(
    {
      broker: 'groww',
      code: input.code,
      httpStatus: input.httpStatus,
      systemCode: input.systemCode,
      message: `groww ${label}`,
    },
    GROWW_ERROR_KINDS,
  );
}

interface Body {
  readonly ok: boolean;
  readonly code: string | undefined;
  readonly payload: unknown;
}

/** Groww's envelope; a JSON object without one is taken whole (the token call answers bare). */
export function readBody(text: string): Body | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const b = body as Record<string, unknown>;
  if (b.status !== 'SUCCESS' && b.status !== 'FAILURE') return { ok: true, code: undefined, payload: b };
  const error = b.error as { code?: unknown } | null | undefined;
  const code = typeof error?.code === 'string' && error.code.trim() !== '' ? error.code.trim() : undefined;
  return { ok: b.status === 'SUCCESS', code, payload: b.payload };
}

const REST_TIMEOUT_MS = 10_000;

export class GrowwHttp {
  private readonly headers: Readonly<Record<string, string>>;

  constructor(private readonly options: GrowwHttpOptions) {
    this.headers = {
      Accept: 'application/json',
      'Content-Type': 'application/json',
      'X-API-VERSION': '1.0',
      Authorization: `Bearer ${options.bearer}`,
    };
  }

  /** Calls Groww and returns the validated payload; throws a `BrokerError` on any failure. */
  async request<T>(request: GrowwRequest<T>): Promise<T> {
    try {
      return await this.send(request);
    } catch (error) {
      if (isBrokerError(error) && error.kind === 'auth_expired') this.options.onAuthExpired?.();
      throw error;
    }
  }

  private async send<T>(request: GrowwRequest<T>): Promise<T> {
    const query = request.query === undefined ? '' : `?${new URLSearchParams(request.query).toString()}`;
    let answer: HttpAnswer;
    try {
      answer = await sendHttp({
        method: request.method,
        url: `${this.options.apiRoot}${request.path}${query}`,
        headers: this.headers,
        body: request.body === undefined ? undefined : JSON.stringify(request.body),
        timeoutMs: this.options.timeoutMs ?? REST_TIMEOUT_MS,
      });
    } catch (error) {
      throw growwFailure({ systemCode: error instanceof HttpNoAnswer ? error.code : 'ECONNRESET' });
    }
    const success = answer.status >= 200 && answer.status <= 299;
    const body = readBody(answer.text);
    if (success && body?.ok === true) {
      const parsed = request.schema.safeParse(body.payload);
      if (parsed.success) return parsed.data;
    }
    if (success && body?.ok !== false) {
      // A success we cannot read leaves the outcome unknown, like a dropped connection.
      throw new BrokerError('network', 'BAD_RESPONSE', 'groww answer not understood', 'groww');
    }
    const forbiddenOrder = answer.status === 403 && request.orderCall === true;
    throw growwFailure({
      httpStatus: answer.status,
      code: forbiddenOrder ? GROWW_ORDER_FORBIDDEN : body?.code,
    });
  }
}
