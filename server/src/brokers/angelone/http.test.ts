import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { BrokerError } from '@optionpilot/engine';
import { AngelHttp, readEnvelope } from './http';

/** A loopback server answering each request with the next scripted reply. */
let server: Server;
let root = '';
const replies: Array<{ status: number; body: string; type?: string }> = [];
const seen: Array<{ method: string; url: string; headers: IncomingHttpHeaders; body: string }> = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      const reply = replies.shift() ?? { status: 200, body: '{"status":true,"data":null}' };
      res.writeHead(reply.status, { 'content-type': reply.type ?? 'application/json' }).end(reply.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  root = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const client = (extra: { onAuthExpired?: () => void; egressIp?: string } = {}) =>
  new AngelHttp({
    apiRoot: root,
    apiKey: 'key123',
    jwt: 'jwt-abc',
    macAddress: '02:00:00:00:00:01',
    ...extra,
  });

async function failure(reply: { status: number; body: string; type?: string }, onAuthExpired?: () => void) {
  replies.push(reply);
  const error = await client(onAuthExpired ? { onAuthExpired } : {})
    .request({ method: 'GET', path: '/rest/x', schema: z.unknown() })
    .then(
      () => undefined,
      (e: unknown) => e,
    );
  expect(error).toBeInstanceOf(BrokerError);
  return error as BrokerError;
}

describe('AngelHttp', () => {
  it('sends the headers SmartAPI requires, with EGRESS_IP as the client IPs, and returns the envelope data', async () => {
    replies.push({
      status: 200,
      body: '{"status":true,"message":"SUCCESS","errorcode":"","data":{"orderid":"1"}}',
    });
    const data = await client({ egressIp: '203.0.113.9' }).request({
      method: 'POST',
      path: '/rest/secure/angelbroking/order/v1/placeOrder',
      body: { variety: 'NORMAL' },
      schema: z.object({ orderid: z.string() }),
    });
    expect(data).toEqual({ orderid: '1' });
    const last = seen.at(-1)!;
    expect(last).toMatchObject({ method: 'POST', url: '/rest/secure/angelbroking/order/v1/placeOrder' });
    expect(JSON.parse(last.body)).toEqual({ variety: 'NORMAL' });
    expect(last.headers).toMatchObject({
      'x-usertype': 'USER',
      'x-sourceid': 'WEB',
      'x-privatekey': 'key123',
      'x-clientlocalip': '203.0.113.9',
      'x-clientpublicip': '203.0.113.9',
      'x-macaddress': '02:00:00:00:00:01',
      authorization: 'Bearer jwt-abc',
      'content-type': 'application/json',
    });
  });

  it('reads a refusal by its code, never its text, in either envelope spelling and whatever the HTTP status', async () => {
    const totp = await failure({
      status: 200,
      body: '{"status":"false","message":"Invalid totp","errorcode":"AB1050","data":"null"}',
    });
    expect(totp).toMatchObject({ kind: 'rejected', code: 'AB1050' });
    expect(totp.message).not.toContain('Invalid totp');
    const ip = await failure({
      status: 403,
      body: '{"success":false,"message":"Access denied: Unregistered IP address.","errorCode":"AG7002","data":""}',
    });
    expect(ip).toMatchObject({ kind: 'ip_not_allowed', code: 'AG7002' });
    const funds = await failure({ status: 400, body: '{"status":false,"errorcode":"AB2020","message":"x"}' });
    expect(funds.kind).toBe('rejected');
  });

  it('reports an invalid token as an ended session, on a 401 as on a 200', async () => {
    const ended = vi.fn();
    expect(
      await failure(
        { status: 401, body: '{"success":false,"message":"Invalid Token","errorCode":"AG8001"}' },
        ended,
      ),
    ).toMatchObject({ kind: 'auth_expired', code: 'AG8001' });
    expect(
      await failure(
        { status: 200, body: '{"success":false,"message":"Invalid Token","errorCode":"AG8001"}' },
        ended,
      ),
    ).toMatchObject({ kind: 'auth_expired' });
    expect(ended).toHaveBeenCalledTimes(2);
  });

  it("tells the gateway's rate limit (403, plain text) from an IP refusal (403, envelope), and 429 too", async () => {
    const text = await failure({
      status: 403,
      body: 'Access denied because of exceeding access rate',
      type: 'text/plain',
    });
    expect(text.kind).toBe('rate_limited');
    expect((await failure({ status: 429, body: '' })).kind).toBe('rate_limited');
  });

  it('leaves the outcome unknown when Angel failed mid-request or answered something unreadable', async () => {
    expect(await failure({ status: 500, body: '{"status":false,"errorcode":"AB2001"}' })).toMatchObject({
      kind: 'network',
    });
    expect((await failure({ status: 502, body: '<html>bad gateway</html>', type: 'text/html' })).kind).toBe(
      'network',
    );
    expect(await failure({ status: 200, body: '<html>ok?</html>', type: 'text/html' })).toMatchObject({
      kind: 'network',
      code: 'BAD_RESPONSE',
    });
    const noAnswer = await new AngelHttp({ apiRoot: 'http://127.0.0.1:9', apiKey: 'k', macAddress: 'm' })
      .request({ method: 'GET', path: '/', schema: z.unknown() })
      .catch((e: unknown) => e);
    expect(noAnswer).toMatchObject({ kind: 'network', code: 'ECONNREFUSED' });
  });

  it('reads both envelopes', () => {
    expect(readEnvelope('{"status":true,"errorcode":"","data":[1]}')).toEqual({
      ok: true,
      code: undefined,
      data: [1],
    });
    expect(readEnvelope('{"success":false,"errorCode":"AG8001","data":""}')).toMatchObject({
      ok: false,
      code: 'AG8001',
    });
    expect(readEnvelope('{"data":1}')).toBeUndefined();
    expect(readEnvelope('Access denied')).toBeUndefined();
  });
});
