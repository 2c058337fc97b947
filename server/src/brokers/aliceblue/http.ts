// A thin typed client for Alice Blue ANT's REST API (`<ALICEBLUE_API_ROOT>/rest/AliceBlueAPIService/api/…`) over
// the adapters' shared keep-alive transport (../brokerHttp.ts). Not the official `pya3`: it is Python, its hosts
// are class constants, and it folds every non-200 answer into `{stat: "Not_ok", emsg: "<status> - <reason>"}`.
//
// Every call carries `Authorization: Bearer <userId> <userSession>`. ANT's refusals are `{stat: "Not_Ok", emsg}`
// with no error code, so the kind comes from the HTTP status (401 the session ended, 403 the static-IP refusal,
// 429 the rate limit, 5xx unknown) and a `Not_Ok` at HTTP 200 is a refusal — never from the message text. The one
// exception is the lists' documented empty answer, `{stat: "Not_Ok", emsg: "No Data"}`, which is an empty list.
import type { ZodType } from 'zod';
import { z } from 'zod';
import { BrokerError, classifyBrokerFailure, isBrokerError, type BrokerCodeTable } from '@optionpilot/engine';
import { HttpNoAnswer, sendHttp, type HttpAnswer } from '../brokerHttp';

/** Where every ANT REST path starts. */
export const ALICE_API_PREFIX = '/rest/AliceBlueAPIService/api';

/** The code this client gives an ANT refusal at HTTP 200 (ANT sends none of its own). */
export const ALICE_NOT_OK = 'Not_Ok';

/**
 * Kinds by the codes this client derives from ANT's answers (`HTTP_<status>` for a non-2xx answer). 403 is the
 * static-IP refusal on order writes (SEBI's rule of 1 Apr 2026): **verify** against a live refusal.
 */
export const ALICE_ERROR_KINDS: BrokerCodeTable = {
  HTTP_401: 'auth_expired',
  HTTP_403: 'ip_not_allowed',
  HTTP_429: 'rate_limited',
  [ALICE_NOT_OK]: 'rejected',
};

/** The documented "nothing to list" answer of the order book, trade book and positions. */
const NO_DATA = 'No Data';

export interface AliceHttpOptions {
  readonly apiRoot: string;
  /** the Alice Blue client id (`userId` of the login redirect) */
  readonly userId: string;
  readonly userSession: string;
  readonly timeoutMs?: number;
  /** ANT refused the session: it ended (logged out elsewhere, or its day is over) */
  readonly onAuthExpired?: () => void;
}

export interface AliceRequest<T> {
  readonly method: 'GET' | 'POST';
  /** the documented path under `/rest/AliceBlueAPIService/api`, e.g. `/placeOrder/executePlaceOrder` */
  readonly path: string;
  readonly body?: unknown;
  readonly schema: ZodType<T>;
  /** a list endpoint: ANT's "No Data" answer is an empty list */
  readonly list?: boolean;
}

/** The typed failure of a call; the message names the code, never ANT's text (it may echo request data). */
export function aliceFailure(input: {
  httpStatus?: number;
  code?: string;
  systemCode?: string;
}): BrokerError {
  const code = input.code ?? (input.httpStatus === undefined ? undefined : `HTTP_${input.httpStatus}`);
  return classifyBrokerFailure(
    {
      broker: 'aliceblue',
      code: code !== undefined && Object.hasOwn(ALICE_ERROR_KINDS, code) ? code : undefined,
      httpStatus: input.httpStatus,
      systemCode: input.systemCode,
      message: `aliceblue ${code ?? input.systemCode ?? '?'}`,
    },
    ALICE_ERROR_KINDS,
  );
}

/** A success answer we cannot read: whatever ANT did is unknown (a placement is resolved by asking). */
function unreadable(): BrokerError {
  return new BrokerError('network', 'BAD_RESPONSE', 'aliceblue answer not understood', 'aliceblue');
}

const refusalSchema = z.object({ stat: z.string(), emsg: z.string().nullish() });

/** The refusal an answer is or holds (`Not_Ok`, any case), if any. */
function refusalOf(body: unknown): { emsg: string | undefined } | undefined {
  const first = Array.isArray(body) ? body[0] : body;
  const parsed = refusalSchema.safeParse(first);
  if (!parsed.success || parsed.data.stat.toLowerCase() !== 'not_ok') return undefined;
  return { emsg: parsed.data.emsg ?? undefined };
}

const REST_TIMEOUT_MS = 10_000;

/** A POST to ANT without a session (the vendor login); throws `BrokerError`. */
export async function alicePostAnonymous<T>(url: string, body: unknown, schema: ZodType<T>): Promise<T> {
  return readAnswer(
    await send({ url, method: 'POST', headers: {}, body, timeoutMs: REST_TIMEOUT_MS }),
    schema,
  );
}

async function send(input: {
  url: string;
  method: 'GET' | 'POST';
  headers: Readonly<Record<string, string>>;
  body: unknown;
  timeoutMs: number;
}): Promise<HttpAnswer> {
  try {
    return await sendHttp({
      method: input.method,
      url: input.url,
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', ...input.headers },
      body: input.body === undefined ? undefined : JSON.stringify(input.body),
      timeoutMs: input.timeoutMs,
    });
  } catch (error) {
    throw aliceFailure({ systemCode: error instanceof HttpNoAnswer ? error.code : 'ECONNRESET' });
  }
}

function readAnswer<T>(answer: HttpAnswer, schema: ZodType<T>, list = false): T {
  if (answer.status < 200 || answer.status > 299) throw aliceFailure({ httpStatus: answer.status });
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    throw unreadable();
  }
  const refusal = refusalOf(body);
  if (refusal !== undefined) {
    if (list && refusal.emsg === NO_DATA) body = [];
    else throw aliceFailure({ httpStatus: answer.status, code: ALICE_NOT_OK });
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw unreadable();
  return parsed.data;
}

export class AliceHttp {
  private readonly headers: Readonly<Record<string, string>>;

  constructor(private readonly options: AliceHttpOptions) {
    this.headers = { Authorization: `Bearer ${options.userId} ${options.userSession}` };
  }

  /** `ws/createSocketSess`: ANT wants a socket session made over REST before each socket login. */
  async createSocketSession(): Promise<void> {
    await this.request({
      method: 'POST',
      path: '/ws/createSocketSess',
      body: { loginType: 'API' },
      schema: z.object({ stat: z.string() }).passthrough(),
    });
  }

  /** Calls ANT and returns the validated answer; throws a `BrokerError` on any failure. */
  async request<T>(request: AliceRequest<T>): Promise<T> {
    try {
      const answer = await send({
        url: `${this.options.apiRoot}${ALICE_API_PREFIX}${request.path}`,
        method: request.method,
        headers: this.headers,
        body: request.body,
        timeoutMs: this.options.timeoutMs ?? REST_TIMEOUT_MS,
      });
      return readAnswer(answer, request.schema, request.list ?? false);
    } catch (error) {
      if (isBrokerError(error) && error.kind === 'auth_expired') this.options.onAuthExpired?.();
      throw error;
    }
  }
}
