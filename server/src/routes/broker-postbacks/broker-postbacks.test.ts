import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { bodyParser } from '@koa/bodyparser';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KitePostbackHub, kitePostbackEndpoint, postbackChecksum } from '../../brokers/zerodha/postbacks';
import { signedPostback, TEST_KITE_APP } from '../../../../test/fakes/kite/fixtures';
import type { KitePostback } from '../../brokers/zerodha/wire';
import { testDialects } from '../../db/testing';
import { createLogger } from '../../logger';
import type { AppState } from '../../middleware/context';
import { errorRenderer } from '../../middleware/errors';
import { startTestServer, type TestServer } from '../../testing/server';
import { brokerPostbacksRouter } from './router';

const secret = TEST_KITE_APP.apiSecret;
const postback = signedPostback;

describe('POST /api/broker/zerodha/postback (router with a live adapter registered)', () => {
  const hub = new KitePostbackHub();
  const delivered: KitePostback[] = [];
  let server: Server;
  let url = '';

  beforeAll(async () => {
    hub.register('AB1234', { apiSecret: secret, deliver: (p) => delivered.push(p) });
    const app = new Koa<AppState>();
    app.silent = true;
    app.use(errorRenderer(createLogger({ level: 'silent' })));
    app.use(bodyParser({ enableTypes: ['json'] }));
    const zerodha = { label: 'Zerodha', postback: kitePostbackEndpoint(hub) };
    const api = brokerPostbacksRouter((type) => (type === 'zerodha' ? zerodha : undefined));
    app.use(api.routes());
    server = app.listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => server.once('listening', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/broker/zerodha/postback`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const post = async (body: unknown) => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, json: (await res.json()) as Record<string, unknown> };
  };

  it('hands a correctly signed postback to the adapter of that Kite user', async () => {
    const before = delivered.length;
    const res = await post(postback());
    expect(res.status).toBe(200);
    expect(res.json.success).toBe(true);
    expect(delivered.slice(before).map((p) => [p.order_id, p.status, p.filled_quantity])).toEqual([
      ['251124000000001', 'COMPLETE', 65],
    ]);
  });

  it('answers 404 for a broker that takes no postbacks, delivering nothing', async () => {
    const before = delivered.length;
    const res = await fetch(url.replace('/zerodha/', '/upstox/'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(postback()),
    });
    expect(res.status).toBe(404);
    expect(delivered.length).toBe(before);
  });

  it('refuses an unsigned caller (wrong checksum) with 403 and delivers nothing', async () => {
    const before = delivered.length;
    const res = await post(postback({ checksum: 'f'.repeat(64) }));
    expect(res.status).toBe(403);
    expect(res.json).toMatchObject({ error: 'forbidden' });
    expect(delivered.length).toBe(before);
  });

  it("refuses a postback signed with another app's secret (not this user's app) with 403", async () => {
    const before = delivered.length;
    const res = await post(
      postback({
        checksum: postbackChecksum('251124000000001', '2026-11-24 09:20:05', 'someone-elses-secret'),
      }),
    );
    expect(res.status).toBe(403);
    expect(delivered.length).toBe(before);
  });

  it.each([
    [{ checksum: undefined }, 'checksum'],
    [{ user_id: '' }, 'user_id'],
    [{ filled_quantity: 'all' }, 'filled_quantity'],
    [{ order_id: 42 }, 'order_id'],
  ])('refuses %j with 400 naming %s', async (overrides, field) => {
    const before = delivered.length;
    const res = await post(postback(overrides));
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ error: 'validation_failed' });
    expect(String(res.json.message)).toContain(field);
    expect(delivered.length).toBe(before);
  });
});

describe.each(testDialects())('POST /api/broker/zerodha/postback (%s server)', (dialect) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ dialect });
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers 404 for a Kite user with no live session, and 400 naming the field for a bad body', async () => {
    const unknown = await t.request('POST', '/api/broker/zerodha/postback', { body: postback() });
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({ error: 'not_found' });
    const bad = await t.request('POST', '/api/broker/zerodha/postback', { body: postback({ checksum: 7 }) });
    expect(bad.status).toBe(400);
    expect(String(bad.json.message)).toContain('checksum');
  });
});
