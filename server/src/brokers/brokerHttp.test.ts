import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpNoAnswer, REQUEST_SENT_CHANNEL, sendHttp } from './brokerHttp';

describe('sendHttp', () => {
  let server: Server;
  let root = '';
  const seen: { method?: string; url?: string; body: string; port: number }[] = [];
  let reply: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.end('ok');

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        seen.push({ method: req.method, url: req.url, body, port: req.socket.remotePort ?? 0 });
        reply(req, res);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    root = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('returns any status with its body, sends the body with its length, and reuses the connection', async () => {
    reply = (_req, res) => res.writeHead(429).end('{"status":"error"}');
    const answer = await sendHttp({
      method: 'POST',
      url: `${root}/orders`,
      body: 'a=1&b=2',
      timeoutMs: 5_000,
    });
    expect(answer).toEqual({ status: 429, text: '{"status":"error"}' });
    reply = (_req, res) => res.end('second');
    const again = await sendHttp({ method: 'GET', url: `${root}/orders?x=1`, timeoutMs: 5_000 });
    expect(again).toEqual({ status: 200, text: 'second' });
    const [first, second] = seen.slice(-2);
    expect(first).toMatchObject({ method: 'POST', url: '/orders', body: 'a=1&b=2' });
    expect(second).toMatchObject({ method: 'GET', url: '/orders?x=1', body: '' });
    // Keep-alive: the second request came over the first one's socket.
    expect(second?.port).toBe(first?.port);
  });

  it('publishes each request on the sent channel once its bytes are out', async () => {
    const published: unknown[] = [];
    const listener = (message: unknown) => published.push(message);
    subscribe(REQUEST_SENT_CHANNEL, listener);
    try {
      reply = (_req, res) => res.end('ok');
      await sendHttp({ method: 'PUT', url: `${root}/orders/1`, body: 'q=1', timeoutMs: 5_000 });
    } finally {
      unsubscribe(REQUEST_SENT_CHANNEL, listener);
    }
    expect(published).toEqual([{ method: 'PUT', url: `${root}/orders/1` }]);
  });

  it('rejects with ETIMEDOUT when no answer comes in time', async () => {
    reply = () => undefined;
    const failure = await sendHttp({ method: 'POST', url: `${root}/slow`, body: 'x', timeoutMs: 100 }).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(HttpNoAnswer);
    expect((failure as HttpNoAnswer).code).toBe('ETIMEDOUT');
  });

  it('rejects with the system code when the connection is refused', async () => {
    const failure = await sendHttp({ method: 'GET', url: 'http://127.0.0.1:9/x', timeoutMs: 5_000 }).catch(
      (error: unknown) => error,
    );
    expect((failure as HttpNoAnswer).code).toBe('ECONNREFUSED');
  });

  it('sends a GET again when its kept-alive socket is reset, never a POST', async () => {
    reply = (_req, res) => res.end('warm');
    await sendHttp({ method: 'GET', url: `${root}/warm`, timeoutMs: 5_000 });
    // The server drops the next request's connection without answering, once per method.
    let resets = 0;
    reply = (req, res) => {
      if (resets < 1) {
        resets += 1;
        req.socket.destroy();
      } else res.end('answered');
    };
    const before = seen.length;
    await expect(sendHttp({ method: 'GET', url: `${root}/positions`, timeoutMs: 5_000 })).resolves.toEqual({
      status: 200,
      text: 'answered',
    });
    expect(seen.slice(before).map((s) => s.url)).toEqual(['/positions', '/positions']);

    await sendHttp({ method: 'GET', url: `${root}/warm`, timeoutMs: 5_000 });
    resets = 0;
    const placed = seen.length;
    const failure = await sendHttp({
      method: 'POST',
      url: `${root}/orders`,
      body: 'q=1',
      timeoutMs: 5_000,
    }).catch((error: unknown) => error);
    expect((failure as HttpNoAnswer).code).toBe('ECONNRESET');
    expect(seen.slice(placed).map((s) => s.url)).toEqual(['/orders']);
  });
});
