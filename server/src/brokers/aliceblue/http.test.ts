import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BrokerError } from '@optionpilot/engine';
import { AliceHttp } from './http';

let server: Server;
let root = '';
let reply: { status: number; body: string } = { status: 200, body: '[]' };
const seen: { url?: string; authorization?: string; body: string }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push({ url: req.url, authorization: req.headers.authorization, body });
      res.writeHead(reply.status, { 'Content-Type': 'application/json' });
      res.end(reply.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  root = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const call = (list = false, onAuthExpired?: () => void) =>
  new AliceHttp({
    apiRoot: root,
    userId: 'AB123',
    userSession: 'sess',
    ...(onAuthExpired ? { onAuthExpired } : {}),
  })
    .request({ method: 'GET', path: '/placeOrder/fetchOrderBook', schema: z.array(z.unknown()), list })
    .then(
      (v) => ({ ok: v }),
      (e: unknown) => ({ error: e as BrokerError }),
    );

describe('the ANT client', () => {
  it('sends the documented path and Bearer <userId> <session>', async () => {
    reply = { status: 200, body: '[{"Nstordno":"1"}]' };
    expect(await call()).toEqual({ ok: [{ Nstordno: '1' }] });
    expect(seen.at(-1)).toMatchObject({
      url: '/rest/AliceBlueAPIService/api/placeOrder/fetchOrderBook',
      authorization: 'Bearer AB123 sess',
    });
  });

  it.each([
    [401, '{"stat":"Not_Ok","emsg":"Unauthorized"}', 'auth_expired'],
    [403, '{"stat":"Not_Ok","emsg":"IP"}', 'ip_not_allowed'],
    [429, 'Too many requests', 'rate_limited'],
    [500, '{}', 'network'],
    [200, '{"stat":"Not_Ok","emsg":"RMS:Margin Exceeds"}', 'rejected'],
    [200, '[{"stat":"Not_Ok","emsg":"Invalid"}]', 'rejected'],
    [200, 'not json', 'network'],
  ])('an answer %i %s is %s', async (status, body, kind) => {
    reply = { status, body };
    const result = await call();
    expect('error' in result && result.error).toBeInstanceOf(BrokerError);
    expect('error' in result && result.error.kind).toBe(kind);
  });

  it('reads the lists’ “No Data” answer as empty, only for lists', async () => {
    reply = { status: 200, body: '{"stat":"Not_Ok","emsg":"No Data"}' };
    expect(await call(true)).toEqual({ ok: [] });
    expect(await call(false)).toMatchObject({ error: { kind: 'rejected' } });
  });

  it('tells the session owner when ANT refuses the session', async () => {
    reply = { status: 401, body: '' };
    let ended = 0;
    await call(false, () => (ended += 1));
    expect(ended).toBe(1);
  });
});
