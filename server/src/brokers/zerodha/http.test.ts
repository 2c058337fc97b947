import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { BrokerError } from '@optionpilot/engine';
import { KiteHttp, kiteError } from './http';

describe('kiteError', () => {
  it.each([
    [{ httpStatus: 403, errorType: 'TokenException' }, false, 'auth_expired'],
    [{ httpStatus: 400, errorType: 'InputException' }, true, 'rejected'],
    [{ httpStatus: 400, errorType: 'OrderException' }, true, 'rejected'],
    [{ httpStatus: 400, errorType: 'MarginException' }, true, 'rejected'],
    // Kite's 429 body says NetworkException; the status wins so the refused order may be sent again.
    [{ httpStatus: 429, errorType: 'NetworkException' }, true, 'rate_limited'],
    [{ httpStatus: 502, errorType: 'NetworkException' }, true, 'network'],
    [{ httpStatus: 500, errorType: 'GeneralException' }, true, 'network'],
    [{ httpStatus: 403, errorType: 'PermissionException' }, true, 'ip_not_allowed'],
    // The static-IP check covers order writes only: elsewhere a PermissionException is a plain refusal.
    [{ httpStatus: 403, errorType: 'PermissionException' }, false, 'rejected'],
    [{ systemCode: 'ECONNREFUSED' }, true, 'network'],
    [{ systemCode: 'ETIMEDOUT' }, true, 'timeout'],
    [{ httpStatus: 503 }, true, 'network'],
  ] as const)('classifies %j (order write: %s) as %s', (input, orderWrite, kind) => {
    const error = kiteError({ ...input, message: 'whatever Kite said' }, orderWrite);
    expect(error).toBeInstanceOf(BrokerError);
    expect(error.kind).toBe(kind);
    expect(error.broker).toBe('zerodha');
  });
});

describe('KiteHttp', () => {
  let server: Server;
  let root = '';
  const seen: { headers: Record<string, string | string[] | undefined>; body: string }[] = [];
  let reply: (res: import('node:http').ServerResponse) => void = () => undefined;

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        seen.push({ headers: req.headers, body });
        reply(res);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    root = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  // Generous for answers on a loaded machine; the timeout case sets its own short one.
  const http = (timeoutMs = 5_000) =>
    new KiteHttp({ apiRoot: root, apiKey: 'key1', accessToken: 'tok1', timeoutMs });

  it('sends the version and token headers and a form body, and returns the validated data', async () => {
    reply = (res) => res.end(JSON.stringify({ status: 'success', data: { order_id: '42' } }));
    const data = await http().request({
      method: 'POST',
      path: '/orders/regular',
      form: { quantity: 65, price: undefined, tag: 'OPabc' },
      schema: z.object({ order_id: z.string() }),
    });
    expect(data).toEqual({ order_id: '42' });
    const last = seen[seen.length - 1];
    expect(last?.headers['x-kite-version']).toBe('3');
    expect(last?.headers.authorization).toBe('token key1:tok1');
    expect(last?.body).toBe('quantity=65&tag=OPabc');
  });

  it('turns an error envelope into a BrokerError by error_type', async () => {
    reply = (res) =>
      res.writeHead(403, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          status: 'error',
          message: 'Incorrect token',
          data: null,
          error_type: 'TokenException',
        }),
      );
    const ended = vi.fn();
    const client = new KiteHttp({ apiRoot: root, apiKey: 'key1', accessToken: 'tok1', onAuthExpired: ended });
    await expect(
      client.request({ method: 'GET', path: '/orders', schema: z.array(z.unknown()) }),
    ).rejects.toMatchObject({ kind: 'auth_expired', code: 'TokenException' });
    // The session's end is reported once per refusal; other failures report nothing.
    expect(ended).toHaveBeenCalledTimes(1);
    reply = (res) => res.writeHead(502).end('<html>bad gateway</html>');
    await expect(
      client.request({ method: 'GET', path: '/orders', schema: z.array(z.unknown()) }),
    ).rejects.toMatchObject({ kind: 'network' });
    expect(ended).toHaveBeenCalledTimes(1);
  });

  it('treats a non-JSON 5xx as a network fault and a malformed success as unknown', async () => {
    reply = (res) => res.writeHead(502).end('<html>bad gateway</html>');
    await expect(
      http().request({ method: 'GET', path: '/orders', schema: z.array(z.unknown()) }),
    ).rejects.toMatchObject({ kind: 'network' });
    reply = (res) => res.end(JSON.stringify({ status: 'success', data: { nope: 1 } }));
    await expect(
      http().request({ method: 'POST', path: '/orders/regular', schema: z.object({ order_id: z.string() }) }),
    ).rejects.toMatchObject({ kind: 'network', code: 'DataException' });
  });

  it('reports a request with no answer in time as a timeout', async () => {
    reply = () => undefined; // never answers
    await expect(
      http().request({ method: 'GET', path: '/orders', schema: z.unknown() }),
    ).rejects.toMatchObject({
      kind: 'timeout',
    });
  });

  it('reports a refused connection as a network fault', async () => {
    const closed = new KiteHttp({ apiRoot: 'http://127.0.0.1:9', apiKey: 'k' });
    await expect(closed.text('/instruments/NFO')).rejects.toMatchObject({ kind: 'network' });
  });
});
