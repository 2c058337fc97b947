import fc from 'fast-check';
import { Subject } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { alwaysOpenCalendar } from '../calendar/alwaysOpenCalendar';
import { offsetScheduler } from '../candles/testCalendars';
import type { Candle, Tick } from '../core/types';
import type { Broker, BrokerOrderSnapshot } from '../execution/broker';
import { PAPER_CAPABILITIES, PaperBroker } from '../execution/paperBroker';
import { DEFAULT_STRATEGY_PARAMS } from '../strategy/params';
import { account, at, expiries, harness, memoryStore, MIN, QUICK, signalDay } from './testHarness';
import type { Harness } from './testHarness';
import { TradingRuntime } from './tradingRuntime';
import type { RuntimeAccount, RuntimeEvent, StrategyDefinition } from './types';

/** A broker that records when each order was sent and never answers. */
function silentBroker(sent: number[], now: () => number): Broker {
  return {
    capabilities: PAPER_CAPABILITIES,
    placeOrder: () => {
      sent.push(now());
      return new Promise<never>(() => undefined);
    },
    modifyOrder: () => new Promise<never>(() => undefined),
    cancelOrder: () => new Promise<never>(() => undefined),
    getOrder: () => new Promise<BrokerOrderSnapshot | undefined>(() => undefined),
    getPositions: () => Promise.resolve([]),
    orderUpdates$: new Subject<BrokerOrderSnapshot>(),
  };
}

describe('TradingRuntime: concurrent fan-out', () => {
  it('a broker that never answers for one account delays no other account', async () => {
    const sent: Record<string, number[]> = { slow: [], b: [], c: [] };
    const h = harness({
      accounts: [account('slow'), account('b'), account('c')],
      brokers: (id, paper, now) => {
        if (id === 'slow') return silentBroker(sent.slow as number[], now);
        const broker = paper();
        const place = broker.placeOrder.bind(broker);
        broker.placeOrder = (request) => {
          sent[id]?.push(now());
          return place(request);
        };
        return broker;
      },
    });
    for (const tick of signalDay()) await h.push(tick);
    await h.runtime.idle();

    const executed = h.events.find((e) => e.kind === 'signal' && e.event.kind === 'executed');
    expect(executed).toBeDefined();
    const signalTime = at('09:17:00');
    // Every account's entry went out at the signal's instant, the silent one included; the silent account's
    // unconfirmed entry keeps it from entering again on later signals, while the others trade on.
    expect(sent.slow).toEqual([signalTime]);
    expect(sent.b?.[0]).toBe(signalTime);
    expect(sent.c?.[0]).toBe(signalTime);
    const opened = h.events.filter(
      (e): e is Extract<RuntimeEvent, { kind: 'trade-opened' }> => e.kind === 'trade-opened',
    );
    expect(opened.map((e) => e.trade.accountId).sort()).toEqual(['b', 'c']);
    expect(opened.every((e) => e.trade.entryTime === signalTime)).toBe(true);
    // The silent account holds no position; its entry was given up after its own fill timeout.
    expect(h.runtime.positions('slow')).toHaveLength(0);
    expect(
      h.runtime
        .positions()
        .map((p) => p.accountId)
        .sort(),
    ).toEqual(['b', 'c']);
  });
});

