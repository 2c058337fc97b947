import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { BrokerError } from '@optionpilot/engine';
import { FyersHttp, fyersFailure } from './http';

describe('fyersFailure', () => {
  it.each([
    [{ httpStatus: 401, code: '-16' }, false, 'auth_expired'],
    [{ httpStatus: 401, code: '-8' }, false, 'auth_expired'],
    [{ httpStatus: 400, code: '-15' }, true, 'auth_expired'],
    [{ httpStatus: 400, code: '-99' }, true, 'rejected'],
    [{ httpStatus: 400, code: '-392' }, true, 'rejected'],
    [{ httpStatus: 200, code: '-353' }, true, 'rate_limited'],
    // Fyers' 429 decides whatever the body's code: refused before the exchange, safe to send again.
    [{ httpStatus: 429, code: '-99' }, true, 'rate_limited'],
    [{ httpStatus: 500, code: '500' }, true, 'network'],
    [{ httpStatus: 400, code: '-202' }, true, 'timeout'],
    // The static-IP refusal: 403 on an order write, unless the code says the token is the problem.
    [{ httpStatus: 403, code: '-373' }, true, 'ip_not_allowed'],
    [{ httpStatus: 403 }, true, 'ip_not_allowed'],
    [{ httpStatus: 403, code: '-16' }, true, 'auth_expired'],
    [{ httpStatus: 403, code: '-373' }, false, 'rejected'],
    [{ systemCode: 'ECONNREFUSED' }, true, 'network'],
    [{ systemCode: 'ETIMEDOUT' }, true, 'timeout'],
  ] as const)('classifies %j (order write: %s) as %s', (input, orderWrite, kind) => {
    const error = fyersFailure({ ...input, orderWrite });
    expect(error).toBeInstanceOf(BrokerError);
    expect(error.kind).toBe(kind);
    expect(error.broker).toBe('fyers');
  });
});

describe('FyersHttp', () => {
  let server: Server;
  let root = '';
  const seen: { method?: string; url?: string; authorization?: string; body: string }[] = [];
  let reply: (res: ServerResponse) => void = () => undefined;

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        seen.push({ method: req.method, url: req.url, authorization: req.headers.authorization, body });
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

  const json = (status: number, body: unknown) => (res: ServerResponse) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const schema = z.object({ s: z.literal('ok'), id: z.string() });

  it('sends Authorization APP_ID:TOKEN and JSON, and returns the validated envelope', async () => {
    reply = json(200, { s: 'ok', code: 1101, message: 'Order Submitted', id: '26112400001' });
    const http = new FyersHttp({ apiRoot: root, appId: 'APP-100', accessToken: 'tok' });
    const body = await http.request({
      method: 'POST',
      path: '/api/v3/orders/sync',
      json: { qty: 65 },
      schema,
    });
    expect(body.id).toBe('26112400001');
    expect(seen.at(-1)).toMatchObject({
      method: 'POST',
      url: '/api/v3/orders/sync',
      authorization: 'APP-100:tok',
      body: '{"qty":65}',
    });
  });

  it('turns an error envelope into a BrokerError by its code, never its text, and reports a refused token', async () => {
    const onAuthExpired = vi.fn();
    const http = new FyersHttp({ apiRoot: root, appId: 'APP-100', accessToken: 'tok', onAuthExpired });
    reply = json(400, { s: 'error', code: -310, message: 'Please provide a valid order quantity' });
    const refused = await http.request({ method: 'POST', path: '/x', schema }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ kind: 'rejected', code: '-310' });
    expect((refused as Error).message).not.toContain('quantity');
    expect(onAuthExpired).not.toHaveBeenCalled();
    reply = json(401, { s: 'error', code: -16, message: 'Could not authenticate the user' });
    const expired = await http.request({ method: 'GET', path: '/x', schema }).catch((e: unknown) => e);
    expect(expired).toMatchObject({ kind: 'auth_expired', code: '-16' });
    expect(onAuthExpired).toHaveBeenCalledTimes(1);
  });

  it('reads an ok answer of an unknown shape, or a 2xx that is not JSON, as an unknown outcome', async () => {
    const http = new FyersHttp({ apiRoot: root, appId: 'APP-100', accessToken: 'tok' });
    reply = json(200, { s: 'ok', code: 1101 });
    expect(await http.request({ method: 'POST', path: '/x', schema }).catch((e: unknown) => e)).toMatchObject(
      {
        kind: 'network',
      },
    );
    reply = (res) => res.writeHead(200).end('<html>gateway</html>');
    expect(await http.request({ method: 'POST', path: '/x', schema }).catch((e: unknown) => e)).toMatchObject(
      {
        kind: 'network',
      },
    );
  });
});
