// Algo Trading Control (spec §2, decisions.md): the switch shows the server's bot switch, not local state. Turning it
// on goes through the Trading Settings dialog (cancel leaves it off); turning it off is one call.
import { useState } from 'react';
import { Badge, Button, Card, Group, Stack, Switch, Text, Title } from '@mantine/core';
import { IconSettings } from '@tabler/icons-react';
import type { TradingSettingsRequest } from '@optionpilot/server/contract';
import { toastSuccess } from '../../lib/toast';
import { useSubmit } from '../../lib/useSubmit';
import { useLiveStore } from '../../live/stores';
import { dashboardApi } from './dashboardApi';
import { TradingSettingsDialog } from './TradingSettingsDialog';

type DialogMode = 'enable' | 'edit' | null;

export function AlgoControlCard() {
  const bot = useLiveStore((s) => s.bot);
  const [dialog, setDialog] = useState<DialogMode>(null);
  const { busy, run } = useSubmit({ title: 'Error', message: 'Failed to stop algo trading' });
  const enabled = bot?.enabled ?? false;

  const switchOff = () =>
    run(async () => {
      useLiveStore.getState().setBotDetail(await dashboardApi.setBot(false));
      toastSuccess('Algo trading stopped', 'No new positions will be opened.');
    });

  const submit = async (settings: TradingSettingsRequest) => {
    await dashboardApi.saveTradingSettings(settings);
    if (dialog === 'enable') {
      useLiveStore.getState().setBotDetail(await dashboardApi.setBot(true));
      toastSuccess('Algo trading started', 'Trading settings saved.');
    } else {
      toastSuccess('Trading settings saved');
    }
  };

  return (
    <Card withBorder padding="lg">
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start">
          <div>
            <Title order={4}>Algo Trading Control</Title>
            <Text size="sm" c="dimmed">
              Buys one strike in the money: CE at ATM−1 on a call signal, PE at ATM+1 on a put signal.
            </Text>
          </div>
          {bot && (
            <Badge variant="light" color={bot.mode === 'live' ? 'red' : 'gray'}>
              {bot.mode === 'live' ? 'Live orders' : 'Paper trading'}
            </Badge>
          )}
        </Group>
        <Group justify="space-between">
          <Switch
            size="lg"
            checked={enabled}
            disabled={busy || !bot}
            onLabel="ON"
            offLabel="OFF"
            label="CE ATM-1 / PE ATM+1"
            onChange={(event) => {
              if (event.currentTarget.checked) setDialog('enable');
              else void switchOff();
            }}
          />
          {enabled && (
            <Button
              variant="light"
              leftSection={<IconSettings size={16} />}
              onClick={() => setDialog('edit')}
            >
              Trading Settings
            </Button>
          )}
        </Group>
        {bot && !bot.globalTradingEnabled && (
          <Text size="sm" c="orange.8">
            Trading is paused for everyone by the administrators.
          </Text>
        )}
      </Stack>
      <TradingSettingsDialog
        opened={dialog !== null}
        onClose={() => setDialog(null)}
        onSubmit={submit}
        submitLabel={dialog === 'enable' ? 'Save & Start' : 'Save'}
      />
    </Card>
  );
}
