// A thin typed client for Angel One's SmartAPI REST (`<ANGELONE_API_ROOT>/rest/…`), over the adapters' shared
// keep-alive transport (../brokerHttp.ts). Not the official `smartapi-javascript`: it resolves every non-200 answer
// with the body dropped (so Angel's error code is lost), sends `X-ClientLocalIP` / `X-ClientPublicIP` empty (they
// are filled asynchronously after the first request), looks the public IP up on the internet when constructed and
// writes request headers and bodies — MPIN and TOTP included — to `error.log` in the working directory.
//
// Every answer is Angel's envelope `{status, message, errorcode, data}` (status sometimes the string "false", data
// sometimes the string "null"); the API gateway's own refusals use `{success, message, errorCode, data}` instead
// (AG8001 invalid token, AG7002 unregistered IP), with HTTP 200, 401 or 403. Both are read here; the code decides,
// never the message text. The gateway answers its rate limit with 403 and a plain-text body (no envelope).
import type { ZodType } from 'zod';
import { BrokerError, classifyBrokerFailure, isBrokerError, type BrokerCodeTable } from '@optionpilot/engine';
import { HttpNoAnswer, sendHttp, type HttpAnswer } from '../brokerHttp';

/** The code this client gives the gateway's plain-text 403 (its rate limit): Angel sends no code of its own. */
export const ANGEL_ACCESS_RATE_CODE = 'ACCESS_RATE';

/**
 * Angel's error codes → kinds (SmartAPI docs' exception table; AG7002 from Angel's answers since the static-IP
 * rule). Codes not listed fall back to the HTTP status, then to `rejected` (answered) / `network` (5xx, no answer).
 */
export const ANGEL_ERROR_KINDS: BrokerCodeTable = {
  AG8001: 'auth_expired', // invalid token (also Angel's midnight logout)
  AG8002: 'auth_expired', // token expired
  AG8003: 'auth_expired', // token missing
  AB8050: 'auth_expired', // invalid refresh token
  AB8051: 'auth_expired', // refresh token expired
  AB1010: 'auth_expired', // AMX session expired
  AB1011: 'auth_expired', // client not logged in
  AG7002: 'ip_not_allowed', // "Access denied: Unregistered IP address" (order APIs, since 1 Apr 2026)
  [ANGEL_ACCESS_RATE_CODE]: 'rate_limited',
  // Angel's own failures: the request may or may not have been acted on (a placement is resolved by asking).
  AB1004: 'network', // something went wrong, try after some time
  AB2000: 'network', // error not specified
  AB2001: 'network', // internal error
  AB1000: 'rejected', // invalid e-mail or password
  AB1001: 'rejected',
  AB1002: 'rejected',
  AB1005: 'rejected', // user type must be USER
  AB1006: 'rejected', // client blocked for trading
  AB1007: 'rejected', // AMX error / invalid login / invalid parameters
  AB1008: 'rejected', // invalid order variety
  AB1009: 'rejected', // symbol not found
  AB1012: 'rejected', // invalid product type
  AB1013: 'rejected', // order not found (getOrder answers "no such order" before this table)
  AB1018: 'rejected', // failed to get symbol details
  AB1031: 'rejected',
  AB1032: 'rejected', // user not found
  AB1050: 'rejected', // invalid TOTP
  AB2002: 'rejected', // ROBO order blocked
  AB2020: 'rejected', // insufficient funds
  AB4008: 'rejected', // ordertag of 20 characters or more
};

/** Angel's "order not found". */
export const ANGEL_ORDER_NOT_FOUND = 'AB1013';

export interface AngelHttpOptions {
  readonly apiRoot: string;
  /** the trader's SmartAPI app key (`X-PrivateKey`) */
  readonly apiKey: string;
  /** the session's JWT; absent only for the login call */
  readonly jwt?: string;
  /** the server's static egress IP (EGRESS_IP): `X-ClientLocalIP` and `X-ClientPublicIP` carry it */
  readonly egressIp?: string;
  /** `X-MACAddress` */
  readonly macAddress: string;
  readonly timeoutMs?: number;
  /** Angel refused the JWT: the session has ended (logged out, or the midnight logout came) */
  readonly onAuthExpired?: () => void;
}

export interface AngelRequest<T> {
  readonly method: 'GET' | 'POST';
  /** the documented path, e.g. `/rest/secure/angelbroking/order/v1/placeOrder` */
  readonly path: string;
  readonly body?: Readonly<Record<string, string>>;
  /** the envelope's `data` */
  readonly schema: ZodType<T>;
}