describe('TradingRuntime: quotes of armed signals', () => {
  it('on a broker feed quotes the contract an armed signal would buy before it executes, then hands it to the entry', async () => {
    const quoteLog: string[] = [];
    const h = harness({ accounts: [account('a')], quoteArmedStrikes: true, quoteLog });
    for (const tick of signalDay().filter((t) => t.time < at('09:17:00'))) await h.push(tick);
    await h.wait(at('09:17:00'));
    // Armed at the 09:16 candle's close: its contract is already quoted, with no entry yet.
    expect(h.events.some((e) => e.kind === 'signal' && e.event.kind === 'armed')).toBe(true);
    expect(quoteLog).toHaveLength(1);
    const [armed] = quoteLog;
    for (const tick of signalDay().filter((t) => t.time >= at('09:17:00') && t.time <= at('09:17:30')))
      await h.push(tick);
    await h.runtime.idle();
    const [position] = h.runtime.positions('a');
    // The entry bought that contract and holds its quote; the armed signal's hold was let go without a gap.
    expect(`+${position?.symbol}`).toBe(armed);
    expect(quoteLog).toEqual([armed]);
    expect(h.runtime.quote(position!.symbol)).toBeDefined();
  });

  it('quotes nothing ahead on a simulated or replayed feed (backtests unchanged)', async () => {
    const quoteLog: string[] = [];
    const h = harness({ accounts: [], quoteLog });
    for (const tick of signalDay().filter((t) => t.time < at('09:17:30'))) await h.push(tick);
    expect(quoteLog).toEqual([]);
  });
});

describe('TradingRuntime: brokers readied by an armed signal', () => {
  /** Runs to just after the 09:16 candle armed a CALL; returns how often each account's broker was prepared. */
  async function armed(prepareArmedEntries: boolean): Promise<Record<string, number>> {
    const prepared: Record<string, number> = { live: 0, paper: 0 };
    const h = harness({
      accounts: [{ ...account('live'), paper: false }, account('paper')],
      prepareArmedEntries,
      brokers: (accountId, paper) =>
        Object.assign(paper(), {
          prepare: () => {
            prepared[accountId] = (prepared[accountId] ?? 0) + 1;
            return Promise.resolve();
          },
        }),
    });
    for (const tick of signalDay().filter((t) => t.time < at('09:17:00'))) await h.push(tick);
    await h.wait(at('09:17:00'));
    await h.runtime.idle();
    expect(h.events.some((e) => e.kind === 'signal' && e.event.kind === 'armed')).toBe(true);
    expect(h.runtime.positions()).toEqual([]);
    return prepared;
  }

  it('readies the broker of every live account that would enter, before the signal executes; never paper', async () => {
    expect(await armed(true)).toEqual({ live: 1, paper: 0 });
  });

  it('readies nothing unless asked (backtests)', async () => {
    expect(await armed(false)).toEqual({ live: 0, paper: 0 });
  });
});

describe('TradingRuntime: positions and parameters', () => {
  it('applies a new stop loss to the next entry, never to a position already open', async () => {
    const h = harness({ accounts: [account('a')] });
    for (const tick of signalDay().filter((t) => t.time <= at('09:18:00'))) await h.push(tick);
    const [open] = h.runtime.positions('a');
    expect(open?.risk.stopLoss).toBe(QUICK.stopLoss);
    h.runtime.setStrategies([
      { id: 's1', name: 'quick', kind: 'consecutive_breakout', params: { ...QUICK, stopLoss: 7 } },
    ]);
    await h.push({ time: at('09:18:15'), price: 23_510, volume: 0 });
    expect(h.runtime.positions('a')[0]?.risk.stopLoss).toBe(QUICK.stopLoss);
    h.runtime.flattenAll();
    await h.runtime.idle();
    expect(h.runtime.positions('a')).toHaveLength(0);
    // The next signal's entry carries the new stop distance.
    const later = signalDay(23_600).map((t) => ({ ...t, time: t.time + 20 * MIN }));
    for (const tick of later) await h.push(tick);
    await h.runtime.idle();
    const entries = h.events.filter(
      (e): e is Extract<RuntimeEvent, { kind: 'trade-opened' }> => e.kind === 'trade-opened',
    );
    expect(entries).toHaveLength(2);
    expect(entries[0]?.trade.risk.stopLoss).toBe(QUICK.stopLoss);
    expect(entries[1]?.trade.risk.stopLoss).toBe(7);
  });

  it('pausing stops new entries at once while open positions keep their exits', async () => {
    const h = harness({ accounts: [account('a'), account('b')] });
    for (const tick of signalDay().filter((t) => t.time <= at('09:18:00'))) await h.push(tick);
    expect(h.runtime.positions()).toHaveLength(2);
    h.runtime.setTradingEnabled(false);
    expect(h.events.at(-1)).toEqual({ kind: 'halted', tradingEnabled: false });
    const closed = h.runtime.flattenAll();
    expect(closed).toBe(2);
    await h.runtime.idle();
    expect(h.runtime.positions()).toHaveLength(0);
    const later = signalDay(23_600).map((t) => ({ ...t, time: t.time + 20 * MIN }));
    for (const tick of later) await h.push(tick);
    await h.runtime.idle();
    expect(h.events.filter((e) => e.kind === 'trade-opened')).toHaveLength(2);
    expect(h.events.filter((e) => e.kind === 'trade-closed')).toHaveLength(2);
  });

  it('holds each position in exactly one place: the risk manager, matching the store, at every tick', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 2 ** 31 - 1 }), async (seed) => {
        const h = harness({ accounts: [account('a'), account('b')] });
        let x = seed;
        const rand = () => {
          x ^= x << 13;
          x ^= x >>> 17;
          x ^= x << 5;
          return (x >>> 0) / 4_294_967_296;
        };
        let price = 23_500;
        for (let t = at('09:15:00'); t < at('10:15:00'); t += 5_000) {
          price += (rand() - 0.48) * 6;
          await h.push({ time: t, price: Math.round(price * 20) / 20, volume: 0 });
          await h.runtime.idle();
          const held = h.runtime
            .positions()
            .map((p) => p.positionId)
            .sort();
          expect(held).toEqual([...h.store.open].sort());
          // One position per account at most.
          expect(new Set(h.runtime.positions().map((p) => p.accountId)).size).toBe(held.length);
        }
      }),
      { numRuns: 4 },
    );
  }, 60_000);
});

