// "How the strategy works": the white-box disclosure (DOMAIN.md §2, decisions.md "Compliance"). The rules, the
// parameters and the trading day's times come from the server, i.e. the values the engine trades with right now,
// never a copy in the web app. They live in the live store: the first snapshot and the resync on every reconnect
// come over REST, every admin change after that over the socket (`strategy:info`), and GET /api/strategy is polled
// while the socket is down.
import { Alert, Badge, Card, Group, List, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { LabeledValue } from '../../components/LabeledValue';
import { useLiveStore } from '../../live/stores';
import { sessionLines } from '../session/sessionText';

/** Risk wording shown under the rules; no claim of returns (SEBI rules on algo marketing). */
export const STRATEGY_RISK_NOTE =
  'Buying options can lose the entire premium paid, and slippage or gaps can carry a loss past the stop. ' +
  'Nothing here is a promise or a forecast of returns: past behaviour of this strategy says nothing about future results.';

function onOff(value: boolean): string {
  return value ? 'On' : 'Off';
}

export function StrategyPanel() {
  const info = useLiveStore((s) => s.strategy);
  const lines = info ? sessionLines(info.session) : null;

  return (
    <Card withBorder padding="lg" component="section" aria-label="How the strategy works">
      <Group justify="space-between" mb="sm">
        <Title order={4}>How the strategy works</Title>
        {info && (
          <Badge variant="light" color={info.params.tradingEnabled ? 'green' : 'orange'}>
            {info.params.tradingEnabled ? 'Trading enabled' : 'Trading paused'}
          </Badge>
        )}
      </Group>
      {!info && <Loader size="sm" aria-label="Loading strategy" />}
      {info && lines && (
        <Stack gap="md">
          <Text fw={600}>
            {info.name} · {info.intervalMinutes}-minute candles
          </Text>
          <List spacing={4} size="sm">
            {info.rules.map((rule) => (
              <List.Item key={rule}>{rule}</List.Item>
            ))}
          </List>
          <SimpleGrid cols={{ base: 2, sm: 3, md: 5 }}>
            <LabeledValue label="Consecutive candles" value={String(info.params.consecutiveCandles)} />
            <LabeledValue label="Min. candle body" value={`${info.params.minMovement} pts`} />
            <LabeledValue label="Entry offset" value={`${info.params.entryOffset} pts`} />
            <LabeledValue label="Stop loss (premium)" value={`${info.params.stopLoss} pts`} />
            <LabeledValue label="Target (premium)" value={`${info.params.target} pts`} />
            <LabeledValue label="Calls (CE)" value={onOff(info.params.callEnabled)} />
            <LabeledValue label="Puts (PE)" value={onOff(info.params.putEnabled)} />
            <LabeledValue label="Market hours" value={lines.market} />
            <LabeledValue label="New trades" value={lines.entries} />
            <LabeledValue label="Square-off" value={lines.squareOff} />
          </SimpleGrid>
          <Alert variant="light" color="yellow" icon={<IconAlertTriangle size={18} />} title="Risk">
            {STRATEGY_RISK_NOTE}
          </Alert>
        </Stack>
      )}
    </Card>
  );
}
