// Trading Statistics (spec §2): total trades, win rate %, total P&L (realised + open, with both parts), from the
// live stats.
import { Card, SimpleGrid, Text, Title } from '@mantine/core';
import { useLiveStore } from '../../live/stores';
import { formatPnl, formatPnlParts, pnlColor } from './display';

export function TradingStatsCard() {
  const stats = useLiveStore((s) => s.stats);
  return (
    <Card withBorder padding="lg">
      <Title order={4} mb="sm">
        Trading Statistics
      </Title>
      <SimpleGrid cols={3}>
        <div>
          <Text size="xs" c="dimmed">
            Total Trades
          </Text>
          <Text fw={700} size="lg">
            {stats ? stats.totalTrades : '—'}
          </Text>
        </div>
        <div>
          <Text size="xs" c="dimmed">
            Win Rate
          </Text>
          <Text fw={700} size="lg">
            {stats ? `${stats.winRate.toFixed(1)}%` : '—'}
          </Text>
        </div>
        <div>
          <Text size="xs" c="dimmed">
            Total P&amp;L
          </Text>
          <Text
            fw={700}
            size="lg"
            c={stats ? pnlColor(stats.totalPnl) : undefined}
            aria-label="Total P&L value"
          >
            {stats ? formatPnl(stats.totalPnl) : '—'}
          </Text>
          {stats && (
            <Text size="xs" c="dimmed">
              {formatPnlParts(stats.totalRealisedPnl, stats.openPnl, stats.openTrades)}
            </Text>
          )}
        </div>
      </SimpleGrid>
    </Card>
  );
}