describe('TradingRuntime: the broker follows the account', () => {
  it('builds the broker again when a flat account turns live, never under an open position', async () => {
    const accounts: RuntimeAccount[] = [account('a')];
    const built: string[] = [];
    const h = harness({
      accounts,
      // Wide stop and target: the first position stays open through the second signal.
      strategies: [
        {
          id: 's1',
          name: 'quick',
          kind: 'consecutive_breakout',
          params: { ...QUICK, stopLoss: 400, target: 900 },
        },
      ],
      brokers: (id, paper, _now, acc) => {
        built.push(`${id}:${acc?.brokerKey ?? (acc?.paper === false ? 'live' : 'paper')}`);
        return paper();
      },
    });
    for (const tick of signalDay().filter((t) => t.time <= at('09:18:00'))) await h.push(tick);
    expect(h.runtime.positions('a')).toHaveLength(1);
    expect(built).toEqual(['a:paper']);

    // Live while the paper position is open: no switch, and no entry through the wrong broker.
    accounts[0] = { ...account('a'), paper: false, brokerKey: 'zerodha:AB1234:1' };
    const second = signalDay(23_600).map((t) => ({ ...t, time: t.time + 20 * MIN }));
    for (const tick of second) await h.push(tick);
    await h.runtime.idle();
    expect(h.runtime.positions('a')).toHaveLength(1);
    expect(built).toEqual(['a:paper']);
    expect(h.events.filter((e) => e.kind === 'trade-opened')).toHaveLength(1);

    // Flat again: the next entry builds the live broker and the trade is marked live.
    h.runtime.flattenAll();
    await h.runtime.idle();
    const third = signalDay(23_700).map((t) => ({ ...t, time: t.time + 40 * MIN }));
    for (const tick of third) await h.push(tick);
    await h.runtime.idle();
    expect(built).toEqual(['a:paper', 'a:zerodha:AB1234:1']);
    const opened = h.events.filter(
      (e): e is Extract<RuntimeEvent, { kind: 'trade-opened' }> => e.kind === 'trade-opened',
    );
    expect(opened.map((e) => e.trade.paper)).toEqual([true, false]);
  });
});

