// The metrics registry, the broker and database hooks that feed it, and who may scrape `/metrics`. The whole
// server's scrape moving with a paper trade is test/integration/metrics.test.ts.
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import Koa from 'koa';
import { Subject } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import {
  BrokerError,
  PAPER_CAPABILITIES,
  type Broker,
  type BrokerOrderSnapshot,
  type OrderRequest,
  type RuntimeEvent,
  type StrategyEvent,
} from '@optionpilot/engine';
import { loadConfig } from '../config';
import { testDialects, useTestDatabase } from '../db/testing';
import { createLogger } from '../logger';
import { errorRenderer } from '../middleware/errors';
import type { AppState } from '../middleware/context';
import { parsePrometheusText, sampleValue } from '../testing/prometheusText';
import { startTestServer, type TestServer } from '../testing/server';
import { timeBrokerCalls } from './brokerTiming';
import { watchDatabaseWrites, writeStatement } from './dbTiming';
import { metricsEndpoint, scrapeRefusal } from './endpoint';
import { createMetrics, type Metrics } from './metrics';

const TOKEN = 'a'.repeat(40);

async function scrape(metrics: Metrics) {
  return parsePrometheusText(await metrics.render());
}

function signalEvent(kind: StrategyEvent['kind'], type: 'CALL' | 'PUT'): RuntimeEvent {
  return {
    kind: 'signal',
    strategyId: 'default',
    signalId: '1',
    event: { kind, signal: { type } } as unknown as StrategyEvent,
  };
}

const REQUEST: OrderRequest = {
  clientOrderId: 'C1',
  symbol: 'NIFTY06JAN2624000CE',
  side: 'BUY',
  type: 'MARKET',
  quantity: 65,
  product: 'MIS',
  tag: 'OPTIONPILOT',
};

function fakeBroker(placed: () => Promise<{ brokerOrderId: string }>): Broker {
  return {
    capabilities: PAPER_CAPABILITIES,
    placeOrder: placed,
    modifyOrder: () => Promise.reject(new BrokerError('rate_limited', '429', 'slow down')),
    cancelOrder: () => Promise.resolve(),
    getOrder: () => Promise.resolve(undefined),
    getPositions: () => Promise.resolve([]),
    orderUpdates$: new Subject<BrokerOrderSnapshot>(),
  };
}

