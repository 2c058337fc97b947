// A thin typed client for Fyers API v3 over the adapters' shared keep-alive transport (../brokerHttp.ts). Why not
// the official `fyers-api-v3` package: it has no base-URL option (its hosts are constants, so no fake can stand
// in), its `get_orders()` never settles on an HTTP error, and it writes a log file into the working directory on
// every call. Fyers answers every JSON call with the envelope `{ s: "ok" | "error", code, message, … }`; failures
// carry a negative `code`, which (never the message text) decides the `BrokerErrorKind`.
import { BrokerError, classifyBrokerFailure, isBrokerError } from '@optionpilot/engine';
import type { BrokerCodeTable } from '@optionpilot/engine';
import type { ZodType } from 'zod';
import { HttpNoAnswer, sendHttp, type HttpAnswer } from '../brokerHttp';

/**
 * Fyers' error codes → kinds (README.md lists the sources). Token codes end the session; -353 is the API rate
 * limit; order validation and state codes are refusals. -209 / -159 ("not a valid order number") are read by
 * `getOrder` as "no such order" before this table.
 */
export const FYERS_ERROR_CODES: BrokerCodeTable = {
  '-8': 'auth_expired', // token expired
  '-15': 'auth_expired', // invalid token
  '-16': 'auth_expired', // could not authenticate the user (HTTP 401)
  '-17': 'auth_expired', // token invalid or expired
  '-353': 'rate_limited', // API limit exceeded (per second / minute / day)
  '-429': 'rate_limited',
  '-50': 'rejected', // invalid input
  '-99': 'rejected', // order placement refused by the OMS / RMS
  '-101': 'rejected', // invalid order type
  '-159': 'rejected', // no such order
  '-161': 'rejected', // already cancelled
  '-162': 'rejected', // already traded
  '-163': 'rejected', // modify failed
  '-164': 'rejected', // already rejected
  '-209': 'rejected', // invalid order number
  '-308': 'rejected', // invalid limit price
  '-309': 'rejected', // invalid stop price
  '-310': 'rejected', // invalid quantity
  '-313': 'rejected', // invalid side
  '-314': 'rejected', // invalid product type
  '-315': 'rejected', // invalid price for a stop-limit order
  '-326': 'rejected', // invalid validity
  '-371': 'rejected', // wrong appIdHash at validate-authcode
  '-372': 'rejected', // invalid price
  '-373': 'rejected', // the app lacks the permission
  '-374': 'rejected', // invalid or used auth code
  '-390': 'rejected', // invalid stop price
  '-392': 'rejected', // price not a multiple of the tick size
  // Between Fyers and the exchange: the order may or may not have gone through.
  '-201': 'network',
  '-202': 'timeout',
  '-204': 'network',
  '-205': 'network',
  '-96': 'network',
};

/**
 * The static-IP refusal (SEBI rule of 1 Apr 2026). Fyers applies it to order writes only; no public source names
 * its code, so an order write answered HTTP 403 with any code that is not a token code is read as "IP not
 * allowed" (README.md, **verify** against a live refusal).
 */
export const FYERS_IP_REFUSED_STATUS = 403;

/** Fyers' "no such order" codes. */
export const FYERS_ORDER_NOT_FOUND_CODES: ReadonlySet<string> = new Set(['-209', '-159']);

export interface FyersHttpOptions {
  /** `https://api-t1.fyers.in` (paths `/api/v3/…`, `/data/…` are appended) */
  readonly apiRoot: string;
  /** the trader's app id (`XXXXXX-100`) */
  readonly appId: string;
  /** absent only for the login call */
  readonly accessToken?: string;
  readonly timeoutMs?: number;
  /** Fyers refused the access token: the session has ended */
  readonly onAuthExpired?: () => void;
}

export interface FyersRequest<T> {
  readonly method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** path under the API root, with its query */
  readonly path: string;
  readonly json?: unknown;
  /** the success envelope (its `s`, `code` and `message` included) */
  readonly schema: ZodType<T>;
  /** place / modify / cancel: the endpoints the static-IP check applies to */
  readonly orderWrite?: boolean;
}

interface Envelope {
  s?: unknown;
  code?: unknown;
}

