// Commands of the user resource: settings, the bot switch and broker credentials. Each writes in one short
// transaction (with its audit entry where the change matters to an audit), then, after the commit, tells the
// trading engine to re-evaluate the user (which pushes `bot:status`).
import { rupeesToPaise } from '@optionpilot/engine/money';
import type { z } from 'zod';
import type {
  botSwitchSchema,
  brokerCredentialsSchema,
  tradingSettingsSchema,
  userSettingsSchema,
} from '../../contract';
import type { Deps, RequestMeta } from '../../deps';
import { last4, type SecretBox } from '../../crypto';
import {
  saveBrokerCredentials,
  saveTradingSettings,
  saveUserSettings,
  type BrokerAccountRow,
  type TradingSettingsRow,
  type UserSettingsRow,
  type StrategyRow,
} from '../../db';
import { AppError } from '../../errors';
import { announceAudit, recordAudit } from '../../services/audit';
import type { TradingHooks } from './tradingHooks';

type CommandDeps = Pick<Deps, 'db' | 'clock' | 'realtime' | 'logger'>;

/** Runs the engine's re-evaluation after a committed change; its failure is logged, never the caller's error. */
export async function notifyEngine(
  deps: Pick<CommandDeps, 'logger'>,
  hooks: Pick<TradingHooks, 'onUserChanged'>,
  userId: number,
): Promise<void> {
  try {
    await hooks.onUserChanged(userId);
  } catch (err) {
    deps.logger.error({ err, userId }, 'trading refresh after a user change failed');
  }
}

/** Saves the Settings tab (max daily loss arrives in rupees, is stored in paise). */
export async function updateUserSettings(props: {
  deps: CommandDeps;
  hooks: TradingHooks;
  userId: number;
  input: z.output<typeof userSettingsSchema>;
}): Promise<UserSettingsRow> {
  const { deps, hooks, userId, input } = props;
  const row = await saveUserSettings(
    deps.db.knex,
    userId,
    {
      auto_trading: input.autoTrading,
      max_daily_loss_paise: rupeesToPaise(input.maxDailyLoss),
      trading_start: input.tradingHoursStart,
      trading_end: input.tradingHoursEnd,
    },
    deps.clock.now(),
  );
  await notifyEngine(deps, hooks, userId);
  return row;
}

/** Saves the Trading Settings dialog (SLM, target points, lots). */
export async function updateTradingSettings(props: {
  deps: CommandDeps;
  hooks: TradingHooks;
  userId: number;
  input: z.output<typeof tradingSettingsSchema>;
  /** the active strategies: a trader may follow only one of them */
  strategies: readonly StrategyRow[];
}): Promise<TradingSettingsRow> {
  const { deps, hooks, userId, input } = props;
  const chosen = input.strategyId ?? null;
  const strategy = chosen === null ? undefined : props.strategies.find((s) => s.id === chosen);
  if (chosen !== null && strategy === undefined) {
    throw new AppError('validation_failed', {
      message: 'strategyId must be one of the strategies offered',
      field: 'strategyId',
    });
  }
  const row = await saveTradingSettings(
    deps.db.knex,
    userId,
    {
      order_type: input.orderType,
      target_points: input.targetSetting,
      trade_quantity: input.tradeQuantity,
      // Choosing the built-in strategy is choosing the default; absent keeps the current choice.
      ...(input.strategyId === undefined ? {} : { strategy_id: strategy?.built_in ? null : chosen }),
    },
    deps.clock.now(),
  );
  await notifyEngine(deps, hooks, userId);
  return row;
}

/** Turns the user's own algo switch on or off (audited: it decides whether orders are placed for the user). */
export async function setBotSwitch(props: {
  deps: CommandDeps;
  hooks: TradingHooks;
  userId: number;
  input: z.output<typeof botSwitchSchema>;
  meta: RequestMeta;
}): Promise<void> {
  const { deps, hooks, userId, input, meta } = props;
  const now = deps.clock.now();
  const log = await deps.db.knex.transaction(async (trx) => {
    await saveTradingSettings(trx, userId, { bot_enabled: input.enabled }, now);
    return recordAudit({
      db: trx,
      deps,
      entry: {
        type: 'trade',
        description: input.enabled
          ? 'Algo trading switched on by the user'
          : 'Algo trading switched off by the user',
        userId,
        actorId: userId,
        data: { ip: meta.ip },
      },
    });
  });
  announceAudit({ deps, rows: [log] });
  await notifyEngine(deps, hooks, userId);
}

/** Keys this short would be shown whole by their last 4 characters; they keep no visible part at all. */
const MIN_KEY_LENGTH_FOR_LAST4 = 9;

/**
 * Seals and stores broker credentials (AES-256-GCM), keeping only the key's last 4 characters in clear for masked
 * display. New credentials drop any broker session. The audit entry names the broker, never a key or secret.
 */
export async function saveBroker(props: {
  deps: CommandDeps;
  hooks: TradingHooks;
  box: SecretBox;
  userId: number;
  input: z.output<typeof brokerCredentialsSchema>;
  meta: RequestMeta;
}): Promise<BrokerAccountRow> {
  const { deps, hooks, box, userId, input, meta } = props;
  const now = deps.clock.now();
  const sealed = {
    broker_type: input.brokerType,
    api_key_enc: box.seal(input.apiKey),
    api_secret_enc: box.seal(input.apiSecret),
    api_key_last4: input.apiKey.length >= MIN_KEY_LENGTH_FOR_LAST4 ? last4(input.apiKey) : '',
  };
  const { account, log } = await deps.db.knex.transaction(async (trx) => {
    const account = await saveBrokerCredentials(trx, userId, sealed, now);
    const log = await recordAudit({
      db: trx,
      deps,
      entry: {
        type: 'system',
        description: `Broker credentials saved (${input.brokerType})`,
        userId,
        actorId: userId,
        data: { brokerType: input.brokerType, ip: meta.ip },
      },
    });
    return { account, log };
  });
  announceAudit({ deps, rows: [log] });
  await notifyEngine(deps, hooks, userId);
  return account;
}