interface Envelope {
  readonly ok: boolean;
  readonly code: string | undefined;
  readonly data: unknown;
}

/** Angel's envelope, in either spelling; undefined for a body that is not one (HTML, plain text). */
export function readEnvelope(text: string): Envelope | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const b = body as Record<string, unknown>;
  if (!('status' in b) && !('success' in b)) return undefined;
  const flag = 'status' in b ? b.status : b.success;
  const rawCode = typeof b.errorcode === 'string' ? b.errorcode : b.errorCode;
  return {
    ok: flag === true || flag === 'true',
    code: typeof rawCode === 'string' && rawCode.trim() !== '' ? rawCode.trim() : undefined,
    data: b.data === 'null' ? null : b.data,
  };
}

/** The typed failure of a call; the message names the code, never Angel's text (it may echo request data). */
export function angelFailure(input: {
  httpStatus?: number;
  code?: string;
  systemCode?: string;
}): BrokerError {
  const label = input.code ?? input.systemCode ?? `HTTP ${input.httpStatus ?? '?'}`;
  return classifyBrokerFailure(
    {
      broker: 'angelone',
      code: input.code,
      httpStatus: input.httpStatus,
      systemCode: input.systemCode,
      message: `angelone ${label}`,
    },
    ANGEL_ERROR_KINDS,
  );
}

/** A success answer we cannot read: whatever Angel did is unknown (a placement is resolved by asking). */
function unreadable(): BrokerError {
  return new BrokerError('network', 'BAD_RESPONSE', 'angelone answer not understood', 'angelone');
}

const REST_TIMEOUT_MS = 10_000;

export class AngelHttp {
  /** The headers every SmartAPI call carries (Angel documents them as required), built once per session. */
  private readonly fixedHeaders: Readonly<Record<string, string>>;

  constructor(private readonly options: AngelHttpOptions) {
    // Angel identifies the caller's machine by these; it checks the static IP on the connection itself, so they
    // say what the operator declared (EGRESS_IP), or loopback when nothing was declared.
    const ip = options.egressIp ?? '127.0.0.1';
    this.fixedHeaders = {
      'Content-Type': 'application/json',
      Accept: 'application/json',
      'X-UserType': 'USER',
      'X-SourceID': 'WEB',
      'X-ClientLocalIP': ip,
      'X-ClientPublicIP': ip,
      'X-MACAddress': options.macAddress,
      'X-PrivateKey': options.apiKey,
      ...(options.jwt === undefined ? {} : { Authorization: `Bearer ${options.jwt}` }),
    };
  }

  headers(): Readonly<Record<string, string>> {
    return this.fixedHeaders;
  }

  /** Calls SmartAPI and returns the validated `data`; throws a `BrokerError` on any failure. */
  async request<T>(request: AngelRequest<T>): Promise<T> {
    try {
      return await this.send(request);
    } catch (error) {
      if (isBrokerError(error) && error.kind === 'auth_expired') this.options.onAuthExpired?.();
      throw error;
    }
  }

  private async send<T>(request: AngelRequest<T>): Promise<T> {
    let answer: HttpAnswer;
    try {
      answer = await sendHttp({
        method: request.method,
        url: `${this.options.apiRoot}${request.path}`,
        headers: this.headers(),
        body: request.body === undefined ? undefined : JSON.stringify(request.body),
        timeoutMs: this.options.timeoutMs ?? REST_TIMEOUT_MS,
      });
    } catch (error) {
      throw angelFailure({ systemCode: error instanceof HttpNoAnswer ? error.code : 'ECONNRESET' });
    }
    const envelope = readEnvelope(answer.text);
    const success = answer.status >= 200 && answer.status <= 299;
    if (envelope === undefined) {
      if (answer.status === 403) throw angelFailure({ httpStatus: 403, code: ANGEL_ACCESS_RATE_CODE });
      // A 2xx that is not an envelope leaves the outcome unknown, like a dropped connection.
      throw success ? unreadable() : angelFailure({ httpStatus: answer.status });
    }
    if (!success || !envelope.ok) throw angelFailure({ httpStatus: answer.status, code: envelope.code });
    const parsed = request.schema.safeParse(envelope.data);
    if (!parsed.success) {
      // Angel answered success in a shape we cannot read: what it did is unknown.
      throw unreadable();
    }
    return parsed.data;
  }
}
