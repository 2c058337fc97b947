// Paper / Live per trader. Paper is the default and always allowed; Live is stored only with the risk disclosure
// accepted (the schema demands it) and a broker session valid now. The engine still trades paper whenever the
// session lapses (evaluateEligibility), so a stored "live" never outlives the session it was granted with.
import type { z } from 'zod';
import { LIVE_RISK_DISCLOSURE, type TradingModeDto, type tradingModeSchema } from '../contract';
import type { Deps } from '../deps';
import { getTradingSettings, saveTradingSettings } from '../db';
import { AppError } from '../errors';
import { notifyEngine } from '../routes/user/commands';
import type { TradingHooks } from '../routes/user/tradingHooks';
import { announceAudit, recordAudit } from '../services/audit';
import { validBrokerSession } from './connection';

type ModeDeps = Pick<Deps, 'db' | 'clock' | 'logger' | 'realtime'>;

type ModeHooks = Pick<TradingHooks, 'onUserChanged' | 'botStatus'>;

/**
 * The trader's chosen mode, and the mode the engine really trades them in now (its bot status): the dashboard must
 * not say Live while the runtime still routes the account's orders to the paper broker.
 */
export async function tradingModeOf(
  deps: ModeDeps,
  hooks: ModeHooks,
  userId: number,
): Promise<TradingModeDto> {
  const now = deps.clock.now();
  const settings = await getTradingSettings(deps.db.knex, userId, now);
  const liveAvailable = (await validBrokerSession(deps.db.knex, userId, now)) !== undefined;
  const engine = await hooks.botStatus(userId);
  return {
    mode: settings.mode,
    effectiveMode: settings.mode === 'live' && liveAvailable && engine.mode === 'live' ? 'live' : 'paper',
    liveAvailable,
    riskDisclosure: LIVE_RISK_DISCLOSURE,
  };
}

/** Switches the mode; Live without a valid broker session is a 409 and changes nothing. Audited either way. */
export async function setTradingMode(props: {
  deps: ModeDeps;
  hooks: ModeHooks;
  userId: number;
  input: z.output<typeof tradingModeSchema>;
  ip: string;
}): Promise<TradingModeDto> {
  const { deps, hooks, userId, input } = props;
  const now = deps.clock.now();
  if (input.mode === 'live' && !(await validBrokerSession(deps.db.knex, userId, now))) {
    throw new AppError('broker_not_connected');
  }
  const log = await deps.db.knex.transaction(async (trx) => {
    await saveTradingSettings(trx, userId, { mode: input.mode }, now);
    return recordAudit({
      db: trx,
      deps,
      entry: {
        type: 'trade',
        description:
          input.mode === 'live'
            ? 'Live trading switched on by the user (risk disclosure accepted)'
            : 'Paper trading chosen by the user',
        userId,
        actorId: userId,
        data: { mode: input.mode, ip: props.ip },
      },
    });
  });
  announceAudit({ deps, rows: [log] });
  await notifyEngine(deps, hooks, userId);
  return tradingModeOf(deps, hooks, userId);
}
