// Add / edit a strategy (spec §2, §5): name and description are required ("Missing Information"), the rest are the
// runtime's parameters with the spec's defaults (stop loss 20, target 40, max loss 5000).
import { useState, type FormEvent } from 'react';
import {
  Button,
  Group,
  Modal,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  TextInput,
  Textarea,
} from '@mantine/core';
import { strategySchema, type AdminStrategyDto, type StrategyParameters } from '@optionpilot/server/contract';
import { toastError, toastSuccess } from '../../../lib/toast';
import { useSubmit } from '../../../lib/useSubmit';
import { strategiesApi, type StrategyBody } from './strategiesApi';

export const DEFAULT_PARAMETERS: StrategyParameters = {
  interval: 1,
  consecutiveCandles: 3,
  minMovement: 5,
  entryOffset: 2,
  stopLoss: 20,
  target: 40,
  maxLoss: 5000,
  orderType: 'SLM',
};

const NUMBER_FIELDS: Array<[Exclude<keyof StrategyParameters, 'interval' | 'orderType'>, string]> = [
  ['consecutiveCandles', 'Consecutive candles'],
  ['minMovement', 'Minimum movement (points)'],
  ['entryOffset', 'Entry offset (points)'],
  ['stopLoss', 'Stop loss (points)'],
  ['target', 'Target (points)'],
  ['maxLoss', 'Max loss per day (₹)'],
];

function initial(strategy: AdminStrategyDto | null): StrategyBody {
  if (!strategy) {
    return { name: '', description: '', sides: 'BOTH', active: true, parameters: { ...DEFAULT_PARAMETERS } };
  }
  const { name, description, sides, active, parameters } = strategy;
  return { name, description, sides, active, parameters: { ...parameters } };
}

export function StrategyForm({
  strategy,
  onClose,
}: {
  strategy: AdminStrategyDto | null;
  onClose: (changed: boolean) => void;
}) {
  const [form, setForm] = useState<StrategyBody>(() => initial(strategy));
  const { busy, run } = useSubmit({ title: 'Error', message: 'Failed to save the strategy' });
  const setParam = <K extends keyof StrategyParameters>(key: K, value: StrategyParameters[K]) =>
    setForm((f) => ({ ...f, parameters: { ...f.parameters, [key]: value } }));

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!form.name.trim() || !form.description.trim()) {
      toastError('Missing Information', 'Please fill in strategy name and description.');
      return;
    }
    const parsed = strategySchema.safeParse(form);
    if (!parsed.success) {
      toastError('Error', parsed.error.issues[0]?.message ?? 'Invalid strategy');
      return;
    }
    void run(async () => {
      if (strategy) await strategiesApi.update(strategy.id, form);
      else await strategiesApi.create(form);
      toastSuccess(strategy ? 'Strategy updated' : 'Strategy added', form.name);
      onClose(true);
    });
  };

  return (
    <Modal
      opened
      onClose={() => onClose(false)}
      title={strategy ? 'Edit strategy' : 'Add strategy'}
      size="lg"
      centered
    >
      <form onSubmit={submit} noValidate aria-label="Strategy form">
        <Stack gap="sm">
          <TextInput
            label="Name"
            value={form.name}
            onChange={(e) => setForm({ ...form, name: e.currentTarget.value })}
          />
          <Textarea
            label="Description"
            value={form.description}
            onChange={(e) => setForm({ ...form, description: e.currentTarget.value })}

            rows={3}
          />
          <SimpleGrid cols={3}>
            <Select
              label="Type"
              data={['CE', 'PE', 'BOTH']}
              value={form.sides}
              allowDeselect={false}
              onChange={(v) => v && setForm({ ...form, sides: v as StrategyBody['sides'] })}
            />
            <Select
              label="Candle interval (min)"
              data={['1', '3', '5', '15']}
              value={String(form.parameters.interval)}
              allowDeselect={false}
              onChange={(v) => v && setParam('interval', Number(v) as StrategyParameters['interval'])}
            />
            <Select
              label="Order type"
              data={['SLM', 'MARKET', 'LIMIT']}
              value={form.parameters.orderType}
              allowDeselect={false}
              onChange={(v) => v && setParam('orderType', v as StrategyParameters['orderType'])}
            />
            {NUMBER_FIELDS.map(([key, label]) => (
              <NumberInput
                key={key}
                label={label}
                value={form.parameters[key]}
                min={0}
                onChange={(v) => setParam(key, typeof v === 'number' ? v : Number.NaN)}
              />
            ))}
          </SimpleGrid>
          <Switch
            label="Active (the runtime runs active strategies)"
            checked={form.active}
            onChange={(e) => setForm({ ...form, active: e.currentTarget.checked })}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => onClose(false)} disabled={busy}>
              Cancel
            </Button>
            <Button type="submit" disabled={busy}>
              {busy ? 'Saving...' : 'Save strategy'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
