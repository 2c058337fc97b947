import { describe, expect, it } from 'vitest';
import { createHealthRegistry } from '../health/registry';
import { registerTradingHealth, type TradingProbe } from './health';

describe('trading health', () => {
  it('reports the engine and the feed: down when stopped, a silent feed only matters in session', async () => {
    let probe: TradingProbe | null = null;
    const registry = createHealthRegistry(['database']);
    registerTradingHealth(registry, () => probe);
    const report = async () => (await registry.report()).subsystems;

    expect(await report()).toMatchObject({
      engine: { status: 'down', detail: 'not running' },
      market_feed: { status: 'down' },
    });
    probe = {
      openPositions: 2,
      tradingEnabled: false,
      feedKind: 'kite',
      feed: { status: 'stale', lastTickAt: 0 },
      inSession: true,
    };
    expect(await report()).toMatchObject({
      engine: { status: 'ok', detail: '2 open position(s), paused' },
      market_feed: { status: 'degraded', detail: 'kite stale' },
    });
    probe = { ...probe, inSession: false };
    expect((await report()).market_feed).toMatchObject({ status: 'ok', detail: 'market closed' });
    probe = { ...probe, feed: { status: 'live', lastTickAt: 1 } };
    expect((await report()).market_feed).toMatchObject({ status: 'ok', detail: 'kite live' });
  });
});