describe('TradingRuntime: stops resting at the broker', () => {
  /** A live account on a paper broker (which holds stop orders as a broker does). */
  function liveHarness() {
    let liveBroker: PaperBroker | undefined;
    const h = harness({
      accounts: [{ ...account('live'), paper: false, brokerKey: 'zerodha:AB1234:1' }],
      brokers: (_id, paper) => {
        liveBroker = paper() as PaperBroker;
        return liveBroker;
      },
    });
    return { h, broker: () => liveBroker as PaperBroker };
  }
  const stopsOf = (h: Harness) => h.runtime.router.listOrders().filter((o) => o.purpose === 'stop');

  it('every exit of a live position takes its resting stop off first: each position is sold exactly once', async () => {
    const { h, broker } = liveHarness();
    for (const tick of signalDay().filter((t) => t.time < at('09:18:15'))) await h.push(tick);
    // A falling market: stops are hit, new signals enter again; the broker re-checks its resting stops each time.
    for (let t = at('09:18:15'), p = 23_480; t <= at('09:40:00'); t += 15_000, p -= 20) {
      await h.push({ time: t, price: p, volume: 0 });
      broker().reevaluate();
      await h.runtime.idle();
    }
    h.runtime.flattenAll();
    await h.runtime.idle();
    const opened = h.events.filter((e) => e.kind === 'trade-opened').length;
    expect(opened).toBeGreaterThan(1);
    expect(h.events.filter((e) => e.kind === 'trade-closed')).toHaveLength(opened);
    // One stop per position, each either taken off by the exit that replaced it or the fill that closed it.
    expect(stopsOf(h)).toHaveLength(opened);
    expect(
      stopsOf(h).every((o) => (o.state === 'CANCELLED' && o.filledQty === 0) || o.state === 'FILLED'),
    ).toBe(true);
    // Never short: the broker's net position in every contract is flat.
    const held = await broker().getPositions();
    expect(held.every((p) => p.quantity === 0)).toBe(true);
  });

  it('a stop the broker fills by itself closes the trade on that fill, with no SELL of its own', async () => {
    const { h, broker } = liveHarness();
    for (const tick of signalDay().filter((t) => t.time <= at('09:17:00'))) await h.push(tick);
    await h.runtime.idle();
    const [position] = h.runtime.positions('live');
    const [stop] = stopsOf(h);
    expect(stop).toMatchObject({
      side: 'SELL',
      type: 'SL-M',
      state: 'ACCEPTED',
      quantity: position!.quantity,
    });
    // The exchange crosses the stop while OptionPilot sees nothing (as if its feed had stalled).
    await broker().modifyOrder(stop!.brokerOrderId!, { triggerPrice: 10_000 });
    await h.runtime.idle();
    expect(h.runtime.positions('live')).toHaveLength(0);
    const closed = h.events.filter(
      (e): e is Extract<RuntimeEvent, { kind: 'trade-closed' }> => e.kind === 'trade-closed',
    );
    expect(closed.map((e) => e.close.reason)).toEqual(['STOP_LOSS']);
    expect(closed[0]?.close.orderIds).toEqual([stop!.clientOrderId]);
    expect(h.runtime.router.listOrders().some((o) => o.purpose === 'exit')).toBe(false);
    expect((await broker().getPositions()).every((p) => p.quantity === 0)).toBe(true);
  });

  it('a stop that filled at the broker before the target was decided closes as the stop, at its fill', async () => {
    // The broker's FILLED update of the stop is late (the postback not in yet) when the next quote crosses the
    // target: the exit's cancel is refused (the stop is no longer open), nothing more is sold, and the fills that
    // closed the trade — the stop's — give its reason and price.
    let inner: PaperBroker | undefined;
    const watched: { stopId?: string } = {};
    const held: BrokerOrderSnapshot[] = [];
    const updates = new Subject<BrokerOrderSnapshot>();
    const h = harness({
      accounts: [{ ...account('live'), paper: false, brokerKey: 'zerodha:AB1234:1' }],
      brokers: (_id, paper) => {
        inner = paper() as PaperBroker;
        const broker = inner;
        broker.orderUpdates$.subscribe((u) => {
          if (u.brokerOrderId === watched.stopId && u.status === 'FILLED') held.push(u);
          else updates.next(u);
        });
        return {
          capabilities: broker.capabilities,
          orderUpdates$: updates.asObservable(),
          placeOrder: (r) => broker.placeOrder(r),
          modifyOrder: (id, a) => broker.modifyOrder(id, a),
          cancelOrder: async (id) => {
            try {
              await broker.cancelOrder(id);
            } finally {
              // The late postback arrives right after the refused cancel.
              for (const u of held.splice(0)) setTimeout(() => updates.next(u), 0);
            }
          },
          getOrder: (ref) => broker.getOrder(ref),
          getPositions: () => broker.getPositions(),
        } satisfies Broker;
      },
    });
    for (const tick of signalDay().filter((t) => t.time <= at('09:17:00'))) await h.push(tick);
    await h.runtime.idle();
    const [position] = h.runtime.positions('live');
    const stop = stopsOf(h)[0];
    watched.stopId = stop?.brokerOrderId;
    expect(position).toBeDefined();
    // The exchange crosses the stop: the broker sells the position at the stop, and says nothing yet.
    await inner!.modifyOrder(watched.stopId!, { triggerPrice: 10_000 });
    expect(held).toHaveLength(1);
    const stopFill = held[0]!.avgPrice;
    // Then the market runs up through the target: OptionPilot decides a target exit.
    await h.push({ time: at('09:17:15'), price: 23_900, volume: 0 });
    await new Promise((resolve) => setTimeout(resolve, 10));
    await h.runtime.idle();
    await h.wait(at('09:17:20'));
    await h.runtime.idle();
    expect(h.runtime.positions('live')).toHaveLength(0);
    const closed = h.events.filter(
      (e): e is Extract<RuntimeEvent, { kind: 'trade-closed' }> => e.kind === 'trade-closed',
    );
    expect(closed.map((e) => e.close.reason)).toEqual(['STOP_LOSS']);
    expect(closed[0]?.close.exitPremium).toBeCloseTo(stopFill, 2);
    expect(closed[0]?.close.exitTrigger).toBe(stop?.triggerPrice);
    // Nothing was sold besides the stop: the broker is flat, not short.
    expect(h.runtime.router.listOrders().filter((o) => o.purpose === 'exit')).toEqual([]);
    expect((await inner!.getPositions()).every((p) => p.quantity === 0)).toBe(true);
  });

  it('paper positions place no stop order (backtests and paper trading are unchanged)', async () => {
    const h = harness({ accounts: [account('a')] });
    for (const tick of signalDay().filter((t) => t.time <= at('09:18:00'))) await h.push(tick);
    await h.runtime.idle();
    expect(h.runtime.positions('a')).toHaveLength(1);
    expect(stopsOf(h)).toEqual([]);
  });
});