/** Builds the `BrokerError` of a failed Fyers call from its codes; the message never carries Fyers' own text. */
export function fyersFailure(props: {
  httpStatus?: number;
  code?: string;
  systemCode?: string;
  orderWrite?: boolean;
}): BrokerError {
  const message = `fyers ${props.code ?? props.systemCode ?? `HTTP ${props.httpStatus ?? '?'}`}`;
  const tokenCode = props.code !== undefined && FYERS_ERROR_CODES[props.code] === 'auth_expired';
  if (props.orderWrite === true && props.httpStatus === FYERS_IP_REFUSED_STATUS && !tokenCode) {
    return new BrokerError('ip_not_allowed', props.code ?? String(FYERS_IP_REFUSED_STATUS), message, 'fyers');
  }
  return classifyBrokerFailure(
    {
      broker: 'fyers',
      // Fyers answers its rate limit with HTTP 429: the status decides (refused before the exchange, safe to
      // send again), whatever code the body has.
      code: props.httpStatus === 429 ? undefined : props.code,
      httpStatus: props.httpStatus,
      systemCode: props.systemCode,
      message,
    },
    FYERS_ERROR_CODES,
  );
}

export class FyersHttp {
  constructor(private readonly options: FyersHttpOptions) {}

  /** The `Authorization` value Fyers wants on every call and socket: `APP_ID:ACCESS_TOKEN`. */
  get authorization(): string {
    return `${this.options.appId}:${this.options.accessToken ?? ''}`;
  }

  /** Calls Fyers and returns the validated envelope; throws a `BrokerError` on any failure. */
  async request<T>(request: FyersRequest<T>): Promise<T> {
    try {
      return await this.send(request);
    } catch (error) {
      if (isBrokerError(error) && error.kind === 'auth_expired') this.options.onAuthExpired?.();
      throw error;
    }
  }

  private async send<T>(request: FyersRequest<T>): Promise<T> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (this.options.accessToken !== undefined) headers.Authorization = this.authorization;
    let body: string | undefined;
    if (request.json !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(request.json);
    }
    let answer: HttpAnswer;
    try {
      answer = await sendHttp({
        method: request.method,
        url: `${this.options.apiRoot}${request.path}`,
        headers,
        body,
        timeoutMs: this.options.timeoutMs ?? 10_000,
      });
    } catch (error) {
      throw fyersFailure({
        systemCode: error instanceof HttpNoAnswer ? error.code : 'ECONNRESET',
        orderWrite: request.orderWrite,
      });
    }
    let envelope: Envelope | undefined;
    try {
      envelope = JSON.parse(answer.text) as Envelope;
    } catch {
      // A proxy's HTML error page: only the status is known.
    }
    const code =
      typeof envelope?.code === 'number' || typeof envelope?.code === 'string'
        ? String(envelope.code)
        : undefined;
    const ok = answer.status >= 200 && answer.status <= 299;
    if (!ok || envelope?.s !== 'ok') {
      if (ok && envelope === undefined) {
        // A 2xx we cannot read leaves the outcome unknown, like a dropped connection.
        throw fyersFailure({ systemCode: 'ECONNRESET', orderWrite: request.orderWrite });
      }
      throw fyersFailure({ httpStatus: answer.status, code, orderWrite: request.orderWrite });
    }
    const parsed = request.schema.safeParse(envelope);
    if (!parsed.success) {
      // Fyers said ok in a shape we do not know: what happened is unknown.
      throw fyersFailure({ systemCode: 'ECONNRESET', orderWrite: request.orderWrite });
    }
    return parsed.data;
  }

  /** GET of a non-JSON resource (the symbol master needs no session). */
  static async text(url: string, timeoutMs = 60_000): Promise<string> {
    let answer: HttpAnswer;
    try {
      answer = await sendHttp({ method: 'GET', url, timeoutMs });
    } catch (error) {
      throw fyersFailure({ systemCode: error instanceof HttpNoAnswer ? error.code : 'ECONNRESET' });
    }
    if (answer.status < 200 || answer.status > 299) throw fyersFailure({ httpStatus: answer.status });
    return answer.text;
  }
}
