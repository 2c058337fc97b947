import { beforeEach, describe, expect, it } from 'vitest';
import { sampleAdminTrade, sampleControl, sampleLog, sampleSignal } from '../test/samples';
import { controlValue, MAX_LIVE_ROWS, resetAdminLiveStore, useAdminLiveStore } from './adminLiveStore';

const store = useAdminLiveStore.getState;

describe('admin live store', () => {
  beforeEach(resetAdminLiveStore);

  it('keys controls by name and ignores an update older than the one it has', () => {
    store().setControls([sampleControl('tradingEnabled', 'true', '2026-03-02T04:00:00.000Z')]);
    store().applyControl(sampleControl('tradingEnabled', 'false', '2026-03-02T04:00:05.000Z'));
    expect(controlValue(store(), 'tradingEnabled')).toBe('false');
    store().applyControl(sampleControl('tradingEnabled', 'true', '2026-03-02T04:00:01.000Z'));
    expect(controlValue(store(), 'tradingEnabled')).toBe('false');
    expect(controlValue(store(), 'stopLoss')).toBeUndefined();
  });

  it('replaces an executed signal in place and keeps newest first', () => {
    store().setSignals([
      sampleSignal({ id: 1 }),
      sampleSignal({ id: 2, timestamp: '2026-03-02T04:05:00.000Z' }),
    ]);
    store().upsertSignal(sampleSignal({ id: 1, executed: true }));
    expect(store().signals.map((s) => [s.id, s.executed])).toEqual([
      [2, false],
      [1, true],
    ]);
  });

  it('bounds the log list', () => {
    for (let id = 1; id <= MAX_LIVE_ROWS + 5; id += 1) {
      store().addLog(sampleLog({ id, timestamp: new Date(Date.UTC(2026, 2, 2, 4, 0, id)).toISOString() }));
    }
    expect(store().logs).toHaveLength(MAX_LIVE_ROWS);
    expect(store().logs[0]?.id).toBe(MAX_LIVE_ROWS + 5);
  });

  it('keeps only open trades: a closed one leaves the active list', () => {
    store().setActiveTrades([sampleAdminTrade({ id: 1 }), sampleAdminTrade({ id: 2, status: 'closed' })]);
    expect(store().activeTrades.map((t) => t.id)).toEqual([1]);
    store().applyTrade(sampleAdminTrade({ id: 3, timestamp: '2026-03-02T04:10:00.000Z' }));
    store().applyTrade(sampleAdminTrade({ id: 1, status: 'closed', exitPrice: 150, pnl: 1917.5 }));
    expect(store().activeTrades.map((t) => t.id)).toEqual([3]);
  });
});