describe('createMetrics', () => {
  it('renders a valid exposition with every signal side and event at 0 before anything happened', async () => {
    const families = await scrape(createMetrics());
    expect(families.get('optionpilot_signals_total')?.type).toBe('counter');
    expect(families.get('optionpilot_order_latency_seconds')?.type).toBe('histogram');
    for (const side of ['CALL', 'PUT']) {
      for (const event of ['armed', 'executed', 'expired', 'suppressed']) {
        expect(sampleValue(families, 'optionpilot_signals_total', { side, event })).toBe(0);
      }
    }
  });

  it('counts signals by side and event, and measures fan-out from the executed signal to entries only', async () => {
    const metrics = createMetrics();
    metrics.runtimeEvent(signalEvent('armed', 'PUT'));
    metrics.runtimeEvent(signalEvent('executed', 'PUT'));
    metrics.orderSent('SELL'); // an exit: not part of a fan-out
    metrics.orderSent('BUY');
    metrics.orderSent('BUY');
    const families = await scrape(metrics);
    expect(sampleValue(families, 'optionpilot_signals_total', { side: 'PUT', event: 'armed' })).toBe(1);
    expect(sampleValue(families, 'optionpilot_signals_total', { side: 'PUT', event: 'executed' })).toBe(1);
    expect(sampleValue(families, 'optionpilot_signals_total', { side: 'CALL', event: 'executed' })).toBe(0);
    expect(sampleValue(families, 'optionpilot_fanout_latency_seconds_count')).toBe(2);
  });

  it('does not measure a fan-out for an entry sent before any signal executed (a restored position)', async () => {
    const metrics = createMetrics();
    metrics.orderSent('BUY');
    expect(sampleValue(await scrape(metrics), 'optionpilot_fanout_latency_seconds_count')).toBe(0);
  });

  it("measures a closed candle's lag after its interval's end on the market clock, never a forming one", async () => {
    const metrics = createMetrics();
    const candle = { interval: 1, time: 60_000, open: 1, high: 1, low: 1, close: 1, volume: 0 } as const;
    metrics.candle({ ...candle, closed: false }, 500_000);
    metrics.candle({ ...candle, closed: true }, 121_500);
    const families = await scrape(metrics);
    expect(sampleValue(families, 'optionpilot_candle_close_lag_seconds_count', { interval: '1' })).toBe(1);
    expect(sampleValue(families, 'optionpilot_candle_close_lag_seconds_sum', { interval: '1' })).toBeCloseTo(
      1.5,
    );
  });

  it('reads tick age, sockets and outbox depth from its sources at scrape time', async () => {
    const metrics = createMetrics();
    let sockets = 2;
    metrics.start({ tickAgeMs: () => 4_000, socketsConnected: () => sockets, outboxPending: async () => 7 });
    try {
      let families = await scrape(metrics);
      expect(sampleValue(families, 'optionpilot_tick_age_seconds')).toBe(4);
      expect(sampleValue(families, 'optionpilot_sockets_connected')).toBe(2);
      expect(sampleValue(families, 'optionpilot_notification_outbox_pending')).toBe(7);
      sockets = 0;
      families = await scrape(metrics);
      expect(sampleValue(families, 'optionpilot_sockets_connected')).toBe(0);
    } finally {
      metrics.stop();
    }
  });

  it('still answers a scrape when the outbox cannot be read (the depth is NaN)', async () => {
    const metrics = createMetrics();
    metrics.start({
      tickAgeMs: () => null,
      socketsConnected: () => 0,
      outboxPending: () => Promise.reject(new Error('database is closed')),
    });
    try {
      const families = await scrape(metrics);
      expect(sampleValue(families, 'optionpilot_notification_outbox_pending')).toBeNaN();
      // No tick yet: the age counts from the engine's start, so an alert on a silent feed still fires.
      expect(sampleValue(families, 'optionpilot_tick_age_seconds')).toBeGreaterThanOrEqual(0);
    } finally {
      metrics.stop();
    }
  });

  it('keeps two servers apart: each registry shows only its own figures', async () => {
    const a = createMetrics();
    const b = createMetrics();
    a.runtimeEvent(signalEvent('armed', 'CALL'));
    expect(sampleValue(await scrape(a), 'optionpilot_signals_total', { side: 'CALL', event: 'armed' })).toBe(
      1,
    );
    expect(sampleValue(await scrape(b), 'optionpilot_signals_total', { side: 'CALL', event: 'armed' })).toBe(
      0,
    );
  });
});

describe('timeBrokerCalls', () => {
  it("times an answered order under its broker and passes the broker's answer through", async () => {
    const metrics = createMetrics();
    const broker = timeBrokerCalls(
      fakeBroker(() => Promise.resolve({ brokerOrderId: 'B7' })),
      'zerodha',
      metrics,
    );
    await expect(broker.placeOrder(REQUEST)).resolves.toEqual({ brokerOrderId: 'B7' });
    const families = await scrape(metrics);
    expect(
      sampleValue(families, 'optionpilot_order_latency_seconds_count', { broker: 'zerodha', outcome: 'ok' }),
    ).toBe(1);
    expect(families.get('optionpilot_broker_errors_total')?.samples).toEqual([]);
  });

  it('counts failures by broker and kind, times a failed order, and still throws the same error', async () => {
    const metrics = createMetrics();
    const timeout = new BrokerError('timeout', 'ETIMEDOUT', 'no answer');
    const broker = timeBrokerCalls(
      fakeBroker(() => Promise.reject(timeout)),
      'upstox',
      metrics,
    );
    await expect(broker.placeOrder(REQUEST)).rejects.toBe(timeout);
    await expect(broker.modifyOrder('B1', { price: 1 })).rejects.toBeInstanceOf(BrokerError);
    const families = await scrape(metrics);
    expect(
      sampleValue(families, 'optionpilot_broker_errors_total', { broker: 'upstox', kind: 'timeout' }),
    ).toBe(1);
    expect(
      sampleValue(families, 'optionpilot_broker_errors_total', { broker: 'upstox', kind: 'rate_limited' }),
    ).toBe(1);
    expect(
      sampleValue(families, 'optionpilot_order_latency_seconds_count', {
        broker: 'upstox',
        outcome: 'error',
      }),
    ).toBe(1);
  });
});

