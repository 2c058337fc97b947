// A thin typed client for Kite Connect v3's REST API. Chosen over the official `kiteconnect` package because the
// adapter needs what that client hides: the HTTP status next to Kite's `error_type` (a 429 must stay
// `rate_limited`), Node's system error codes for requests that got no answer (their outcome is unknown), a
// per-request timeout, and zod-validated responses instead of untyped objects — and it adds no dependency. The
// requests go through the adapters' shared keep-alive transport (../brokerHttp.ts).
import type { ZodType } from 'zod';
import { HttpNoAnswer, sendHttp, type HttpAnswer, type HttpCall } from '../brokerHttp';
import {
  classifyBrokerFailure,
  isBrokerError,
  type BrokerCodeTable,
  type BrokerError,
} from '@optionpilot/engine';

/** Kite's `error_type` → kind. PermissionException is mapped per endpoint (see `kiteError`). */
export const KITE_ERROR_KINDS: BrokerCodeTable = {
  TokenException: 'auth_expired',
  InputException: 'rejected',
  OrderException: 'rejected',
  MarginException: 'rejected',
  PermissionException: 'rejected',
  UserException: 'rejected',
  // Between Kite and the exchange's order system: the request may or may not have gone through.
  NetworkException: 'network',
  DataException: 'network',
  GeneralException: 'network',
};

/**
 * Since the SEBI static-IP rule (1 Apr 2026) Kite refuses place / modify / cancel from an IP that is not
 * whitelisted in the developer console with a PermissionException; the check applies to those endpoints only, so
 * only there does a PermissionException mean "IP not allowed".
 */
const ORDER_WRITE_KINDS: BrokerCodeTable = { ...KITE_ERROR_KINDS, PermissionException: 'ip_not_allowed' };

export interface KiteHttpOptions {
  readonly apiRoot: string;
  readonly apiKey: string;
  /** absent only for the calls that need no session (`session/token`, instrument dumps) */
  readonly accessToken?: string;
  /** per-request timeout; the order router has its own, shorter one */
  readonly timeoutMs?: number;
  /** Kite refused the access token (TokenException): the session has ended */
  readonly onAuthExpired?: () => void;
}

export interface KiteRequest<T> {
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  readonly path: string;
  readonly form?: Readonly<Record<string, string | number | undefined>>;
  /** the `data` field of a success envelope */
  readonly schema: ZodType<T>;
  /** place / modify / cancel: the endpoints the static-IP check applies to */
  readonly orderWrite?: boolean;
}

interface Envelope {
  status?: unknown;
  data?: unknown;
  error_type?: unknown;
  message?: unknown;
}

/** Builds the `BrokerError` for a failed Kite call from its codes (never from its message text). */
export function kiteError(
  input: { httpStatus?: number; errorType?: string; systemCode?: string; message: string },
  orderWrite = false,
): BrokerError {
  // Kite answers its 10/s limit with HTTP 429 (body error_type NetworkException): the status decides, as the
  // request was refused before it reached the exchange and is safe to send again.
  const code = input.httpStatus === 429 ? undefined : input.errorType;
  return classifyBrokerFailure(
    {
      broker: 'zerodha',
      code,
      httpStatus: input.httpStatus,
      systemCode: input.systemCode,
      message: input.message,
    },
    orderWrite ? ORDER_WRITE_KINDS : KITE_ERROR_KINDS,
  );
}

export class KiteHttp {
  constructor(private readonly options: KiteHttpOptions) {}

  /** Calls Kite and returns the validated `data`; throws a `BrokerError` on any failure. */
  async request<T>(request: KiteRequest<T>): Promise<T> {
    try {
      return await this.send(request);
    } catch (error) {
      if (isBrokerError(error) && error.kind === 'auth_expired') this.options.onAuthExpired?.();
      throw error;
    }
  }

  private async send<T>(request: KiteRequest<T>): Promise<T> {
    const headers: Record<string, string> = { 'X-Kite-Version': '3' };
    if (this.options.accessToken !== undefined) {
      headers.Authorization = `token ${this.options.apiKey}:${this.options.accessToken}`;
    }
    let body: string | undefined;
    if (request.form !== undefined) {
      const form = new URLSearchParams();
      for (const [k, v] of Object.entries(request.form)) if (v !== undefined) form.set(k, String(v));
      body = form.toString();
      headers['Content-Type'] = 'application/x-www-form-urlencoded';
    }
    const { status, text } = await this.call({
      method: request.method,
      url: `${this.options.apiRoot}${request.path}`,
      headers,
      body,
      timeoutMs: this.options.timeoutMs ?? 10_000,
      orderWrite: request.orderWrite,
    });
    let envelope: Envelope = {};
    try {
      envelope = JSON.parse(text) as Envelope;
    } catch {
      // A proxy's HTML error page: only the status is known.
    }
    if (status < 200 || status > 299 || envelope.status !== 'success') {
      throw kiteError(
        {
          httpStatus: status,
          errorType: typeof envelope.error_type === 'string' ? envelope.error_type : undefined,
          message: typeof envelope.message === 'string' ? envelope.message : `HTTP ${status}`,
        },
        request.orderWrite,
      );
    }
    const parsed = request.schema.safeParse(envelope.data);
    if (!parsed.success) {
      throw kiteError({
        errorType: 'DataException',
        message: `unexpected Kite response for ${request.path}`,
      });
    }
    return parsed.data;
  }

  /** GET of a non-JSON resource (the instrument CSV dumps need no session). */
  async text(path: string): Promise<string> {
    const { status, text } = await this.call({
      method: 'GET',
      url: `${this.options.apiRoot}${path}`,
      headers: { 'X-Kite-Version': '3' },
      timeoutMs: this.options.timeoutMs ?? 60_000,
    });
    if (status < 200 || status > 299) throw kiteError({ httpStatus: status, message: `HTTP ${status}` });
    return text;
  }

  /** The exchange itself; a call without an answer becomes a BrokerError by its system code. */
  private async call({ orderWrite, ...call }: HttpCall & { orderWrite?: boolean }): Promise<HttpAnswer> {
    try {
      return await sendHttp(call);
    } catch (error) {
      const systemCode = error instanceof HttpNoAnswer ? error.code : 'ECONNRESET';
      throw kiteError({ systemCode, message: 'no answer from Kite' }, orderWrite);
    }
  }
}
