import type { Db } from '../knex';
import { rowMapper } from '../normalise';
import type { StrategyRow } from '../rows';

const toStrategy = rowMapper<StrategyRow>(['active', 'built_in']);

export async function listStrategies(db: Db, options: { activeOnly?: boolean } = {}): Promise<StrategyRow[]> {
  const query = db('strategies').select('*');
  if (options.activeOnly) query.where({ active: true });
  return (await query.orderBy('id')).map(toStrategy);
}

export async function findStrategyByCode(db: Db, code: string): Promise<StrategyRow | undefined> {
  const row: unknown = await db('strategies').where({ code }).first();
  return row ? toStrategy(row) : undefined;
}

export interface NewStrategy {
  code: string;
  name: string;
  description: string;
  type?: StrategyRow['type'];
  active?: boolean;
  /** any JSON-serialisable object */
  params?: unknown;
}

export async function insertStrategy(db: Db, strategy: NewStrategy, now = Date.now()): Promise<StrategyRow> {
  const [row] = await db('strategies')
    .insert({
      ...strategy,
      params: JSON.stringify(strategy.params ?? {}),
      built_in: false,
      created_at: now,
      updated_at: now,
    })
    .returning('*');
  return toStrategy(row);
}

export async function updateStrategy(
  db: Db,
  id: number,
  patch: Partial<Pick<NewStrategy, 'name' | 'description' | 'type' | 'active' | 'params'>>,
  now = Date.now(),
): Promise<StrategyRow | undefined> {
  const values: Record<string, unknown> = { ...patch, updated_at: now };
  if (patch.params !== undefined) values.params = JSON.stringify(patch.params);
  const [row] = await db('strategies').where({ id }).update(values).returning('*');
  return row ? toStrategy(row) : undefined;
}
