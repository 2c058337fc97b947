// Bot Control (spec §2 Overview): Running/Paused from the master switch, Pause/Resume, and the PUT and CALL switches.
// State comes from the admin live store, so a change made by another admin shows here without a reload.
import { Badge, Button, Card, Group, Stack, Switch, Text, Title } from '@mantine/core';
import { IconPlayerPause, IconPlayerPlay } from '@tabler/icons-react';
import { toastSuccess } from '../../../lib/toast';
import { useSubmit } from '../../../lib/useSubmit';
import { setTradingPaused, updateControl, type SwitchControl } from '../controlsApi';
import { controlValue, useAdminLiveStore } from '../live/adminLiveStore';

function useSwitch(name: SwitchControl): boolean | undefined {
  const value = useAdminLiveStore((s) => controlValue(s, name));
  return value === undefined ? undefined : value === 'true';
}

export function BotControlCard() {
  const running = useSwitch('tradingEnabled');
  const putEnabled = useSwitch('putEnabled');
  const callEnabled = useSwitch('callEnabled');
  const { busy, run } = useSubmit({ title: 'Error', message: 'Failed to update setting' });

  const toggleRunning = () =>
    run(async () => {
      await setTradingPaused(running === true);
      toastSuccess(running ? 'Trading paused' : 'Trading resumed');
    });

  const setSide = (name: SwitchControl, on: boolean) =>
    run(async () => {
      await updateControl(name, String(on));
      toastSuccess('Setting updated successfully');
    });

  return (
    <Card withBorder padding="lg" component="section" aria-label="Bot Control">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={4}>Bot Control</Title>
          {running !== undefined && (
            <Badge size="lg" variant="light" color={running ? 'green' : 'orange'} aria-label="Bot state">
              {running ? 'Running' : 'Paused'}
            </Badge>
          )}
        </Group>
        <Text size="sm" c="dimmed">
          Pausing stops new entries for every user at once; open positions keep their stops and targets.
        </Text>
        <Button
          color={running ? 'orange' : 'green'}
          leftSection={running ? <IconPlayerPause size={16} /> : <IconPlayerPlay size={16} />}
          disabled={busy || running === undefined}
          onClick={() => void toggleRunning()}
        >
          {running ? 'Pause' : 'Resume'}
        </Button>
        <Group>
          <Switch
            label="PUT Trading"
            checked={putEnabled ?? false}
            disabled={busy || putEnabled === undefined}
            onChange={(e) => void setSide('putEnabled', e.currentTarget.checked)}
          />
          <Switch
            label="CALL Trading"
            checked={callEnabled ?? false}
            disabled={busy || callEnabled === undefined}
            onChange={(e) => void setSide('callEnabled', e.currentTarget.checked)}
          />
        </Group>
      </Stack>
    </Card>
  );
}
