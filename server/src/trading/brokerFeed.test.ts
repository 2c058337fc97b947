// The session feed follows the market-data account's session: down without one, the module's feed attached when
// one appears (every option in play subscribed again), re-attached on a new session key (the next day's token),
// detached on disconnect; a failing session read is reported, never thrown.
import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { FeedHealth, FeedSource, Quote, Tick } from '@optionpilot/engine';
import type { BrokerModule } from '../brokers/types';
import type { LiveSession } from './brokerSessions';
import { createSessionFeed } from './brokerFeed';

interface InnerFeed extends FeedSource {
  token: string;
  symbols: Set<string>;
  started: boolean;
  stopped: boolean;
  ticks: Subject<Tick>;
  health: Subject<FeedHealth>;
}

function fakeModule() {
  const made: InnerFeed[] = [];
  const module = {
    type: 'zerodha',
    label: 'Zerodha',
    createFeed: ({ session }: { session: LiveSession['session'] }) => {
      const ticks = new Subject<Tick>();
      const health = new Subject<FeedHealth>();
      const feed: InnerFeed = {
        kind: 'zerodha',
        simulated: false,
        token: session.accessToken,
        symbols: new Set(),
        started: false,
        stopped: false,
        ticks,
        health,
        ticks$: ticks,
        quotes$: new Subject<Quote>(),
        health$: health,
        subscribe: (s) => void feed.symbols.add(s),
        unsubscribe: (s) => void feed.symbols.delete(s),
        start: () => void (feed.started = true),
        stop: () => void (feed.stopped = true),
      };
      made.push(feed);
      return feed;
    },
  } as unknown as BrokerModule;
  return { module, made };
}

const sessionOf = (token: string): LiveSession =>
  ({
    key: `zerodha:OP1:${token}`,
    credentials: { apiKey: 'k', apiSecret: 's' },
    session: { accessToken: token, expiresAt: 0, accountId: 'OP1', accountName: 'Operator' },
  }) as unknown as LiveSession;

describe('createSessionFeed', () => {
  it('attaches, re-subscribes, follows a new session and detaches', async () => {
    const { module, made } = fakeModule();
    let current: LiveSession | undefined;
    const warnings: string[] = [];
    const feed = createSessionFeed({
      module,
      session: async () => current,
      instrumentOf: () => undefined,
      warn: (m) => warnings.push(m),
    });
    const health: string[] = [];
    const prices: number[] = [];
    feed.health$.subscribe((h) => health.push(h.status));
    feed.ticks$.subscribe((t) => prices.push(t.price));
    expect(feed).toMatchObject({ kind: 'zerodha', simulated: false });

    feed.subscribe('NIFTY06JAN2624000CE');
    feed.start();
    await feed.refresh();
    expect(made).toHaveLength(0);
    expect(warnings).toHaveLength(1);
    expect(health.at(-1)).toBe('down');

    current = sessionOf('day1');
    await feed.refresh();
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({ token: 'day1', started: true });
    expect([...made[0]!.symbols]).toEqual(['NIFTY06JAN2624000CE']);
    made[0]!.health.next({ status: 'live', lastTickAt: 1 });
    made[0]!.ticks.next({ price: 24_000.5 } as Tick);
    expect(health.at(-1)).toBe('live');
    expect(prices).toEqual([24_000.5]);
    feed.subscribe('NIFTY06JAN2624050PE');
    expect(made[0]!.symbols.has('NIFTY06JAN2624050PE')).toBe(true);

    // The same session again: nothing changes.
    await feed.refresh();
    expect(made).toHaveLength(1);

    // The next day's token: a new socket with every symbol, the old one closed.
    current = sessionOf('day2');
    await feed.refresh();
    expect(made).toHaveLength(2);
    expect(made[0]!.stopped).toBe(true);
    expect([...made[1]!.symbols].sort()).toEqual(['NIFTY06JAN2624000CE', 'NIFTY06JAN2624050PE']);
    made[0]!.ticks.next({ price: 1 } as Tick);
    expect(prices).toEqual([24_000.5]);

    current = undefined;
    await feed.refresh();
    expect(made[1]!.stopped).toBe(true);
    expect(health.at(-1)).toBe('down');
    expect(warnings).toHaveLength(2);
    feed.stop();
  });

  it('reports a failing session read and keeps going', async () => {
    const { module, made } = fakeModule();
    let fail = true;
    const warnings: string[] = [];
    const feed = createSessionFeed({
      module,
      session: async () => {
        if (fail) throw new Error('database is locked');
        return sessionOf('day1');
      },
      instrumentOf: () => undefined,
      warn: (m) => warnings.push(m),
    });
    feed.start();
    await feed.refresh();
    expect(warnings.some((w) => w.includes('database is locked'))).toBe(true);
    fail = false;
    await feed.refresh();
    expect(made).toHaveLength(1);
    feed.stop();
    expect(made[0]!.stopped).toBe(true);
  });

  it('refuses a module without a market feed', () => {
    expect(() =>
      createSessionFeed({
        module: { type: 'upstox', label: 'Upstox' } as BrokerModule,
        session: async () => undefined,
        instrumentOf: () => undefined,
        warn: () => undefined,
      }),
    ).toThrow(/no market feed/);
  });
});
