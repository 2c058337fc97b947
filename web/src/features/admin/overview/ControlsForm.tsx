// A form over some numeric admin controls (Quick Settings: stop loss and target; the Strategy tab: all of them).
// It starts from the live values, sends only the fields that changed, one PUT each, and shows the server's words
// when a value is refused.
import { useEffect, useState, type FormEvent } from 'react';
import { Button, Group, NumberInput, SimpleGrid } from '@mantine/core';
import { toastSuccess } from '../../../lib/toast';
import { useSubmit } from '../../../lib/useSubmit';
import { CONTROL_LABELS, updateControl, type NumericControl } from '../controlsApi';
import { useAdminLiveStore } from '../live/adminLiveStore';

type Values = Partial<Record<NumericControl, string>>;

function useLiveValues(fields: readonly NumericControl[]): Values | null {
  const controls = useAdminLiveStore((s) => s.controls);
  if (!controls) return null;
  const values: Values = {};
  for (const f of fields) {
    const value = controls[f]?.value;
    if (value !== undefined) values[f] = value;
  }
  return values;
}

export function ControlsForm({ fields, label }: { fields: readonly NumericControl[]; label: string }) {
  const live = useLiveValues(fields);
  const [draft, setDraft] = useState<Values>({});
  const { busy, run } = useSubmit({ title: 'Error', message: 'Failed to update setting' });
  const liveKey = JSON.stringify(live);

  // A change pushed by the server (another admin) replaces what is shown, as long as it was not edited here.
  useEffect(() => setDraft({}), [liveKey]);

  const valueOf = (f: NumericControl) => draft[f] ?? live?.[f] ?? '';
  const changed = fields.filter((f) => draft[f] !== undefined && draft[f] !== live?.[f]);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void run(async () => {
      for (const f of changed) await updateControl(f, String(draft[f]));
      setDraft({});
      toastSuccess('Setting updated successfully');
    });
  };

  return (
    <form onSubmit={onSubmit} aria-label={label}>
      <SimpleGrid cols={{ base: 1, sm: fields.length > 2 ? 3 : 2 }}>
        {fields.map((f) => (
          <NumberInput
            key={f}
            label={CONTROL_LABELS[f]}
            value={valueOf(f)}
            min={0}
            allowNegative={false}
            disabled={!live}
            onChange={(v) => setDraft((d) => ({ ...d, [f]: String(v) }))}
          />
        ))}
      </SimpleGrid>
      <Group justify="flex-end" mt="sm">
        <Button type="submit" disabled={busy || changed.length === 0}>
          {busy ? 'Saving...' : 'Save'}
        </Button>
      </Group>
    </form>
  );
}
