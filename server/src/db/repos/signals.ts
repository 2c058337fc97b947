import type { Db } from '../knex';
import { rowMapper } from '../normalise';
import type { SignalRow } from '../rows';

const toSignal = rowMapper<SignalRow>(['executed']);

export type NewSignal = Omit<
  SignalRow,
  'id' | 'executed' | 'executed_at' | 'executed_price_x100' | 'skipped_reason'
>;

/**
 * Records a signal. The same setup (strategy, candle, interval, type) recorded again, e.g. after a restart, returns the row
 * already stored instead of a second one.
 */
export async function insertSignal(
  db: Db,
  signal: NewSignal,
): Promise<{ signal: SignalRow; duplicate: boolean }> {
  const inserted = await db('signals')
    .insert(signal)
    .onConflict(['strategy_id', 'setup_candle_at', 'interval_minutes', 'type'])
    .ignore()
    .returning('*');
  if (inserted[0]) return { signal: toSignal(inserted[0]), duplicate: false };
  const existing: unknown = await db('signals')
    .where({
      strategy_id: signal.strategy_id,
      setup_candle_at: signal.setup_candle_at,
      interval_minutes: signal.interval_minutes,
      type: signal.type,
    })
    .first();
  return { signal: toSignal(existing), duplicate: true };
}

/** Marks a signal executed (first time only); undefined when it already was. */
export async function markSignalExecuted(
  db: Db,
  id: number,
  executedAt: number,
  executedPriceX100: number,
): Promise<SignalRow | undefined> {
  const [row] = await db('signals')
    .where({ id, executed: false })
    .update({ executed: true, executed_at: executedAt, executed_price_x100: executedPriceX100 })
    .returning('*');
  return row ? toSignal(row) : undefined;
}

/** Records why an armed signal did not execute (expired, side disabled, ...). */
export async function markSignalSkipped(db: Db, id: number, reason: string): Promise<void> {
  await db('signals').where({ id, executed: false }).update({ skipped_reason: reason });
}

export async function findSignal(db: Db, id: number): Promise<SignalRow | undefined> {
  const row: unknown = await db('signals').where({ id }).first();
  return row ? toSignal(row) : undefined;
}

/** Most recent first. */
export async function listSignals(
  db: Db,
  filter: { since?: number; until?: number; limit?: number } = {},
): Promise<SignalRow[]> {
  const query = db('signals').select('*');
  if (filter.since !== undefined) query.where('signal_at', '>=', filter.since);
  if (filter.until !== undefined) query.where('signal_at', '<', filter.until);
  query
    .orderBy([
      { column: 'signal_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(Math.min(Math.max(filter.limit ?? 100, 1), 1000));
  return (await query).map(toSignal);
}
