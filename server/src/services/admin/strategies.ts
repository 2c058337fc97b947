// The strategy catalogue (`strategies` table): admins list, add and edit; the trading runtime re-reads it on
// `reloadControls()`, called after every write. Parameters are validated by the shared schema both sides use.
import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import type {
  AdminControlName,
  AdminControlValues,
  AdminStrategyDto,
  StrategyParameters,
  patchStrategySchema,
  strategySchema,
} from '../../contract';
import { ADMIN_CONTROL_SCHEMA } from '../../contract';
import type { Deps } from '../../deps';
import { AppError } from '../../errors';
import {
  adminControlValues,
  insertStrategy,
  listStrategies,
  rowMapper,
  updateStrategy,
  type Db,
  type StrategyRow,
} from '../../db';
import { presentStrategy, strategyParameters } from '../../presenters/adminCatalog';
import { announceAudit, recordAudit } from '../audit';

type StrategyDeps = Pick<Deps, 'db' | 'clock' | 'logger' | 'realtime' | 'trading'>;
const toStrategy = rowMapper<StrategyRow>(['active', 'built_in']);

/**
 * The runtime runs the built-in strategy on the admin controls (Strategy tab), not on its row's JSON; it is shown
 * with those values so the page says what actually runs.
 */
async function builtInParameters(db: Db, row: StrategyRow): Promise<StrategyParameters> {
  const controls = await adminControlValues(db);
  const stored = strategyParameters(row);
  const read = <K extends AdminControlName>(
    name: K,
    fallback: AdminControlValues[K],
  ): AdminControlValues[K] => {
    const parsed = ADMIN_CONTROL_SCHEMA[name].safeParse(controls[name]);
    return parsed.success ? (parsed.data as AdminControlValues[K]) : fallback;
  };
  return {
    ...stored,
    interval: read('candleInterval', stored.interval) as StrategyParameters['interval'],
    consecutiveCandles: read('consecutiveCandles', stored.consecutiveCandles),
    minMovement: read('minMovement', stored.minMovement),
    entryOffset: read('entryOffset', stored.entryOffset),
    stopLoss: read('stopLoss', stored.stopLoss),
    target: read('target', stored.target),
  };
}

async function present(db: Db, row: StrategyRow): Promise<AdminStrategyDto> {
  const dto = presentStrategy(row);
  return row.built_in ? { ...dto, parameters: await builtInParameters(db, row) } : dto;
}

export async function listAdminStrategies(deps: Pick<Deps, 'db'>): Promise<AdminStrategyDto[]> {
  const out: AdminStrategyDto[] = [];
  for (const row of await listStrategies(deps.db.knex)) out.push(await present(deps.db.knex, row));
  return out;
}

/** A URL-safe code from the name plus a random suffix (codes are unique and never reused). */
function codeFor(name: string): string {
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 40);
  return `${slug || 'strategy'}-${randomBytes(3).toString('hex')}`;
}

async function reload(deps: StrategyDeps): Promise<void> {
  try {
    await deps.trading.reloadControls();
  } catch (err) {
    // Stored; the runtime's periodic reload (30 s) picks it up.
    deps.logger.error({ err }, 'strategy reload failed');
  }
}

/** `POST /api/admin/strategies` and `PATCH /api/admin/strategies/:id` (id given). */
export async function saveStrategy(props: {
  deps: StrategyDeps;
  adminId: number;
  id?: number;
  input: z.output<typeof strategySchema> | z.output<typeof patchStrategySchema>;
}): Promise<AdminStrategyDto> {
  const { deps, adminId, id, input } = props;
  const now = deps.clock.now();
  const { row, log } = await deps.db.knex.transaction(async (trx) => {
    const raw: unknown = id === undefined ? undefined : await trx('strategies').where({ id }).first();
    const before = raw === undefined ? undefined : toStrategy(raw);
    if (id !== undefined && !before)
      throw new AppError('not_found', { message: `No strategy with id ${id}.` });
    if (before?.built_in && (input.parameters !== undefined || input.sides !== undefined))
      throw new AppError('validation_failed', {
        message:
          'parameters: the built-in strategy runs on the admin controls; change them with PUT /api/admin/control/:settingName',
        field: 'parameters',
      });
    const parameters = { ...(before ? strategyParameters(before) : {}), ...(input.parameters ?? {}) };
    const params = { kind: 'consecutive_breakout', ...parameters };
    let row: StrategyRow | undefined;
    if (before) {
      row = await updateStrategy(
        trx,
        before.id,
        {
          ...(input.name !== undefined ? { name: input.name } : {}),
          ...(input.description !== undefined ? { description: input.description } : {}),
          ...(input.sides !== undefined ? { type: input.sides } : {}),
          ...(input.active !== undefined ? { active: input.active } : {}),
          ...(input.parameters !== undefined ? { params } : {}),
        },
        now,
      );
    } else {
      row = await insertStrategy(
        trx,
        {
          code: codeFor(input.name ?? ''),
          name: input.name ?? '',
          description: input.description ?? '',
          type: input.sides ?? 'BOTH',
          active: input.active ?? true,
          params,
        },
        now,
      );
    }
    if (!row) throw new AppError('not_found');
    const log = await recordAudit({
      db: trx,
      deps,
      entry: {
        type: 'admin',
        description: `Strategy "${row.name}" ${before ? 'changed' : 'created'}`,
        actorId: adminId,
        data: {
          strategyId: row.id,
          before: before ? JSON.stringify(presentStrategy(before)) : null,
          after: JSON.stringify(presentStrategy(row)),
        },
      },
    });
    return { row, log };
  });
  announceAudit({ deps, rows: [log] });
  await reload(deps);
  return present(deps.db.knex, row);
}
