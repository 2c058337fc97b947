// Global bot controls (admin_controls): each write is validated by the setting's one schema (ADMIN_CONTROL_SCHEMA,
// the same the trading runtime parses with), audited before → after, then the runtime reloads and the admins'
// dashboards hear `admin:control`. Pause/resume is the tradingEnabled control.
import type { AdminControlDto, AdminControlName, ControlUpdateResponse } from '../../contract';
import { ADMIN_CONTROL_SCHEMA } from '../../contract';
import type { Deps } from '../../deps';
import { AppError, validationError } from '../../errors';
import { getAdminControl, setAdminControl, type AdminControlRow } from '../../db';
import { iso } from '../../presenters/time';
import { announceAudit, recordAudit } from '../audit';

type ControlDeps = Pick<Deps, 'db' | 'clock' | 'logger' | 'realtime' | 'trading'>;

/** AdminControlRow → AdminControlDto. */
export function presentControl(row: AdminControlRow): AdminControlDto {
  return { settingName: row.setting_name, value: row.value, updatedAt: iso(row.updated_at) };
}

/** The master switch as stored ('true' unless set otherwise). */
export async function tradingEnabled(deps: Pick<Deps, 'db'>): Promise<boolean> {
  const row = await getAdminControl(deps.db.knex, 'tradingEnabled');
  return row?.value !== 'false';
}

/** Sets one control; the value must pass that setting's schema (400 naming `value` otherwise). */
export async function updateControl(props: {
  deps: ControlDeps;
  adminId: number;
  name: AdminControlName;
  value: string;
}): Promise<ControlUpdateResponse> {
  const { deps, adminId, name, value } = props;
  const parsed = ADMIN_CONTROL_SCHEMA[name].safeParse(value);
  if (!parsed.success) {
    const err = validationError(parsed.error, 'value');
    throw new AppError('validation_failed', {
      message: `value: ${err.message.replace(/^value: /, '')}`,
      field: 'value',
    });
  }
  const now = deps.clock.now();
  const { row, log } = await deps.db.knex.transaction(async (trx) => {
    const before = await getAdminControl(trx, name);
    const row = await setAdminControl(trx, name, value, adminId, now);
    const log = await recordAudit({
      db: trx,
      deps,
      entry: {
        type: 'admin',
        description:
          name === 'tradingEnabled'
            ? value === 'true'
              ? 'Trading resumed'
              : 'Trading paused'
            : `${name} changed: ${before?.value ?? '(unset)'} → ${value}`,
        actorId: adminId,
        data: { settingName: name, before: before?.value ?? null, after: value },
      },
    });
    return { row, log };
  });
  announceAudit({ deps, rows: [log] });
  const control = presentControl(row);
  deps.realtime.toAdmins('admin:control', control);
  try {
    await deps.trading.reloadControls();
  } catch (err) {
    // The value is stored and the runtime re-reads controls every 30 s; the admin is told it will apply then.
    deps.logger.error({ err, settingName: name }, 'controls reload failed');
    return {
      success: true,
      message: 'Setting saved; the bot picks it up within 30 seconds.',
      control,
      isRunning: await tradingEnabled(deps),
    };
  }
  return {
    success: true,
    message:
      name === 'tradingEnabled'
        ? value === 'true'
          ? 'Trading resumed'
          : 'Trading paused'
        : 'Setting updated successfully',
    control,
    isRunning: await tradingEnabled(deps),
  };
}

/** `POST /api/admin/trading/flatten-all`: squares off every open position now; audited with the count. */
export async function flattenAll(props: { deps: ControlDeps; adminId: number }): Promise<number> {
  const { deps, adminId } = props;
  const closed = await deps.trading.flattenAll();
  const log = await recordAudit({
    db: deps.db.knex,
    deps,
    entry: {
      type: 'admin',
      description: `Flatten all: ${closed} open position${closed === 1 ? '' : 's'} squared off`,
      actorId: adminId,
      data: { closed },
    },
  });
  announceAudit({ deps, rows: [log] });
  return closed;
}
