import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { BrokerError } from '@optionpilot/engine';
import { GrowwHttp, readBody } from './http';

/** A loopback server answering each request with the next scripted reply. */
let server: Server;
let root = '';
const replies: Array<{ status: number; body: string }> = [];
const seen: Array<{ method: string; url: string; headers: IncomingHttpHeaders; body: string }> = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      const reply = replies.shift() ?? { status: 200, body: '{"status":"SUCCESS","payload":{}}' };
      res.writeHead(reply.status, { 'content-type': 'application/json' }).end(reply.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  root = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const failure = (code: string | null) => JSON.stringify({ status: 'FAILURE', error: { code, message: 'x' } });
const schema = z.object({ groww_order_id: z.string() });

async function errorOf(call: Promise<unknown>): Promise<BrokerError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(BrokerError);
  return error as BrokerError;
}

describe('GrowwHttp', () => {
  it('sends the documented headers and query, and returns the validated payload', async () => {
    replies.push({ status: 200, body: '{"status":"SUCCESS","payload":{"groww_order_id":"GMK1"}}' });
    const http = new GrowwHttp({ apiRoot: root, bearer: 'tok123' });
    const payload = await http.request({
      method: 'GET',
      path: '/v1/order/detail/GMK1',
      query: { segment: 'FNO' },
      schema,
    });
    expect(payload).toEqual({ groww_order_id: 'GMK1' });
    const request = seen.at(-1);
    expect(request?.url).toBe('/v1/order/detail/GMK1?segment=FNO');
    expect(request?.headers.authorization).toBe('Bearer tok123');
    expect(request?.headers['x-api-version']).toBe('1.0');
    expect(request?.headers.accept).toBe('application/json');
  });

  it('maps failures by Groww’s code, then by HTTP status; a 401 ends the session', async () => {
    const ended = vi.fn();
    const http = new GrowwHttp({ apiRoot: root, bearer: 'tok', onAuthExpired: ended });
    const call = (orderCall = false) =>
      http.request({ method: 'POST', path: '/v1/order/create', body: {}, schema, orderCall });
    const cases: Array<[number, string | null, boolean, string, string]> = [
      [400, 'GA001', true, 'rejected', 'GA001'],
      [500, 'GA000', true, 'network', 'GA000'],
      [400, 'GA007', true, 'network', 'GA007'],
      [429, null, true, 'rate_limited', '429'],
      [401, 'GA005', false, 'auth_expired', '401'],
      [403, 'GA005', true, 'ip_not_allowed', 'ORDER_FORBIDDEN'],
      [403, 'GA005', false, 'rejected', 'GA005'],
      [504, null, false, 'timeout', '504'],
      [200, 'GA006', true, 'rejected', 'GA006'],
    ];
    for (const [status, code, orderCall, kind, seenCode] of cases) {
      replies.push({ status, body: failure(code) });
      const error = await errorOf(call(orderCall));
      expect([status, error.kind, error.code]).toEqual([status, kind, seenCode]);
      expect(error.message).not.toContain('x');
    }
    expect(ended).toHaveBeenCalledTimes(1);
  });

  it('treats a success it cannot read as an unknown outcome, and no answer as network', async () => {
    const http = new GrowwHttp({ apiRoot: root, bearer: 'tok' });
    replies.push({ status: 200, body: '<html>' });
    expect((await errorOf(http.request({ method: 'GET', path: '/v1/x', schema }))).code).toBe('BAD_RESPONSE');
    replies.push({ status: 200, body: '{"status":"SUCCESS","payload":{"other":1}}' });
    expect((await errorOf(http.request({ method: 'GET', path: '/v1/x', schema }))).kind).toBe('network');
    const closed = new GrowwHttp({ apiRoot: 'http://127.0.0.1:9', bearer: 'tok' });
    expect((await errorOf(closed.request({ method: 'GET', path: '/v1/x', schema }))).kind).toBe('network');
  });

  it('reads the envelope, and a bare object (the token call) whole', () => {
    expect(readBody('{"status":"SUCCESS","payload":{"a":1}}')).toEqual({
      ok: true,
      code: undefined,
      payload: { a: 1 },
    });
    expect(readBody(failure('GA004'))).toEqual({ ok: false, code: 'GA004', payload: undefined });
    expect(readBody('{"token":"t"}')).toEqual({ ok: true, code: undefined, payload: { token: 't' } });
    expect(readBody('[1]')).toBeUndefined();
    expect(readBody('nope')).toBeUndefined();
  });
});
