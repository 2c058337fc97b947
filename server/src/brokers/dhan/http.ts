// A thin typed client for Dhan's v2 REST API (`<DHAN_API_ROOT>/v2/…`) over the adapters' shared keep-alive
// transport (../brokerHttp.ts). Every call carries the session's `access-token` (and `client-id`, which the order and
// portfolio calls document); bodies are JSON. A success answer is the bare JSON object or array (no envelope); a
// failure is `{errorType, errorCode: "DH-9xx", errorMessage}` with a 4xx/5xx status. The code decides the kind,
// never the message text.
import type { ZodType } from 'zod';
import { BrokerError, classifyBrokerFailure, isBrokerError, type BrokerCodeTable } from '@optionpilot/engine';
import { HttpNoAnswer, sendHttp, type HttpAnswer } from '../brokerHttp';

/**
 * Dhan's trading-API error codes → kinds (Dhan v2 docs, "Annexure → Trading API error"). DH-905 / DH-906 are
 * Dhan's refusals of the request itself (nothing was placed); DH-908 / DH-909 leave the outcome unknown.
 */
export const DHAN_ERROR_KINDS: BrokerCodeTable = {
  'DH-901': 'auth_expired', // invalid authentication: client id or access token invalid or expired
  'DH-902': 'rejected', // invalid access: not subscribed to the API (data APIs) or no trading access
  'DH-903': 'rejected', // user account issue (segment not active, …)
  'DH-904': 'rate_limited', // too many requests
  'DH-905': 'rejected', // input exception: missing or bad fields
  'DH-906': 'rejected', // order error: the order request is incorrect or cannot be processed
  'DH-907': 'rejected', // data error
  'DH-908': 'network', // internal server error
  'DH-909': 'network', // network error between Dhan's systems
  'DH-910': 'rejected', // other
  'DH-911': 'ip_not_allowed', // the request came from an IP not whitelisted for the account (order APIs)
};

export interface DhanHttpOptions {
  readonly apiRoot: string;
  readonly accessToken: string;
  /** the Dhan client id (`client-id` header) */
  readonly clientId: string;
  readonly timeoutMs?: number;
  /** Dhan refused the token: the session has ended (24 h passed, or it was revoked) */
  readonly onAuthExpired?: () => void;
}

export interface DhanRequest<T> {
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** the documented path, e.g. `/v2/orders` (with its query, when it has one) */
  readonly path: string;
  readonly body?: Readonly<Record<string, unknown>>;
  readonly schema: ZodType<T>;
}

/** The `errorCode` of a failure body, or undefined for anything else (HTML, plain text, a success shape). */
export function dhanErrorCode(text: string): string | undefined {
  try {
    const body = JSON.parse(text) as unknown;
    if (typeof body !== 'object' || body === null) return undefined;
    const code = (body as { errorCode?: unknown }).errorCode;
    return typeof code === 'string' && code.trim() !== '' ? code.trim() : undefined;
  } catch {
    return undefined;
  }
}

/** The typed failure of a call; the message names the code, never Dhan's text (it may echo request data). */
export function dhanFailure(input: { httpStatus?: number; code?: string; systemCode?: string }): BrokerError {
  const label = input.code ?? input.systemCode ?? `HTTP ${input.httpStatus ?? '?'}`;
  return classifyBrokerFailure(
    {
      broker: 'dhan',
      code: input.code,
      httpStatus: input.httpStatus,
      systemCode: input.systemCode,
      message: `dhan ${label}`,
    },
    DHAN_ERROR_KINDS,
  );
}

const REST_TIMEOUT_MS = 10_000;

/** Sends one call and reads its answer: the validated body, or a `BrokerError`. */
export async function dhanCall<T>(
  call: { method: DhanRequest<T>['method']; url: string; headers: Record<string, string>; body?: string },
  schema: ZodType<T>,
  timeoutMs = REST_TIMEOUT_MS,
): Promise<T> {
  let answer: HttpAnswer;
  try {
    answer = await sendHttp({ ...call, timeoutMs });
  } catch (error) {
    throw dhanFailure({ systemCode: error instanceof HttpNoAnswer ? error.code : 'ECONNRESET' });
  }
  if (answer.status < 200 || answer.status > 299) {
    throw dhanFailure({ httpStatus: answer.status, code: dhanErrorCode(answer.text) });
  }
  let body: unknown;
  try {
    body = answer.text === '' ? {} : JSON.parse(answer.text);
  } catch {
    body = undefined;
  }
  // A 200 carrying an error object (some of Dhan's gateways answer so) is that error.
  const code = dhanErrorCode(answer.text);
  if (code !== undefined) throw dhanFailure({ httpStatus: answer.status, code });
  const parsed = schema.safeParse(body);
  // Dhan answered success in a shape we cannot read: what it did is unknown (a placement is resolved by asking).
  if (!parsed.success) throw new BrokerError('network', 'BAD_RESPONSE', 'dhan answer not understood', 'dhan');
  return parsed.data;
}

export class DhanHttp {
  private readonly headers: Readonly<Record<string, string>>;

  constructor(private readonly options: DhanHttpOptions) {
    this.headers = {
      'Content-Type': 'application/json',
      Accept: 'application/json',
      'access-token': options.accessToken,
      'client-id': options.clientId,
    };
  }

  get clientId(): string {
    return this.options.clientId;
  }

  /** Calls Dhan and returns the validated body; throws a `BrokerError` on any failure. */
  async request<T>(request: DhanRequest<T>): Promise<T> {
    try {
      return await dhanCall(
        {
          method: request.method,
          url: `${this.options.apiRoot}${request.path}`,
          headers: { ...this.headers },
          ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
        },
        request.schema,
        this.options.timeoutMs,
      );
    } catch (error) {
      if (isBrokerError(error) && error.kind === 'auth_expired') this.options.onAuthExpired?.();
      throw error;
    }
  }
}
