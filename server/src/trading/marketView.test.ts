import { describe, expect, it } from 'vitest';
import { TestScheduler } from 'rxjs/testing';
import type { CandleLike } from '../presenters/market';
import type { Realtime } from '../realtime/publisher';
import { createMarketView } from './marketView';

const T0 = Date.parse('2026-03-02T04:00:00.000Z');
const MINUTE = 60_000;

function candle(overrides: Partial<CandleLike> = {}): CandleLike {
  return {
    interval: 1,
    time: T0,
    open: 24_000,
    high: 24_010,
    low: 23_990,
    close: 24_005,
    volume: 0,
    closed: false,
    ...overrides,
  };
}

/** A view over a publisher that records every market emit (event name and payload). */
function rig() {
  const scheduler = new TestScheduler(() => undefined);
  const sent: Array<{ at: number; event: string; payload: unknown }> = [];
  const publisher = {
    toMarket: (event: string, payload: unknown) => sent.push({ at: scheduler.now(), event, payload }),
  } as unknown as Realtime;
  const view = createMarketView({
    publisher,
    tradingDate: () => '2026-03-02',
    scheduler,
    tickBroadcastMs: 250,
  });
  /** one engine tick as the service delivers it: the runtime's forming candle first, then the view's tick */
  const engineTick = (at: number, price: number, forming: CandleLike | null) =>
    scheduler.schedule(() => {
      if (forming) view.onCandle(forming);
      view.onTick({ time: T0 + at, price, volume: 0 });
    }, at);
  return { scheduler, sent, view, engineTick };
}

describe('market view broadcasts', () => {
  it('sends one market:tick per period carrying the newest forming chart candle, and no forming market:candle', () => {
    const { scheduler, sent, engineTick } = rig();
    engineTick(0, 24_000, candle({ close: 24_000 }));
    engineTick(100, 24_004, candle({ close: 24_004 }));
    engineTick(200, 24_007, candle({ close: 24_007 }));
    scheduler.flush();

    expect(sent.map((s) => [s.at, s.event])).toEqual([
      [0, 'market:tick'],
      [250, 'market:tick'],
    ]);
    const [first, second] = sent.map((s) => s.payload as { price: number; candle?: { close: number } });
    expect(first).toMatchObject({ price: 24_000, candle: { close: 24_000, closed: false } });
    // The coalesced tick and its candle are the newest of the period, never a mix of two ticks.
    expect(second).toMatchObject({ price: 24_007, candle: { close: 24_007 } });
  });

  it('sends market:candle once when a candle closes; a waiting tick no longer carries the closed candle forming', () => {
    const { scheduler, sent, view, engineTick } = rig();
    engineTick(0, 24_000, candle());
    engineTick(100, 24_003, candle({ close: 24_003 }));
    scheduler.schedule(() => view.onCandle(candle({ close: 24_003, closed: true })), 150);
    scheduler.flush();

    const candles = sent.filter((s) => s.event === 'market:candle');
    expect(candles).toHaveLength(1);
    // No tick followed the close: it went out one broadcast period later.
    expect(candles[0]).toMatchObject({ at: 400, payload: { closed: true, close: 24_003 } });
    const ticks = sent.filter((s) => s.event === 'market:tick');
    expect(ticks.map((s) => s.at)).toEqual([0, 250]);
    expect(ticks[1]?.payload).not.toHaveProperty('candle');
  });

  it("keeps other intervals' forming candles off the wire but pushes them when they close", () => {
    const { scheduler, sent, view, engineTick } = rig();
    view.setBroadcastIntervals([1, 3]);
    engineTick(0, 24_000, candle({ interval: 3 }));
    scheduler.schedule(() => view.onCandle(candle({ interval: 3, closed: true })), 10);
    // 5 minutes is not broadcast: neither forming nor closed goes out.
    scheduler.schedule(() => view.onCandle(candle({ interval: 5, closed: true })), 20);
    scheduler.flush();

    expect(sent.map((s) => [s.at, s.event])).toEqual([
      [0, 'market:tick'],
      [260, 'market:candle'],
    ]);
    expect(sent[0]?.payload).not.toHaveProperty('candle');
    expect(sent[1]?.payload).toMatchObject({ interval: 3, closed: true });
    // REST still serves the forming and closed candles of every interval from the buffers.
    expect(view.candles(3, 10)).toHaveLength(1);
    expect(view.candles(5, 10)).toHaveLength(1);
  });

  it('sends a candle closed at a boundary right after the tick that opens the next one, never ahead of it', () => {
    const { scheduler, sent, view, engineTick } = rig();
    engineTick(0, 24_000, candle());
    // The boundary: the engine closes the minute, then hands over the next one forming, then the tick.
    scheduler.schedule(() => view.onCandle(candle({ closed: true })), 400);
    engineTick(400, 24_020, candle({ time: T0 + MINUTE, close: 24_020 }));
    scheduler.flush();

    expect(sent.map((s) => [s.at, s.event])).toEqual([
      [0, 'market:tick'],
      [400, 'market:tick'],
      [400, 'market:candle'],
    ]);
    expect(sent[1]?.payload).toMatchObject({ candle: { time: T0 + MINUTE, close: 24_020 } });
    expect(sent[2]?.payload).toMatchObject({ time: T0, closed: true });
    expect(view.tick()).not.toHaveProperty('candle');
    expect(view.candles(1, 10).map((c) => c.time)).toEqual([T0, T0 + MINUTE]);
  });
});