describe('TradingRuntime: restart after an exit filled', () => {
  it('closes a trade whose exit had filled before the process stopped on that fill, selling nothing again', async () => {
    const first = harness({ accounts: [account('a')] });
    for (const tick of signalDay().filter((t) => t.time <= at('09:18:00'))) await first.push(tick);
    await first.runtime.idle();
    const [position] = first.runtime.positions('a');
    const trade = first.runtime.openTrade(position!.positionId)!;
    const snapshot = first.runtime.risk.toJSON();

    // A new process: the trade is open in the store, but its exit order had filled in full before the kill.
    const second = harness({ accounts: [] });
    second.runtime.restore(
      snapshot,
      new Map([
        [
          position!.positionId,
          {
            trade,
            exitSeq: 1,
            exitFills: [{ clientOrderId: 'exit-before-kill', filledQty: trade.quantity, avgPrice: 90 }],
          },
        ],
      ]),
    );
    await second.runtime.recoverOrders();
    second.runtime.resumeExits();
    await second.runtime.idle();
    const closed = second.events.filter(
      (e): e is Extract<RuntimeEvent, { kind: 'trade-closed' }> => e.kind === 'trade-closed',
    );
    expect(closed.map((e) => e.close.orderIds)).toEqual([['exit-before-kill']]);
    expect(closed[0]?.close.exitPremium).toBe(90);
    expect(second.runtime.router.listOrders()).toEqual([]);
    expect(second.runtime.positions()).toEqual([]);
  });
});

