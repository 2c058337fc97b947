// Trading Settings dialog (spec §2): order type SL-M, target 15..40 points in steps of 5, 1..10 lots. The same zod
// schema as the server validates here, so the user sees the server's wording before a request is even sent.
import { useEffect, useState } from 'react';
import { Alert, Button, Group, Loader, Modal, NumberInput, Select, Stack, Text } from '@mantine/core';
import {
  TARGET_SETTINGS,
  tradingSettingsSchema,
  type TradingSettingsDto,
  type TradingSettingsRequest,
} from '@optionpilot/server/contract';
import { ApiError, errorMessage } from '../../api/client';
import { fieldErrorsOf, type FieldErrors } from '../../lib/fieldErrors';
import { dashboardApi } from './dashboardApi';

const FIELDS = ['orderType', 'targetSetting', 'tradeQuantity', 'strategyId'] as const;
type Field = (typeof FIELDS)[number];

/** Spec §9 defaults when the server has none yet: SL-M, the strategy's 40-point target, one lot. */
const DEFAULTS: TradingSettingsDto = {
  orderType: 'SLM',
  targetSetting: 40,
  tradeQuantity: 1,
  lotSize: 65,
  strategyId: null,
  strategies: [],
};
/** The Select's value for "the default strategy" (a strategy id is never 0). */
const DEFAULT_STRATEGY = '0';

const TARGET_OPTIONS = TARGET_SETTINGS.map((t) => ({ value: String(t), label: `${t} points` }));

/**
 * What the stop order does, in one plain statement (it once said "stop-loss market" and then "stop-limit"). Live
 * stops rest at the broker as SL-M, sent with the exchange's market protection (Kite) or as a protected stop-limit
 * (Upstox): either way it sells at once, never more than the protection band below the trigger
 * (engine/src/execution/marketProtection.ts).
 */
export const STOP_ORDER_LABEL = 'Stop-loss, sold at market (SL-M)';
export const STOP_ORDER_DESCRIPTION =
  'When the premium falls to your stop, the position is sold at once. Live: a sell stop order waits at your ' +
  'broker from the moment you enter and fills no more than the exchange’s price-protection band below the stop. ' +
  'Paper: OptionPilot sells at the stop itself.';

export interface TradingSettingsDialogProps {
  opened: boolean;
  onClose: () => void;
  /** saves (and, when switching on, starts the bot); rejects with the server's error */
  onSubmit: (settings: TradingSettingsRequest) => Promise<void>;
  submitLabel: string;
}

export function TradingSettingsDialog({
  opened,
  onClose,
  onSubmit,
  submitLabel,
}: TradingSettingsDialogProps) {
  const [loaded, setLoaded] = useState<TradingSettingsDto | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [target, setTarget] = useState<string>(String(DEFAULTS.targetSetting));
  const [lots, setLots] = useState<number | string>(DEFAULTS.tradeQuantity);
  const [strategy, setStrategy] = useState<string>(DEFAULT_STRATEGY);
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  // Each opening starts from what the server has, so a cancelled edit never lingers.
  useEffect(() => {
    if (!opened) return undefined;
    let current = true;
    setLoaded(null);
    setLoadError(null);
    setErrors({});
    setFormError(null);
    dashboardApi
      .tradingSettings()
      .then((s) => {
        if (!current) return;
        setLoaded(s);
        setTarget(String(s.targetSetting));
        setLots(s.tradeQuantity);
        setStrategy(s.strategyId === null ? DEFAULT_STRATEGY : String(s.strategyId));
      })
      .catch((err: unknown) => {
        if (!current) return;
        // Still usable: the defaults are valid settings and saving creates them on the server.
        setLoaded(DEFAULTS);
        setTarget(String(DEFAULTS.targetSetting));
        setLots(DEFAULTS.tradeQuantity);
        setLoadError(errorMessage(err, 'Could not load your trading settings'));
      });
    return () => {
      current = false;
    };
  }, [opened]);

  const lotSize = loaded?.lotSize ?? DEFAULTS.lotSize;
  const lotsNumber = typeof lots === 'number' ? lots : Number.NaN;

  const save = async () => {
    const parsed = tradingSettingsSchema.safeParse({
      orderType: 'SLM',
      targetSetting: Number(target),
      tradeQuantity: typeof lots === 'number' ? lots : lots.trim() === '' ? undefined : Number(lots),
      strategyId: strategy === DEFAULT_STRATEGY ? null : Number(strategy),
    });
    if (!parsed.success) {
      setErrors(fieldErrorsOf(parsed.error, FIELDS));
      return;
    }
    setErrors({});
    setFormError(null);
    setSaving(true);
    try {
      await onSubmit(parsed.data);
      onClose();
    } catch (err) {
      const named = err instanceof ApiError ? err.field : null;
      const field = FIELDS.find((f) => f === named);
      if (field) setErrors({ [field]: err instanceof Error ? err.message : '' });
      else setFormError(errorMessage(err, 'Failed to save trading settings'));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal opened={opened} onClose={saving ? () => undefined : onClose} title="Trading Settings" centered>
      {!loaded ? (
        <Group justify="center" py="lg">
          <Loader size="sm" aria-label="Loading trading settings" />
        </Group>
      ) : (
        <Stack gap="md">
          {loadError && (
            <Alert color="yellow" variant="light">
              {loadError}. Showing the defaults.
            </Alert>
          )}
          {(loaded.strategies.length > 1 || loaded.strategyId !== null) && (
            <Select
              label="Strategy"
              data={loaded.strategies.map((option) => ({
                value: option.isDefault ? DEFAULT_STRATEGY : String(option.id),
                label: option.isDefault ? `${option.name} (default)` : option.name,
              }))}
              value={strategy}
              onChange={(v) => v && setStrategy(v)}
              allowDeselect={false}
              description={
                loaded.strategies.find((o) => (o.isDefault ? DEFAULT_STRATEGY : String(o.id)) === strategy)
                  ?.description
              }
              error={errors.strategyId}
            />
          )}
          <Select
            label="Order Type"
            data={[{ value: 'SLM', label: STOP_ORDER_LABEL }]}
            value="SLM"
            allowDeselect={false}
            description={STOP_ORDER_DESCRIPTION}
            error={errors.orderType}
          />
          <Select
            label="Target (points)"
            data={TARGET_OPTIONS}
            value={target}
            onChange={(v) => v && setTarget(v)}
            allowDeselect={false}
            description="Premium points above entry at which the position is closed"
            error={errors.targetSetting}
          />
          <NumberInput
            label="Trade Quantity (lots)"
            value={lots}
            onChange={setLots}
            min={1}
            max={10}
            step={1}
            allowDecimal={false}
            clampBehavior="none"
            description={
              Number.isFinite(lotsNumber)
                ? `${lotsNumber} × ${lotSize} = ${lotsNumber * lotSize} qty`
                : `${lotSize} qty per lot`
            }
            error={errors.tradeQuantity}
          />
          {formError && (
            <Text c="red.7" size="sm" role="alert">
              {formError}
            </Text>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={saving}>
              Cancel
            </Button>
            <Button onClick={() => void save()} loading={saving}>
              {submitLabel}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