describe('writeStatement', () => {
  it.each([
    [{ method: 'insert' }, 'insert'],
    [{ method: 'update' }, 'update'],
    [{ method: 'del' }, 'delete'],
    [{ method: 'raw', sql: '  INSERT INTO orders (a) VALUES (?), (?)' }, 'insert'],
    [{ method: 'raw', sql: 'delete from sessions where id = ?' }, 'delete'],
    [{ method: 'select', sql: 'select * from users' }, undefined],
    [{ method: 'first', sql: 'select * from users limit 1' }, undefined],
    [{ method: 'raw', sql: 'select 1' }, undefined],
  ])('%j is %s', (query, statement) => {
    expect(writeStatement(query)).toBe(statement);
  });
});

describe.each(testDialects())('watchDatabaseWrites (%s)', (dialect) => {
  const knex = useTestDatabase(dialect);

  it('measures writes, inside transactions too, and leaves reads out', async () => {
    const metrics = createMetrics();
    const stop = watchDatabaseWrites(knex(), metrics);
    try {
      await knex().transaction(async (trx) => {
        await trx('engine_state').insert({ key: 'metrics.test', value: '{}', updated_at: 1 });
      });
      await knex()('engine_state').where({ key: 'metrics.test' }).update({ updated_at: 2 });
      await knex()('engine_state').select('*');
      await knex()('engine_state').where({ key: 'metrics.test' }).del();
    } finally {
      stop();
    }
    // After stop(), nothing more is measured.
    await knex()('engine_state').insert({ key: 'metrics.after', value: '{}', updated_at: 1 });
    const families = await scrape(metrics);
    const count = (statement: string) =>
      sampleValue(families, 'optionpilot_db_write_duration_seconds_count', { statement });
    expect([count('insert'), count('update'), count('delete')]).toEqual([1, 1, 1]);
  });
});

describe('scrapeRefusal', () => {
  const local = { authorization: undefined, remoteAddress: '127.0.0.1' };
  const remote = { authorization: undefined, remoteAddress: '203.0.113.9' };

  it('without a token, lets the machine itself in (IPv4, IPv6, IPv4-mapped) and refuses every other peer', () => {
    const config = { metricsToken: undefined, trustProxy: false };
    for (const remoteAddress of ['127.0.0.1', '127.0.0.53', '::1', '::ffff:127.0.0.1']) {
      expect(scrapeRefusal(config, { authorization: undefined, remoteAddress })).toBeUndefined();
    }
    for (const remoteAddress of ['203.0.113.9', '::ffff:10.0.0.1', '2001:db8::1', undefined]) {
      expect(scrapeRefusal(config, { authorization: undefined, remoteAddress })?.status).toBe(403);
    }
  });

  it('behind a proxy without a token refuses even the local peer (the proxy makes every visitor local)', () => {
    expect(scrapeRefusal({ metricsToken: undefined, trustProxy: true }, local)?.status).toBe(403);
  });

  it('with a token, wants it from every peer, local ones included', () => {
    const config = { metricsToken: TOKEN, trustProxy: true };
    expect(scrapeRefusal(config, { ...remote, authorization: `Bearer ${TOKEN}` })).toBeUndefined();
    expect(scrapeRefusal(config, { ...remote, authorization: `bearer ${TOKEN}` })).toBeUndefined();
    for (const authorization of [
      undefined,
      `Bearer ${TOKEN}x`,
      `Basic ${TOKEN}`,
      'Bearer',
      `Bearer  ${TOKEN}`,
    ]) {
      const refusal = scrapeRefusal(config, { ...local, authorization });
      expect(refusal).toMatchObject({ status: 401, field: 'authorization' });
      // The refusal never echoes the configured token.
      expect(refusal?.message).not.toContain(TOKEN);
    }
  });
});

