import { beforeEach, describe, expect, it } from 'vitest';
import { MAX_CANDLES, mergeCandle, resetLiveStore, upsertTradeList, useLiveStore } from './stores';
import { sampleBot, sampleCandle, sampleStrategy, sampleTick, sampleTrade } from './testing';

describe('live store', () => {
  beforeEach(() => resetLiveStore());

  it('upserts a trade by id and keeps newest first', () => {
    const a = sampleTrade({ id: 1, timestamp: '2026-03-02T04:00:00.000Z' });
    const b = sampleTrade({ id: 2, timestamp: '2026-03-02T04:10:00.000Z' });
    let list = upsertTradeList([], a);
    list = upsertTradeList(list, b);
    expect(list.map((t) => t.id)).toEqual([2, 1]);
    list = upsertTradeList(list, { ...a, status: 'closed', pnl: -650 });
    expect(list).toHaveLength(2);
    expect(list[1]).toMatchObject({ id: 1, status: 'closed', pnl: -650 });
  });

  it('sorts a REST trade list newest first and marks it loaded', () => {
    expect(useLiveStore.getState().tradesLoaded).toBe(false);
    useLiveStore
      .getState()
      .setTrades([
        sampleTrade({ id: 1, timestamp: '2026-03-01T04:00:00.000Z' }),
        sampleTrade({ id: 3, timestamp: '2026-03-02T04:00:00.000Z' }),
        sampleTrade({ id: 2, timestamp: '2026-03-02T04:00:00.000Z' }),
      ]);
    const s = useLiveStore.getState();
    expect(s.trades.map((t) => t.id)).toEqual([3, 2, 1]);
    expect(s.tradesLoaded).toBe(true);
  });

  it('replaces the live candle of the same bucket and appends the next', () => {
    const c1 = sampleCandle({ time: 60_000, close: 10, closed: false });
    let list = mergeCandle([], c1);
    list = mergeCandle(list, { ...c1, close: 12 });
    expect(list).toHaveLength(1);
    expect(list[0]?.close).toBe(12);
    list = mergeCandle(list, sampleCandle({ time: 120_000 }));
    list = mergeCandle(list, sampleCandle({ time: 0 }));
    expect(list.map((c) => c.time)).toEqual([0, 60_000, 120_000]);
  });

  it('bounds the candle history', () => {
    let list = [sampleCandle({ time: 0 })];
    for (let i = 1; i <= MAX_CANDLES + 5; i += 1)
      list = mergeCandle(list, sampleCandle({ time: i * 60_000 }));
    expect(list).toHaveLength(MAX_CANDLES);
    expect(list[list.length - 1]?.time).toBe((MAX_CANDLES + 5) * 60_000);
  });

  it('ignores a tick older than the one it has', () => {
    const { applyTick } = useLiveStore.getState();
    applyTick(sampleTick({ price: 2, timestamp: '2026-03-02T05:00:02.000Z' }));
    applyTick(sampleTick({ price: 1, timestamp: '2026-03-02T05:00:01.000Z' }));
    expect(useLiveStore.getState().tick?.price).toBe(2);
  });

  it('merges a socket bot status into the REST detail', () => {
    const { setBotDetail, applyBotStatus } = useLiveStore.getState();
    setBotDetail(sampleBot({ enabled: true, mode: 'live', isRunning: true }));
    applyBotStatus({ isRunning: false, reason: 'Subscription inactive' });
    expect(useLiveStore.getState().bot).toEqual({
      isRunning: false,
      enabled: true,
      globalTradingEnabled: true,
      mode: 'live',
      reason: 'Subscription inactive',
    });
    applyBotStatus({ isRunning: true });
    expect(useLiveStore.getState().bot?.reason).toBeUndefined();
  });

  it("keeps the bot detail's master switch with the strategy's, also for a bot status that comes first", () => {
    const { setBotDetail, setStrategy, applyBotStatus } = useLiveStore.getState();
    setStrategy(sampleStrategy({ tradingEnabled: false }));
    // No REST detail yet: the socket's status is completed from the strategy, not guessed from isRunning.
    applyBotStatus({ isRunning: false, reason: 'Bot switched off' });
    expect(useLiveStore.getState().bot?.globalTradingEnabled).toBe(false);
    setBotDetail(sampleBot({ globalTradingEnabled: false, isRunning: false }));
    setStrategy(sampleStrategy({ tradingEnabled: true }));
    expect(useLiveStore.getState().bot?.globalTradingEnabled).toBe(true);
    expect(useLiveStore.getState().strategy?.params.tradingEnabled).toBe(true);
  });

  it('reset returns to the empty state', () => {
    useLiveStore.getState().setConnection('connected');
    useLiveStore.getState().applyTick(sampleTick());
    resetLiveStore();
    expect(useLiveStore.getState().tick).toBeNull();
    expect(useLiveStore.getState().connection).toBe('idle');
  });
});
