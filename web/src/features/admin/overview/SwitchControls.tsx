// The Strategy tab's switches (enable PUT, enable CALL, master trading switch): each flips one control at once.
import { Stack, Switch } from '@mantine/core';
import { toastSuccess } from '../../../lib/toast';
import { useSubmit } from '../../../lib/useSubmit';
import { CONTROL_LABELS, SWITCH_CONTROLS, updateControl } from '../controlsApi';
import { useAdminLiveStore } from '../live/adminLiveStore';

export function SwitchControls() {
  const controls = useAdminLiveStore((s) => s.controls);
  const { busy, run } = useSubmit({ title: 'Error', message: 'Failed to update setting' });
  return (
    <Stack gap="xs">
      {SWITCH_CONTROLS.map((name) => (
        <Switch
          key={name}
          label={CONTROL_LABELS[name]}
          checked={controls?.[name]?.value === 'true'}
          disabled={busy || !controls?.[name]}
          onChange={(e) => {
            const on = e.currentTarget.checked;
            void run(async () => {
              await updateControl(name, String(on));
              toastSuccess('Setting updated successfully');
            });
          }}
        />
      ))}
    </Stack>
  );
}
