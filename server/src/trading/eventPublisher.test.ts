import { createPositionRisk, type RuntimeEvent } from '@optionpilot/engine';
import { describe, expect, it, vi } from 'vitest';
import type { LogRow, SignalRow, TradeRow, UserRow } from '../db';
import { createLogger } from '../logger';
import type { Realtime } from '../realtime/publisher';
import { createEventPublisher } from './eventPublisher';
import type { StoredRows } from './runtimeStore';

const trade = {
  id: 7,
  user_id: 3,
  symbol: 'NIFTY13JAN2624000CE',
  instrument: 'NIFTY',
  trade_type: 'CALL',
  entry_price_paise: 10_005,
  exit_price_paise: null,
  stop_loss_paise: 8_005,
  target_paise: 14_005,
  quantity: 65,
  pnl_paise: null,
  status: 'open',
  exit_reason: null,
  paper: true,
  opened_at: 0,
  created_at: 0,
  closed_at: null,
} as unknown as TradeRow;

function harness(owner: Partial<UserRow> = {}) {
  const sent: { room: string; event: string; payload: unknown }[] = [];
  const publisher = {
    toUser: (userId: number, event: string, payload: unknown) =>
      sent.push({ room: `user-${userId}`, event, payload }),
    toAdmins: (event: string, payload: unknown) => sent.push({ room: 'admins', event, payload }),
  } as unknown as Realtime;
  const released: string[] = [];
  const rows: StoredRows = {
    signal: () => ({ id: 1, signal_at: 0, type: 'CALL' }) as unknown as SignalRow,
    trade: (id) => ({ ...trade, id: Number(id) }),
    log: (): LogRow => ({
      id: 1,
      at: 0,
      event_type: 'trade',
      description: 'opened',
      user_id: 3,
      actor_id: null,
      data: null,
    }),
    release: (id) => released.push(id),
    releaseSignal: (id) => released.push(`signal ${id}`),
  };
  const ownerOf = () =>
    Promise.resolve({ id: 3, first_name: 'A', last_name: 'B', email: 'a@b.c', ...owner } as UserRow);
  const userChanged = vi.fn(() => Promise.resolve());
  const openPnlMoved = vi.fn(() => Promise.resolve());
  const tradingSwitched = vi.fn(() => Promise.resolve());
  const positionsChecked = vi.fn(() => Promise.resolve());
  const publish = createEventPublisher({
    ownerOf,
    publisher,
    rows,
    log: createLogger({ level: 'silent' }),
    userChanged,
    openPnlMoved,
    tradingSwitched,
    positionsChecked,
  });
  return { sent, released, publish, userChanged, openPnlMoved, tradingSwitched, positionsChecked };
}

describe('createEventPublisher', () => {
  it('hands a positions check to its recorder without the event kind', async () => {
    const h = harness();
    const outcome = { accountId: '3', broker: 'zerodha', checkedAt: 5, differences: [] };
    h.publish({ kind: 'positions-checked', ...outcome });
    await vi.waitFor(() => expect(h.positionsChecked).toHaveBeenCalledWith(outcome));
  });

  it('sends a trade to its owner and to admins, with the log row, then refreshes the owner’s stats', async () => {
    const h = harness();
    h.publish({ kind: 'trade-opened', tradeId: '7', trade: {} } as RuntimeEvent);
    await vi.waitFor(() => expect(h.userChanged).toHaveBeenCalledWith(3));
    // The admins' trade row waits for the end of the turn (other trades may change with it).
    await vi.waitFor(() => expect(h.sent).toHaveLength(3));
    expect(h.sent.map((s) => `${s.room} ${s.event}`)).toEqual([
      'user-3 user:trade',
      'admins admin:log',
      'admins admin:trades',
    ]);
    expect(h.sent[2]?.payload).toEqual([
      expect.objectContaining({ id: 7, user: expect.objectContaining({ email: 'a@b.c' }) }),
    ]);
  });

  it('keeps the demo account’s trades off the admins’ trade views, but logs them', async () => {
    const h = harness({ is_demo: true });
    h.publish({ kind: 'trade-opened', tradeId: '7', trade: {} } as RuntimeEvent);
    await vi.waitFor(() => expect(h.userChanged).toHaveBeenCalledWith(3));
    await new Promise((resolve) => setImmediate(resolve));
    expect(h.sent.map((s) => `${s.room} ${s.event}`)).toEqual(['user-3 user:trade', 'admins admin:log']);
  });

  it('sends an open trade’s mark-to-market P&L to its owner and to admins, and pushes the owner’s stats', async () => {
    const h = harness();
    const risk = createPositionRisk({ entryPrice: 100.05, stopLoss: 20, target: 40 });
    h.publish({
      kind: 'trade-updated',
      tradeId: '7',
      accountId: '3',
      risk,
      markPnl: -325.5,
      stopMoved: false,
    });
    await vi.waitFor(() => expect(h.sent).toHaveLength(2));
    expect(h.sent).toEqual([
      {
        room: 'user-3',
        event: 'user:trade',
        payload: expect.objectContaining({ markPnl: -325.5, pnl: null }),
      },
      {
        room: 'admins',
        event: 'admin:trades',
        payload: [
          expect.objectContaining({
            symbol: 'NIFTY13JAN2624000CE',
            markPnl: -325.5,
            pnl: null,
            user: { firstName: 'A', lastName: 'B', email: 'a@b.c' },
          }),
        ],
      },
    ]);
    expect(h.openPnlMoved).toHaveBeenCalledWith(3);
    expect(h.userChanged).not.toHaveBeenCalled();
  });

  it('sends the admins one frame for the trades a risk flush updates together, the newest row per trade', async () => {
    const h = harness();
    const risk = createPositionRisk({ entryPrice: 100.05, stopLoss: 20, target: 40 });
    const update = (tradeId: string, markPnl: number) =>
      h.publish({ kind: 'trade-updated', tradeId, accountId: '3', risk, markPnl, stopMoved: false });
    update('7', -10);
    update('8', 20);
    update('7', -30);
    await vi.waitFor(() => expect(h.sent.filter((s) => s.room === 'admins')).toHaveLength(1));
    await new Promise((resolve) => setImmediate(resolve));
    const admins = h.sent.filter((s) => s.room === 'admins');
    expect(admins).toHaveLength(1);
    expect(admins[0]?.event).toBe('admin:trades');
    expect(
      (admins[0]?.payload as Array<{ id: number; markPnl: number }>).map((t) => [t.id, t.markPnl]),
    ).toEqual([
      [7, -30],
      [8, 20],
    ]);
    // The owner's own rows are not held back: each goes out as it comes.
    expect(h.sent.filter((s) => s.event === 'user:trade')).toHaveLength(3);

    // The next turn's updates are a frame of their own.
    update('8', 25);
    await vi.waitFor(() => expect(h.sent.filter((s) => s.room === 'admins')).toHaveLength(2));
  });

  it('releases a signal once its last event is out, and tells every bot when trading is paused', () => {
    const h = harness();
    h.publish({ kind: 'signal', strategyId: '1', signalId: '4', event: { kind: 'armed' } } as RuntimeEvent);
    expect(h.released).toEqual([]);
    h.publish({ kind: 'signal', strategyId: '1', signalId: '4', event: { kind: 'expired' } } as RuntimeEvent);
    expect(h.released).toEqual(['signal 4']);
    expect(h.sent.filter((s) => s.event === 'admin:signal')).toHaveLength(2);
    h.publish({ kind: 'halted', tradingEnabled: false });
    expect(h.tradingSwitched).toHaveBeenCalledTimes(1);
  });
});
