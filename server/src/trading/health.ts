// The trading service's two health subsystems: `engine` (running, open positions, trading or paused) and
// `market_feed` (live, or stale/down during market hours; a silent feed outside the session is normal).
import type { FeedHealth } from '@optionpilot/engine';
import type { HealthRegistry } from '../health/registry';

/** What the checks read from the running service; null while it is stopped. */
export interface TradingProbe {
  readonly openPositions: number;
  readonly tradingEnabled: boolean;
  readonly feedKind: string;
  readonly feed: FeedHealth;
  readonly inSession: boolean;
}

/** A node that serves while another node runs the engine (cluster/leader.ts) is healthy. */
const FOLLOWER = { status: 'ok', detail: 'follower: another node runs the engine' } as const;

export function registerTradingHealth(
  registry: HealthRegistry,
  probe: () => TradingProbe | 'follower' | null,
): void {
  registry.register('engine', () => {
    const p = probe();
    if (p === 'follower') return FOLLOWER;
    if (p === null) return { status: 'down', detail: 'not running' };
    return {
      status: 'ok',
      detail: `${p.openPositions} open position(s), ${p.tradingEnabled ? 'trading' : 'paused'}`,
    };
  });
  registry.register('market_feed', () => {
    const p = probe();
    if (p === 'follower') return FOLLOWER;
    if (p === null) return { status: 'down', detail: 'not running' };
    if (p.feed.status === 'live') return { status: 'ok', detail: `${p.feedKind} live` };
    if (!p.inSession) return { status: 'ok', detail: 'market closed' };
    return {
      status: p.feed.status === 'stale' ? 'degraded' : 'down',
      detail: `${p.feedKind} ${p.feed.status}`,
    };
  });
}
