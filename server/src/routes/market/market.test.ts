import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CandleDto, MarketSessionDto } from '../../contract';
import { signInFirstAdmin } from '../../testing/admin';
import { startTestServer, type TestServer } from '../../testing/server';
import { createMarketContext } from '../../trading/market';

// A fast simulation so candles exist a moment after start.
describe('market routes', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ env: { SIM_SPEED: '600', SIM_SEED: '5' } });
    const deadline = Date.now() + 10_000;
    while (t.server.deps.trading.candles(1, 3).length < 3 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });
  afterAll(async () => {
    await t.close();
  });

  it('GET /api/market/nifty50 answers without a token (public market data) in the MarketTickDto shape', async () => {
    const res = await t.request('GET', '/api/market/nifty50');
    expect(res.status).toBe(200);
    expect(Object.keys(res.json).sort()).toEqual(
      ['symbol', 'price', 'change', 'changePercent', 'open', 'high', 'low', 'volume', 'timestamp'].sort(),
    );
    expect(res.json.symbol).toBe('NIFTY 50');
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('GET /api/market/candles returns the newest candles last, limited, of the asked interval', async () => {
    const res = await t.request('GET', '/api/market/candles?interval=1&limit=3');
    expect(res.status).toBe(200);
    const candles = JSON.parse(res.text) as CandleDto[];
    expect(candles).toHaveLength(3);
    expect(candles.map((c) => c.interval)).toEqual([1, 1, 1]);
    expect(candles[0]!.time).toBeLessThan(candles[2]!.time);
    expect(candles.slice(0, 2).every((c) => c.closed)).toBe(true);
    const defaults = await t.request('GET', '/api/market/candles');
    expect(defaults.status).toBe(200);
  });

  it.each([
    ['interval=2', 'interval', 'interval: interval must be 1, 3, 5 or 15'],
    ['limit=0', 'limit', 'limit: limit must be between 1 and 1000'],
    ['limit=1001', 'limit', 'limit: limit must be between 1 and 1000'],
    ['limit=abc', 'limit', 'limit: limit must be a number'],
  ])('refuses ?%s with 400 naming the field', async (query, field, message) => {
    const res = await t.request('GET', `/api/market/candles?${query}`);
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ error: 'validation_failed', field, message });
  });
});

describe('GET /api/market/session', () => {
  let t: TestServer | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('answers anyone with the facts the strategy panel shows, and follows the square-off control', async () => {
    t = await startTestServer({ env: { SIM_SPEED: '60' } });
    const res = await t.request('GET', '/api/market/session');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const session = res.json as unknown as MarketSessionDto;
    expect(session.facts).toEqual({
      mode: 'always',
      marketOpen: '09:15',
      marketClose: '15:30',
      entryStart: '09:15',
      entryEnd: '15:00',
      squareOff: '15:15',
    });
    expect(session.marketClock).toEqual({ kind: 'simulated', speed: 60 });
    // Demo calendar: always in session, no next open to wait for.
    expect(session.state).toMatchObject({ inSession: true, inEntryWindow: true, nextOpenAt: null });

    const admin = await signInFirstAdmin(t);
    const put = await t.request('PUT', '/api/admin/control/squareOffTime', {
      token: admin.token,
      body: { value: '15:20' },
    });
    expect(put.status).toBe(200);
    const after = (await t.request('GET', '/api/market/session')).json as unknown as MarketSessionDto;
    const strategy = (await t.request('GET', '/api/strategy', { token: admin.token })).json;
    expect(after.facts.squareOff).toBe('15:20');
    expect(strategy.session).toEqual(after.facts);
  });

  it('on the exchange calendar: says whether the market is open and when it opens next', async () => {
    t = await startTestServer({ env: { SIM_SESSION: 'market' } });
    const session = (await t.request('GET', '/api/market/session')).json as unknown as MarketSessionDto;
    expect(session.facts.mode).toBe('market');
    const at = Date.parse(session.state.at);
    const nextOpen = Date.parse(session.state.nextOpenAt ?? '');
    expect(nextOpen).toBeGreaterThan(at);
    // 09:15 IST is 03:45 UTC, on a weekday.
    expect(session.state.nextOpenAt).toMatch(/T03:45:00\.000Z$/);
    const calendar = createMarketContext({ mode: 'market', now: at }).exchange;
    expect(calendar.hasRegularSession(new Date(nextOpen).toISOString().slice(0, 10))).toBe(true);
    expect(session.state.inSession).toBe(calendar.isInSession(at));
    expect(session.state.inEntryWindow).toBe(calendar.isInEntryWindow(at));
  });
});