describe('metricsEndpoint', () => {
  /** Runs one request through a Koa app with the endpoint, as if it came from `remoteAddress`. */
  async function request(remoteAddress: string, path = '/metrics', method = 'GET') {
    const app = new Koa<AppState>();
    app.silent = true;
    app.use(errorRenderer(createLogger({ level: 'silent' })));
    app.use(
      metricsEndpoint({ config: { metricsToken: undefined, trustProxy: false }, metrics: createMetrics() }),
    );
    app.use((ctx) => {
      ctx.body = 'next';
    });
    const socket = new Socket();
    Object.defineProperty(socket, 'remoteAddress', { value: remoteAddress });
    const req = new IncomingMessage(socket);
    Object.assign(req, { method, url: path, headers: { host: 'optionpilot.test' } });
    const res = new ServerResponse(req);
    let body = '';
    res.write = (chunk: string | Buffer) => ((body += chunk.toString()), true);
    await (app.callback() as (q: IncomingMessage, r: ServerResponse) => Promise<void>)(req, res);
    socket.destroy();
    return { status: res.statusCode, type: String(res.getHeader('content-type')), body };
  }

  it('serves the exposition to a loopback peer and refuses a remote one with the error catalogue', async () => {
    const local = await request('127.0.0.1');
    expect(local.status).toBe(200);
    expect(local.type).toContain('text/plain');
    const remote = await request('198.51.100.4');
    expect(remote.status).toBe(403);
    expect(remote.type).toContain('application/json');
  });

  it('leaves other paths to the rest of the app and refuses other methods', async () => {
    expect((await request('198.51.100.4', '/metricsx')).status).toBe(200);
    expect((await request('127.0.0.1', '/metrics', 'POST')).status).toBe(404);
  });
});

describe('GET /metrics on a server', () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it.each(testDialects())('answers a local scrape without a token when none is set (%s)', async (dialect) => {
    server = await startTestServer({ dialect });
    const res = await server.request('GET', '/metrics');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const families = parsePrometheusText(res.text);
    expect(sampleValue(families, 'optionpilot_sockets_connected')).toBe(0);
    expect(sampleValue(families, 'optionpilot_notification_outbox_pending')).toBe(0);
    expect(families.has('optionpilot_event_loop_delay_seconds')).toBe(true);
  });

  it('with METRICS_TOKEN, refuses a local scrape without it (401, WWW-Authenticate) and serves one with it', async () => {
    server = await startTestServer({ env: { METRICS_TOKEN: TOKEN } });
    const refused = await server.request('GET', '/metrics');
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(refused.json).toMatchObject({ error: 'unauthenticated', field: 'authorization' });
    const served = await server.request('GET', '/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(served.status).toBe(200);
    expect(parsePrometheusText(served.text).has('optionpilot_signals_total')).toBe(true);
    // Both scrapes are in the access log, the token in neither.
    expect(server.logs.filter((line) => line.includes('"/metrics"'))).toHaveLength(2);
    expect(server.logs.join('')).not.toContain(TOKEN);
  });

  it('with TRUST_PROXY and no token, refuses a local scrape whatever X-Forwarded-For claims', async () => {
    server = await startTestServer({ env: { TRUST_PROXY: 'true' } });
    const res = await server.request('GET', '/metrics', { headers: { 'x-forwarded-for': '127.0.0.1' } });
    expect(res.status).toBe(403);
    expect(res.json).toMatchObject({ error: 'forbidden' });
  });

  it('refuses a METRICS_TOKEN shorter than 32 characters at start, naming the variable, never its value', () => {
    expect(() => loadConfig({ METRICS_TOKEN: 'short-secret' })).toThrow(/METRICS_TOKEN/);
    expect(() => loadConfig({ METRICS_TOKEN: 'short-secret' })).not.toThrow(/short-secret/);
  });
});
