// Kite's reply envelopes: `{ status: "success", data }` and `{ status: "error", message, data: null, error_type }`.
import type { ServerResponse } from 'node:http';

export interface KiteError {
  readonly status: number;
  readonly errorType: string;
  readonly message: string;
}

export function sendError(res: ServerResponse, error: KiteError): void {
  sendJson(res, error.status, {
    status: 'error',
    message: error.message,
    data: null,
    error_type: error.errorType,
  });
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

export const TOKEN_ERROR: KiteError = {
  status: 403,
  errorType: 'TokenException',
  message: 'Incorrect `api_key` or `access_token`.',
};
