// Where a reconciliation of positions with a broker (the runtime's `positions-checked` event) is kept and shown:
// the outcome is stored on the trader's broker account (the Broker Connection card and the dashboard show it), each
// difference is written to the audit log with what was done about it, and admins see it on their live log.
import type { PositionCheckOutcome } from '@optionpilot/engine';
import type { PositionCheckDto } from '../contract';
import { BROKER_LABELS, type BrokerType } from '../contract';
import { appendLog, updateBrokerAccount, type Database } from '../db';
import type { Logger } from '../logger';
import { presentLog } from '../presenters/log';
import { iso } from '../presenters/time';
import type { Realtime } from '../realtime/publisher';

/** The outcome as the trader sees it, checked at `at` (wall clock). */
export function toPositionCheckDto(outcome: PositionCheckOutcome, at: number): PositionCheckDto {
  return {
    checkedAt: iso(at),
    differences: outcome.differences.map((d) => ({
      symbol: d.symbol,
      optionPilot: d.optionPilot,
      broker: d.broker,
      action: d.action,
      closedTradeIds: d.closeIds.map(Number),
    })),
  };
}

/** One sentence per difference, for the audit log (the trader's card words it from the DTO). */
export function describeDifference(
  difference: PositionCheckDto['differences'][number],
  broker: string,
): string {
  const counts = `OptionPilot held ${difference.optionPilot}, ${broker} holds ${difference.broker}`;
  if (difference.action === 'not_managed') {
    return `${difference.symbol}: ${counts}; the difference was not opened by OptionPilot and is not managed by it`;
  }
  const trades = difference.closedTradeIds.map((id) => `#${id}`).join(', ');
  return trades === ''
    ? `${difference.symbol}: ${counts}; its trades could not be closed yet (an order is still settling)`
    : `${difference.symbol}: ${counts}; trade ${trades} closed as sold outside OptionPilot`;
}

/** Reads a stored check back; a column that does not parse is treated as no check at all. */
export function parsePositionCheck(stored: string | null): PositionCheckDto | null {
  if (stored === null) return null;
  try {
    const parsed = JSON.parse(stored) as PositionCheckDto;
    return typeof parsed.checkedAt === 'string' && Array.isArray(parsed.differences) ? parsed : null;
  } catch {
    return null;
  }
}

/** Returns the handler of `positions-checked`: stores the outcome, logs each difference, tells the admins. */
export function createPositionCheckRecorder(options: {
  readonly db: Database;
  readonly publisher: Realtime;
  readonly log: Logger;
  /** wall clock: stored and audit times are wall-clock times, whatever the engine clock */
  readonly now: () => number;
  /** the trader's broker connection changed (after the commit): push it to them */
  readonly changed?: (userId: number) => Promise<void>;
}): (outcome: PositionCheckOutcome) => Promise<void> {
  const { db, publisher, log } = options;
  return async (outcome) => {
    const userId = Number(outcome.accountId);
    const at = options.now();
    const dto = toPositionCheckDto(outcome, at);
    const broker = BROKER_LABELS[outcome.broker as BrokerType] ?? outcome.broker;
    const rows = await db.knex.transaction(async (trx) => {
      await updateBrokerAccount(trx, userId, { position_check: JSON.stringify(dto) }, at);
      const written = [];
      for (const difference of dto.differences) {
        written.push(
          await appendLog(trx, {
            event_type: 'trade',
            description: `Positions reconciled with ${broker}: ${describeDifference(difference, broker)}`,
            user_id: userId,
            data: { ...difference, broker: outcome.broker },
            at,
          }),
        );
      }
      return written;
    });
    for (const row of rows) {
      log.warn({ userId, broker: outcome.broker }, row.description);
      publisher.toAdmins('admin:log', presentLog(row));
    }
    await options.changed?.(userId);
  };
}
