// Fyers' reply envelopes: `{ s: "ok", code, message, … }` and `{ s: "error", code, message }` (negative codes).
import type { ServerResponse } from 'node:http';

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

export function sendError(res: ServerResponse, status: number, code: number, message: string): void {
  sendJson(res, status, { s: 'error', code, message });
}

/** An unknown token (HTTP 401, -16), and one that has ended (HTTP 401, -8). */
export const sendUnauthenticated = (res: ServerResponse): void =>
  sendError(res, 401, -16, 'Could not authenticate the user');
export const sendTokenExpired = (res: ServerResponse): void =>
  sendError(res, 401, -8, 'Your token has expired. Please generate a token');
