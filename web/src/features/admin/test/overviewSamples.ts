// Overview answers for the admin panel's tests.
import type { AdminStatsDto, SystemHealthDto } from '@optionpilot/server/contract';

export function sampleStats(overrides: Partial<AdminStatsDto> = {}): AdminStatsDto {
  return {
    activeUsers: 42,
    monthlyRevenue: 12_345_678_00,
    monthlyGrossPaise: 12_445_678_00,
    monthlyRefundsPaise: 100_000_00,
    monthlyGst: { cgstPaise: 94_000_00, sgstPaise: 94_000_00, igstPaise: 12_345_67 },
    totalTrades: 1234,
    winRate: 57.14,
    botRunning: true,
    ...overrides,
  };
}

export function sampleHealth(overrides: Partial<SystemHealthDto> = {}): SystemHealthDto {
  return {
    status: 'degraded',
    checkedAt: '2026-03-02T05:00:00.000Z',
    checks: [
      { name: 'feed', status: 'ok', detail: 'live, last tick 0.8 s ago' },
      { name: 'brokerSessions', status: 'degraded', detail: '3 valid, 1 expired' },
      { name: 'calendar', status: 'ok', detail: 'covers 2026, 2027' },
    ],
    notices: [],
    feed: { status: 'live', lastTickAt: '2026-03-02T04:59:59.200Z', lastTickAgeMs: 800 },
    database: { ok: true, latencyMs: 1 },
    brokerSessions: { valid: 3, expired: 1, error: 0, notConnected: 5 },
    openPositions: 2,
    eventLoop: { meanMs: 1, p99Ms: 4, maxMs: 9 },
    memory: { rssBytes: 120_000_000, heapUsedBytes: 60_000_000, heapTotalBytes: 80_000_000 },
    calendar: { yearsCovered: [2026, 2027], thisYear: true, nextYear: true },
    ...overrides,
  };
}
