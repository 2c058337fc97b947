// `/metrics` of a real server while a paper trade happens on the scripted feed: the scrape parses as Prometheus
// text before and after, and the trade's figures move by exactly what the trade did (one CALL signal armed and
// executed, one entry fanned out, entry and exit answered by the paper broker, one trade opened and closed, its
// rows written). Who may scrape is covered over HTTP here too: a token, when set, is needed even from loopback.
import { afterEach, describe, expect, it } from 'vitest';
import { listTrades } from '@optionpilot/server/db/index';
import {
  parsePrometheusText,
  sampleValue,
  type MetricFamily,
} from '@optionpilot/server/testing/prometheusText';
import {
  addUser,
  callSetup,
  closeHarnesses,
  dataDir,
  startHarness,
  T0,
  type Harness,
} from './scriptedServer';

afterEach(closeHarnesses);

const TOKEN = 'metrics-token-for-the-integration-test-0123456789';

async function scrape(h: Harness, token?: string): Promise<Map<string, MetricFamily>> {
  const res = await fetch(`${h.server.url}/metrics`, {
    headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return parsePrometheusText(await res.text());
}

/** The figures a paper trade moves, read from one scrape (absent samples count as 0). */
function figures(families: Map<string, MetricFamily>) {
  const value = (name: string, labels: Record<string, string> = {}) =>
    sampleValue(families, name, labels) ?? 0;
  return {
    armed: value('optionpilot_signals_total', { side: 'CALL', event: 'armed' }),
    executed: value('optionpilot_signals_total', { side: 'CALL', event: 'executed' }),
    putExecuted: value('optionpilot_signals_total', { side: 'PUT', event: 'executed' }),
    fanouts: value('optionpilot_fanout_latency_seconds_count'),
    paperOrders: value('optionpilot_order_latency_seconds_count', { broker: 'paper', outcome: 'ok' }),
    opened: value('optionpilot_trades_total', { event: 'opened' }),
    closed: value('optionpilot_trades_total', { event: 'closed' }),
    inserts: value('optionpilot_db_write_duration_seconds_count', { statement: 'insert' }),
    candles: value('optionpilot_candle_close_lag_seconds_count', { interval: '1' }),
  };
}

describe('/metrics while a paper trade happens', () => {
  it('parses before and after, and its counters move by what the trade did', async () => {
    const h = await startHarness(dataDir(), T0 - 1_000, 100, { METRICS_TOKEN: TOKEN });
    await addUser(h, 'trader', true);
    const before = figures(await scrape(h, TOKEN));
    expect(before).toMatchObject({ armed: 0, executed: 0, fanouts: 0, paperOrders: 0, opened: 0, closed: 0 });

    await callSetup(h);
    await h.premium(141); // the 40-point target: the position exits
    const trades = await listTrades(h.server.deps.db.knex);
    expect(trades.map((t) => t.status)).toEqual(['closed']);

    const afterFamilies = await scrape(h, TOKEN);
    const after = figures(afterFamilies);
    expect(after).toMatchObject({ armed: 1, executed: 1, putExecuted: 0, fanouts: 1, opened: 1, closed: 1 });
    expect(after.paperOrders).toBe(2); // the entry and the exit
    // The signal, its order rows and events, the trade and its audit rows were all written after the first scrape.
    expect(after.inserts).toBeGreaterThan(before.inserts);
    // The setup's 1-minute candles closed on the scripted ticks.
    expect(after.candles).toBeGreaterThanOrEqual(3);
    // The scripted feed just ticked: its age is a real-time figure of a moment ago, never negative.
    const tickAge = sampleValue(afterFamilies, 'optionpilot_tick_age_seconds');
    expect(tickAge).toBeGreaterThanOrEqual(0);
    expect(tickAge).toBeLessThan(60);
    // Each opened and closed trade recorded its notices in the outbox; no channel is configured to send them.
    expect(sampleValue(afterFamilies, 'optionpilot_notification_outbox_pending')).toBeGreaterThanOrEqual(0);
  });

  it('wants the token even from loopback when one is set, and says how to send it', async () => {
    const h = await startHarness(dataDir(), T0 - 1_000, 100, { METRICS_TOKEN: TOKEN });
    for (const authorization of [undefined, 'Bearer wrong-token', `Basic ${TOKEN}`]) {
      const res = await fetch(`${h.server.url}/metrics`, {
        headers: authorization === undefined ? {} : { authorization },
      });
      expect(res.status).toBe(401);
      const body = (await res.json()) as Record<string, unknown>;
      expect(body).toMatchObject({ error: 'unauthenticated', field: 'authorization' });
      expect(JSON.stringify(body)).not.toContain(TOKEN);
    }
  });

  it('behind a proxy without a token, refuses a scrape that reaches it over loopback', async () => {
    const h = await startHarness(dataDir(), T0 - 1_000, 100, { TRUST_PROXY: 'true' });
    const res = await fetch(`${h.server.url}/metrics`, { headers: { 'x-forwarded-for': '127.0.0.1' } });
    expect(res.status).toBe(403);
  });
});
