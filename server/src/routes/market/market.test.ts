import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CandleDto } from '../../contract';
import { startTestServer, type TestServer } from '../../testing/server';

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
