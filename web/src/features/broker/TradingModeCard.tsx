// Paper / Live per trader (issue 10 item 6): Paper is the default; Live needs a valid broker session and an
// explicit confirmation of the risk disclosure, which the server checks again.
import { useState } from 'react';
import { Alert, Badge, Button, Card, Checkbox, Group, Modal, Stack, Text, Title } from '@mantine/core';
import type { TradingModeDto } from '@optionpilot/server/contract';
import { toastSuccess } from '../../lib/toast';
import { useSubmit } from '../../lib/useSubmit';
import { useApiData } from '../dashboard/useApiData';
import { brokerApi } from './brokerApi';
import { useReloadOnBrokerChange } from './useBrokerConnection';

/** The mode badge shown wherever trades or P&L are (dashboard header). */
export function TradingModeBadge({ mode }: { mode: TradingModeDto['effectiveMode'] | undefined }) {
  if (!mode) return null;
  return (
    <Badge color={mode === 'live' ? 'red' : 'gray'} variant="filled" aria-label="Trading mode">
      {mode === 'live' ? 'LIVE' : 'PAPER'}
    </Badge>
  );
}

export function TradingModeCard({ onChange }: { onChange?: (mode: TradingModeDto) => void }) {
  // Read again whenever the broker connection changes (a form login on this page, a session ended, an IP block):
  // whether Live can be chosen depends on it.
  const state = useReloadOnBrokerChange(useApiData(brokerApi.tradingMode));
  const [confirming, setConfirming] = useState(false);
  const [accepted, setAccepted] = useState(false);
  const { busy, run } = useSubmit({ title: 'Error', message: 'Could not change the trading mode' });

  const apply = (call: () => Promise<TradingModeDto>, message: string) =>
    run(async () => {
      const next = await call();
      state.setData(next);
      onChange?.(next);
      setConfirming(false);
      setAccepted(false);
      toastSuccess('Setting updated successfully', message);
    });

  const mode = state.data;
  return (
    <Card withBorder padding="lg">
      <Group justify="space-between" mb="xs">
        <Title order={4}>Trading Mode</Title>
        <TradingModeBadge mode={mode?.effectiveMode} />
      </Group>
      {mode && (
        <Stack gap="sm">
          <Text size="sm">
            {mode.effectiveMode === 'live'
              ? 'Live: the bot places real orders in your broker account.'
              : 'Paper: trades are simulated; no order reaches your broker.'}
          </Text>
          {mode.mode === 'live' && mode.effectiveMode === 'paper' && (
            <Text size="sm" c="orange">
              {mode.liveAvailable
                ? 'Live is chosen, but this server runs on simulated or replayed market data, so your trades stay on paper: real orders go out only on a broker’s live feed.'
                : 'Live is chosen, but your broker session is not valid: trading stays on paper until you reconnect.'}
            </Text>
          )}
          <Group>
            {mode.mode === 'live' ? (
              <Button
                variant="default"
                loading={busy}
                onClick={() => void apply(brokerApi.setPaper, 'Paper trading')}
              >
                Switch to Paper
              </Button>
            ) : (
              <Button color="red" disabled={!mode.liveAvailable} onClick={() => setConfirming(true)}>
                Switch to Live
              </Button>
            )}
          </Group>
          {!mode.liveAvailable && mode.mode === 'paper' && (
            <Text size="xs" c="dimmed">
              Connect your broker to enable Live.
            </Text>
          )}
        </Stack>
      )}
      <Modal opened={confirming} onClose={() => setConfirming(false)} title="Switch to Live trading">
        <Stack>
          <Alert color="orange" title="Risk disclosure">
            {mode?.riskDisclosure}
          </Alert>
          <Checkbox
            label="I have read the risk disclosure and want real orders in my broker account"
            checked={accepted}
            onChange={(e) => setAccepted(e.currentTarget.checked)}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)}>
              Cancel
            </Button>
            <Button
              color="red"
              disabled={!accepted}
              loading={busy}
              onClick={() => void apply(brokerApi.setLive, 'Live trading')}
            >
              Go Live
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Card>
  );
}
