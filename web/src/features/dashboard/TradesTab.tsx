// Trades tab (spec §2): "Trading History" with a count badge and every trade the live store holds.
import { Badge, Card, Group, Loader, Title } from '@mantine/core';
import { useLiveStore } from '../../live/stores';
import { NoTradesText, TradeHistoryTable } from './TradesTable';

export function TradesTab() {
  const trades = useLiveStore((s) => s.trades);
  const loaded = useLiveStore((s) => s.tradesLoaded);
  return (
    <Card withBorder padding="lg">
      <Group justify="space-between" mb="md">
        <Title order={4}>Trading History</Title>
        <Badge size="lg" variant="light" aria-label={`${trades.length} trades`}>
          {trades.length}
        </Badge>
      </Group>
      {!loaded && trades.length === 0 ? (
        <Group justify="center" py="lg">
          <Loader size="sm" aria-label="Loading trades" />
        </Group>
      ) : trades.length === 0 ? (
        <NoTradesText ta="center" py="lg" />
      ) : (
        <TradeHistoryTable trades={trades} />
      )}
    </Card>
  );
}
