// The runtime's events on the sockets: each arrives after its write committed (the runtime emits only once the
// store resolved) and goes out through the same presenters as the REST responses, to the rooms that may see it.
import type { PositionCheckOutcome, RuntimeEvent } from '@optionpilot/engine';
import type { AdminTradeDto } from '../contract';
import type { UserRow } from '../db';
import type { Logger } from '../logger';
import { presentAdminTrade } from '../presenters/adminTrade';
import { presentLog } from '../presenters/log';
import { presentSignal } from '../presenters/signal';
import { presentTrade } from '../presenters/trade';
import type { Realtime } from '../realtime/publisher';
import { createTurnBatch } from '../realtime/turnBatch';
import type { StoredRows } from './runtimeStore';

/** Options of {@link createEventPublisher}. */
export interface EventPublisherOptions {
  /** the user a trade belongs to, for the admin rows */
  readonly ownerOf: (userId: number) => Promise<UserRow | undefined>;
  readonly publisher: Realtime;
  readonly rows: StoredRows;
  readonly log: Logger;
  /** a user's stats and bot status changed (a trade opened or closed): push them */
  readonly userChanged: (userId: number) => Promise<void>;
  /** an open trade's mark moved: push the user's stats (today's and total P&L include it) */
  readonly openPnlMoved: (userId: number) => Promise<void>;
  /** the master switch moved: every bot status changes */
  readonly tradingSwitched: () => Promise<void>;
  /** positions were reconciled with a broker: store and show the outcome (positionChecks.ts) */
  readonly positionsChecked: (outcome: PositionCheckOutcome) => Promise<void>;
}

/** Returns the runtime's `events` port. */
export function createEventPublisher(options: EventPublisherOptions): (event: RuntimeEvent) => void {
  const { publisher, rows, log } = options;
  // A risk flush updates every open position at once: the admins get those rows as one frame, not one per trade.
  const adminTrades = createTurnBatch<AdminTradeDto>((trades) => publisher.toAdmins('admin:trades', trades));
  // Owners of open trades, for the admin rows; a handful of users at a time.
  const owners = new Map<number, UserRow>();

  async function owner(userId: number): Promise<UserRow | undefined> {
    const known = owners.get(userId);
    if (known !== undefined) return known;
    const user = await options.ownerOf(userId);
    if (user !== undefined) owners.set(userId, user);
    return user;
  }

  async function publishTrade(tradeId: string, closed: boolean): Promise<void> {
    const trade = rows.trade(tradeId);
    if (trade === undefined) return;
    publisher.toUser(trade.user_id, 'user:trade', presentTrade(trade));
    const user = await owner(trade.user_id);
    // The visitors' demo account is no customer: its trades stay off the admins' trade views (its log rows go out).
    if (user !== undefined && !user.is_demo) adminTrades.add(trade.id, presentAdminTrade(trade, user));
    const logRow = rows.log(tradeId);
    if (logRow !== undefined) publisher.toAdmins('admin:log', presentLog(logRow));
    if (closed) {
      rows.release(tradeId);
      owners.delete(trade.user_id);
    }
    await options.userChanged(trade.user_id);
  }

  function run(what: string, task: Promise<unknown>): void {
    task.catch((err: unknown) => log.error({ err }, `publishing ${what} failed`));
  }

  return (event) => {
    switch (event.kind) {
      case 'signal': {
        const row = rows.signal(event.signalId);
        if (row !== undefined) publisher.toAdmins('admin:signal', presentSignal(row));
        if (event.event.kind !== 'armed') rows.releaseSignal(event.signalId);
        return;
      }
      case 'trade-opened':
        run('trade opened', publishTrade(event.tradeId, false));
        return;
      case 'trade-closed':
        run('trade closed', publishTrade(event.close.tradeId, true));
        return;
      case 'trade-updated': {
        const trade = rows.trade(event.tradeId);
        if (trade === undefined) return;
        // The trader and admins see the mark-to-market P&L (and a trailing stop) move, and the trader's stats with it.
        publisher.toUser(trade.user_id, 'user:trade', presentTrade(trade, event.markPnl));
        run('open P&L', options.openPnlMoved(trade.user_id));
        run(
          'admin trade update',
          owner(trade.user_id).then((user) => {
            // The visitors' demo account is no customer: its trades stay off the admins' trade views.
            if (user !== undefined && !user.is_demo)
              adminTrades.add(trade.id, presentAdminTrade(trade, user, event.markPnl));
          }),
        );
        return;
      }
      case 'halted':
        run('trading switch', options.tradingSwitched());
        return;
      case 'positions-checked': {
        const { kind: _kind, ...outcome } = event;
        run('positions check', options.positionsChecked(outcome));
        return;
      }
      case 'log':
        log[event.level]({ accountId: event.accountId, ...event.data }, event.message);
        return;
      case 'order':
        return;
    }
  };
}
