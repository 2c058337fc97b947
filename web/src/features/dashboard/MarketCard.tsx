// Live NIFTY 50 card (spec §2): price, change, open/high/low, volume in millions where the feed has any, last
// update in IST, and the chart.
import { Badge, Card, Group, SimpleGrid, Stack, Text, Title, Tooltip } from '@mantine/core';
import type { FeedHealthDto } from '@optionpilot/server/contract';
import { LabeledValue } from '../../components/LabeledValue';
import { formatIstTime } from '../../lib/format';
import { useLiveStore, type ConnectionStatus } from '../../live/stores';
import { CandleChart } from './CandleChart';
import {
  formatPoints,
  formatSignedPercent,
  formatSignedPoints,
  formatVolumeMillions,
  pnlColor,
} from './display';

const EMPTY: never[] = [];

const HEALTH: Record<FeedHealthDto['status'], { label: string; color: string }> = {
  live: { label: 'Feed live', color: 'green' },
  stale: { label: 'Feed stale', color: 'yellow' },
  down: { label: 'Feed down', color: 'red' },
};

const CONNECTION: Record<ConnectionStatus, string> = {
  idle: 'Not connected',
  connecting: 'Connecting…',
  connected: 'Realtime updates',
  disconnected: 'Reconnecting; polling every second',
};

/** Feed health (live/stale/down) with the socket state in its tooltip. */
export function FeedHealthIndicator() {
  const health = useLiveStore((s) => s.feedHealth);
  const connection = useLiveStore((s) => s.connection);
  const shown = health ? HEALTH[health.status] : { label: 'Feed unknown', color: 'gray' };
  const tip = `${CONNECTION[connection]}${health?.lastTickAt ? ` · last tick ${formatIstTime(health.lastTickAt)}` : ''}`;
  return (
    <Tooltip label={tip}>
      <Badge variant="dot" color={shown.color} aria-label={`${shown.label}. ${tip}`}>
        {shown.label}
      </Badge>
    </Tooltip>
  );
}

export function MarketCard() {
  const tick = useLiveStore((s) => s.tick);
  const candles = useLiveStore((s) => s.candles[1] ?? EMPTY);
  const trades = useLiveStore((s) => s.trades);
  // An index trades no volume of its own (the simulated and broker NIFTY 50 feeds carry 0): "0.00M" would read as
  // a fact about the market, so the figure shows only where a feed has one.
  const hasVolume = tick !== null && tick.volume > 0;

  return (
    <Card withBorder padding="lg">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={4}>Live NIFTY 50</Title>
          <FeedHealthIndicator />
        </Group>
        {tick ? (
          <>
            <Group align="baseline" gap="md">
              <Text fz={32} fw={700} aria-label="NIFTY 50 price">
                {formatPoints(tick.price)}
              </Text>
              <Text fw={600} c={pnlColor(tick.change)}>
                {formatSignedPoints(tick.change)} ({formatSignedPercent(tick.changePercent)})
              </Text>
            </Group>
            <SimpleGrid cols={{ base: 2, sm: hasVolume ? 4 : 3 }}>
              <LabeledValue label="Open" value={formatPoints(tick.open)} />
              <LabeledValue label="High" value={formatPoints(tick.high)} />
              <LabeledValue label="Low" value={formatPoints(tick.low)} />
              {hasVolume && <LabeledValue label="Volume" value={formatVolumeMillions(tick.volume)} />}
            </SimpleGrid>
            <Text size="xs" c="dimmed">
              Last updated: {formatIstTime(tick.timestamp)}
            </Text>
          </>
        ) : (
          <Text c="dimmed">Waiting for market data…</Text>
        )}
        <CandleChart candles={candles} trades={trades} />
      </Stack>
    </Card>
  );
}
