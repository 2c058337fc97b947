// The one way the web app talks to the REST API (spec §7 "Common behaviour"): cookies always, the stored bearer
// token when there is one, JSON bodies, and one error rule (spec §8) so every screen can show `error.message`.
import type { ErrorResponse } from '@optionpilot/server/contract';
import { readToken, removeToken } from '../lib/tokenStorage';

/** Dispatched on `window` when an authenticated call gets 401: the session expired or was revoked. */
export const SESSION_EXPIRED_EVENT = 'optionpilot:session-expired';

export interface SessionExpiredDetail {
  /** the server's explanation, for the toast */
  message: string;
}

/** A failed API call. `message` is what people read; `status` and `errorId` are for code. */
export class ApiError extends Error {
  /** HTTP status; 0 when the server could not be reached at all */
  readonly status: number;
  /** the stable id from the server's error catalogue (`error` field), or null for non-JSON failures */
  readonly errorId: string | null;
  /** the offending field of a validation error, when the server names one */
  readonly field: string | null;

  constructor(message: string, status: number, errorId: string | null = null, field: string | null = null) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.errorId = errorId;
    this.field = field;
  }
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface ApiRequestOptions {
  method?: HttpMethod;
  /** serialised as JSON */
  body?: unknown;
  signal?: AbortSignal;
  /**
   * Whether a 401 means "your session is over" (default). Calls that check credentials themselves (login, admin
   * login, password reset) pass false: there a 401 means "wrong password", not "signed out".
   */
  expireSessionOnUnauthorized?: boolean;
}

function isErrorResponse(value: unknown): value is ErrorResponse {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return typeof record.error === 'string' && typeof record.message === 'string';
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Turns a non-OK response into an ApiError: our `{ error, message }` JSON gives its message, anything else
 * becomes "<status>: <response text or status text>" (spec §8). */
export async function toApiError(response: Response): Promise<ApiError> {
  const text = await response.text().catch(() => '');
  const body = parseJson(text);
  if (isErrorResponse(body) && body.message) {
    return new ApiError(body.message, response.status, body.error, body.field ?? null);
  }
  const detail = text.trim() || response.statusText;
  return new ApiError(`${response.status}: ${detail}`, response.status);
}

/** Sends one request to the API and resolves with the parsed JSON body (undefined for an empty body). */
export async function apiRequest<T>(path: string, options: ApiRequestOptions = {}): Promise<T> {
  const { method = 'GET', body, signal, expireSessionOnUnauthorized = true } = options;
  const token = readToken();
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';

  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'include',
      signal,
    });
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    throw new ApiError('Cannot reach the server. Check your connection and try again.', 0, 'network_error');
  }

  if (!response.ok) {
    const error = await toApiError(response);
    // Only a call that carried a token can have lost its session; without one a 401 is just "sign in first".
    if (response.status === 401 && token && expireSessionOnUnauthorized) {
      removeToken();
      window.dispatchEvent(
        new CustomEvent<SessionExpiredDetail>(SESSION_EXPIRED_EVENT, { detail: { message: error.message } }),
      );
    }
    throw error;
  }

  const text = await response.text();
  if (!text) return undefined as T;
  const parsed = parseJson(text);
  if (parsed === undefined) {
    throw new ApiError('Invalid response from server', response.status, 'invalid_response');
  }
  return parsed as T;
}

/** Shorthands for the HTTP verbs; `body` is sent as JSON. */
export const api = {
  get: <T>(path: string, options?: Omit<ApiRequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'GET' }),
  post: <T>(path: string, body?: unknown, options?: Omit<ApiRequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'POST', body }),
  put: <T>(path: string, body?: unknown, options?: Omit<ApiRequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'PUT', body }),
  patch: <T>(path: string, body?: unknown, options?: Omit<ApiRequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'PATCH', body }),
  delete: <T>(path: string, options?: Omit<ApiRequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'DELETE' }),
};

/** A default read (spec §7): GET the path made by joining the key parts with "/", e.g. ['/api/user', 'stats']. */
export function getByKey<T>(key: ReadonlyArray<string | number>, signal?: AbortSignal): Promise<T> {
  return api.get<T>(key.join('/'), { signal });
}

/** The message to show for any thrown value, with a fallback when it has none. */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof Error && error.message) return error.message;
  return fallback;
}
