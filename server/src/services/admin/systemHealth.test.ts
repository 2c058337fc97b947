// System Health (issue 18 item 11): the feed's tick age is measured on one clock, whatever the market clock says,
// and next year's missing NSE holidays are a notice with a date, not a degraded engine.
import { NEVER, of, Subject } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { istDateTime, type FeedSource, type Tick } from '@optionpilot/engine';
import { VirtualTime } from '@optionpilot/engine/execution/virtualTime';
import type { HealthCheckDto, SystemHealthDto } from '../../contract';
import { startTestServer, type TestServer } from '../../testing/server';
import { calendarNotice, firstWeekdayOf, systemHealth } from './systemHealth';

// The market clock sits months away from the wall clock, as a resumed or replayed market's does.
const MARKET_START = istDateTime('2026-01-05', '10:00');
const LAG = { meanMs: 0, p99Ms: 0, maxMs: 0 };

function check(health: SystemHealthDto, name: HealthCheckDto['name']): HealthCheckDto {
  const found = health.checks.find((c) => c.name === name);
  if (found === undefined) throw new Error(`no ${name} check`);
  return found;
}

describe('system health', () => {
  let t: TestServer;
  const market = new VirtualTime(MARKET_START);
  const real = new VirtualTime(Date.parse('2026-11-25T05:00:00Z'));
  const ticks = new Subject<Tick>();
  const feed: FeedSource = {
    kind: 'sim',
    simulated: true,
    ticks$: ticks,
    quotes$: NEVER,
    health$: of({ status: 'live', lastTickAt: null }),
    subscribe: () => undefined,
    unsubscribe: () => undefined,
    start: () => undefined,
    stop: () => undefined,
  };

  beforeAll(async () => {
    t = await startTestServer({
      overrides: { trading: { feed, scheduler: market.scheduler, realtime: real.scheduler } },
    });
  });
  afterAll(async () => {
    await t.close();
  });

  const read = () => systemHealth({ deps: t.server.deps, now: t.clock.now(), lag: LAG });

  it('measures the last tick’s age on the server’s clock, tick after tick', async () => {
    expect(check(await read(), 'feed').detail).toBe('sim: live, no tick yet');

    ticks.next({ time: MARKET_START, price: 26_000, volume: 0 });
    await real.advance(400);
    let health = await read();
    expect(health.feed).toEqual({
      status: 'live',
      lastTickAt: new Date(MARKET_START).toISOString(),
      lastTickAgeMs: 400,
    });
    expect(check(health, 'feed')).toMatchObject({ status: 'ok', detail: 'sim: live, last tick 0.4 s ago' });

    // The market clock races ahead (a fast simulation); the age still counts real time since the newest tick.
    await market.advance(60_000);
    ticks.next({ time: MARKET_START + 60_000, price: 26_010, volume: 0 });
    await real.advance(250);
    health = await read();
    expect(health.feed.lastTickAgeMs).toBe(250);
    expect(health.feed.lastTickAt).toBe(new Date(MARKET_START + 60_000).toISOString());
  });

  it('names the date next year’s holidays are needed by, without degrading the calendar', async () => {
    const november = await systemHealth({
      deps: t.server.deps,
      now: Date.parse('2026-11-25T10:00:00Z'),
      lag: LAG,
    });
    expect(check(november, 'calendar')).toEqual({
      name: 'calendar',
      status: 'ok',
      detail: 'holidays known for 2026; 2027 needed by 2027-01-01',
    });
    expect(november.notices).toEqual([calendarNotice(2027)]);
    expect(november.notices[0]).toMatchObject({ id: 'calendar_next_year', neededBy: '2027-01-01' });
    expect(november.notices[0]?.message).toContain(
      'before Friday, 1 January 2027, the first weekday of 2027',
    );

    // Once the year has begun without its list, trading days are guessed: that is a fault.
    const january = await systemHealth({
      deps: t.server.deps,
      now: Date.parse('2027-01-04T04:00:00Z'),
      lag: LAG,
    });
    expect(check(january, 'calendar').status).toBe('down');
    expect(january.status).toBe('down');
    expect(january.notices).toEqual([]);
  });

  it('finds the first weekday of a year', () => {
    expect(firstWeekdayOf(2027)).toBe('2027-01-01'); // Friday
    expect(firstWeekdayOf(2028)).toBe('2028-01-03'); // 1 Jan is a Saturday
    expect(firstWeekdayOf(2023)).toBe('2023-01-02'); // 1 Jan is a Sunday
  });
});
