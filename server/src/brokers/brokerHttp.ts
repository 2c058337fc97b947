// The one HTTP transport of the broker adapters: Node's own http/https clients over keep-alive agents shared by
// every account (a broker's API is one host whatever the account; the account is in the headers). Chosen over
// `fetch` because a signal fans out to every live account at once: a `fetch` costs ~0.3 ms of CPU before its
// request leaves, so 1,000 of them hold the last order back by a third of a second, while `http.request` on a warm
// socket costs a tenth of that (measured in docs/performance.md). Failures without an answer carry Node's system
// code so the adapters can tell "refused" (never reached the broker) from "no answer" (outcome unknown).
import { channel } from 'node:diagnostics_channel';
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

/** Published with `{ method, url }` when a request's last byte has been handed to the OS (benchmarks listen). */
export const REQUEST_SENT_CHANNEL = 'optionpilot:broker-http:sent';
const requestSent = channel(REQUEST_SENT_CHANNEL);

/**
 * Idle sockets are kept for 15 s: shorter than the keep-alive of the brokers' front ends, so a request never goes
 * out on a socket the broker is closing; Node also honours a shorter `Keep-Alive: timeout=` the server announces.
 * Up to 2,048 idle sockets are kept, enough for every live account's order to leave at once.
 */
const AGENT_OPTIONS = { keepAlive: true, maxFreeSockets: 2_048, timeout: 15_000 };
const agents = { 'http:': new HttpAgent(AGENT_OPTIONS), 'https:': new HttpsAgent(AGENT_OPTIONS) };

export interface HttpCall {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  readonly url: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
  /** the whole exchange, from the request to the answer's last byte */
  readonly timeoutMs: number;
}

export interface HttpAnswer {
  readonly status: number;
  readonly text: string;
}

/** No complete answer came: `code` is Node's system error code (ETIMEDOUT when our own timeout ended the call). */
export class HttpNoAnswer extends Error {
  override readonly name = 'HttpNoAnswer';
  constructor(readonly code: string) {
    super(`no answer (${code})`);
  }
}

function codeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : 'ECONNRESET';
}

/** One attempt; `reused` reports whether it went out on a kept-alive socket. */
function attempt(call: HttpCall, reused: { value: boolean }): Promise<HttpAnswer> {
  const url = new URL(call.url);
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const agent = url.protocol === 'https:' ? agents['https:'] : agents['http:'];
  const headers: Record<string, string | number> = { ...call.headers };
  if (call.body !== undefined) headers['Content-Length'] = Buffer.byteLength(call.body);
  return new Promise<HttpAnswer>((resolve, reject) => {
    let settled = false;
    const fail = (code: string): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      reject(new HttpNoAnswer(code));
    };
    const req = send(url, { method: call.method, headers, agent }, (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', (error) => fail(codeOf(error)));
      res.on('aborted', () => fail('ECONNRESET'));
      res.on('end', () => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') });
      });
    });
    const timer = setTimeout(() => {
      fail('ETIMEDOUT');
      req.destroy();
    }, call.timeoutMs);
    req.on('socket', () => {
      reused.value = req.reusedSocket;
    });
    req.on('error', (error) => fail(codeOf(error)));
    req.end(call.body, () => {
      if (requestSent.hasSubscribers) requestSent.publish({ method: call.method, url: call.url });
    });
  });
}

/**
 * Sends one request and resolves with the status and body of whatever answer came (any status); rejects with
 * `HttpNoAnswer` when none did. A GET whose kept-alive socket was reset before it answered is sent once more on a
 * new socket (the broker closed an idle connection under it); any other method is never sent twice, as the broker
 * may have acted on it.
 */
export async function sendHttp(call: HttpCall): Promise<HttpAnswer> {
  const reused = { value: false };
  try {
    return await attempt(call, reused);
  } catch (error) {
    const retry =
      call.method === 'GET' && reused.value && error instanceof HttpNoAnswer && error.code === 'ECONNRESET';
    if (!retry) throw error;
    return attempt(call, { value: false });
  }
}
