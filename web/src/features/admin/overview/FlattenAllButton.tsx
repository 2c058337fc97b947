// The kill switch (issue 9): squares off every open position now, behind a confirmation. New entries follow the
// controls, so an admin who wants no new trades pauses the bot as well.
import { useState } from 'react';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { IconAlertOctagon } from '@tabler/icons-react';
import { toastSuccess } from '../../../lib/toast';
import { useSubmit } from '../../../lib/useSubmit';
import { adminApi } from '../adminApi';
import { useAdminLiveStore } from '../live/adminLiveStore';
import { refreshAdminLive } from '../live/useAdminLive';

export function FlattenAllButton() {
  const [open, setOpen] = useState(false);
  const openCount = useAdminLiveStore((s) => s.activeTrades.length);
  const { busy, run } = useSubmit({ title: 'Error', message: 'Failed to flatten positions' });

  const confirm = () =>
    run(async () => {
      const result = await adminApi.flattenAll();
      setOpen(false);
      toastSuccess('All positions flattened', result.message || `${result.closed} position(s) squared off.`);
      refreshAdminLive('trades');
    });

  return (
    <>
      <Button color="red" leftSection={<IconAlertOctagon size={16} />} onClick={() => setOpen(true)}>
        Flatten all
      </Button>
      <Modal opened={open} onClose={() => !busy && setOpen(false)} title="Flatten all positions?" centered>
        <Stack gap="md">
          <Text size="sm">
            Every open position of every user is squared off at market now ({openCount} open in this view).
            This cannot be undone. New entries still follow the Bot Control: pause the bot to stop them.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setOpen(false)} disabled={busy}>
              Cancel
            </Button>
            <Button color="red" onClick={() => void confirm()} disabled={busy}>
              {busy ? 'Flattening...' : 'Yes, flatten all'}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