describe('TradingRuntime: feed faults', () => {
  it('a stalled feed executes no signal while the square-off still exits the open position on the clock', async () => {
    const h = harness({ accounts: [account('a')] });
    // A CALL executes at 15:00 (the last minute of the entry window); then the feed stalls.
    const day = signalDay().map((t) => ({ ...t, time: t.time + (at('14:58:00') - at('09:15:00')) }));
    for (const tick of day.filter((t) => t.time <= at('15:00:30'))) await h.push(tick);
    expect(h.runtime.positions('a')).toHaveLength(1);
    const armedBefore = h.events.filter((e) => e.kind === 'signal').length;
    // Twenty minutes without a tick: no candle forms, no signal arms or executes, but the 15:15 square-off fires.
    await h.wait(at('15:20:00'));
    await h.runtime.idle();
    expect(h.events.filter((e) => e.kind === 'signal' && e.event.kind === 'executed')).toHaveLength(1);
    // At most one more signal event: the expiry of a signal armed before the stall (no tick can execute it).
    const after = h.events.filter((e) => e.kind === 'signal').slice(armedBefore);
    expect(after.every((e) => e.kind === 'signal' && e.event.kind === 'expired')).toBe(true);
    expect(after.length).toBeLessThanOrEqual(1);
    const closed = h.events.find(
      (e): e is Extract<RuntimeEvent, { kind: 'trade-closed' }> => e.kind === 'trade-closed',
    );
    expect(closed?.close).toMatchObject({ reason: 'SQUARE_OFF', exitTime: at('15:15:00') });
    expect(h.runtime.positions()).toHaveLength(0);
  });
});

describe('TradingRuntime: one candle stream per interval (marble)', () => {
  it('closes each bucket once per interval at its end, however many strategies and charts read it', () => {
    const ts = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
    ts.run(({ cold, expectObservable }) => {
      const base = at('09:15:00');
      const scheduler = offsetScheduler(ts, base);
      const closed1$ = new Subject<number>();
      const closed3 = new Map<number, number>();
      const definitions: StrategyDefinition[] = ['a', 'b', 'c'].map((id) => ({
        id,
        name: id,
        kind: 'consecutive_breakout',
        params: { ...DEFAULT_STRATEGY_PARAMS, interval: 1 },
      }));
      const runtime = new TradingRuntime({
        calendar: alwaysOpenCalendar,
        expiries,
        scheduler,
        quotes: { subscribe: () => undefined, unsubscribe: () => undefined },
        brokers: () => {
          throw new Error('no entries in this test');
        },
        store: memoryStore(),
        accounts: { eligible: () => Promise.resolve([]) },
        strategies: definitions,
        algoTag: 'TEST',
        chartIntervals: [1, 3],
        onCandle: (candle: Candle) => {
          if (!candle.closed) return;
          if (candle.interval === 1) closed1$.next(candle.time - base);
          else closed3.set(candle.time - base, (closed3.get(candle.time - base) ?? 0) + 1);
        },
        events: () => undefined,
      });
      runtime.start();
      // Ticks at 0 s, 30 s and 90 s; then silence: the 1-minute candles close on the clock at 60 s and 120 s.
      cold('a 29999ms b 59999ms c', {
        a: { time: base, price: 100, volume: 0 },
        b: { time: base + 30_000, price: 101, volume: 0 },
        c: { time: base + 90_000, price: 102, volume: 0 },
      }).subscribe((tick: Tick) => runtime.onTick(tick));
      expectObservable(closed1$).toBe('60s a 59999ms b', { a: 0, b: 60_000 });
      ts.schedule(() => {
        // The 3-minute candle closed once at 180 s, not once per reader.
        expect([...closed3]).toEqual([[0, 1]]);
      }, 200_000);
    });
  });
});
