// The four status cards at the top of the Dashboard tab (spec §2), with the real subscription status (decisions.md).
import type { ReactNode } from 'react';
import { Badge, Card, SimpleGrid, Text } from '@mantine/core';
import type { SubscriptionDto, SubscriptionStatus } from '@optionpilot/server/contract';
import { useLiveStore } from '../../live/stores';
import { selectUser, useSessionStore } from '../../stores/session';
import { BROKER_LABELS } from '@optionpilot/server/contract';
import { formatIstDate, formatPnl, formatPnlParts, pnlColor } from './display';

const SUBSCRIPTION_LABEL: Record<SubscriptionStatus, string> = {
  active: 'Active',
  pending: 'Pending',
  inactive: 'Inactive',
  expired: 'Expired',
};

const SUBSCRIPTION_COLOR: Record<SubscriptionStatus, string> = {
  active: 'green',
  pending: 'yellow',
  inactive: 'gray',
  expired: 'red',
};

export function subscriptionLabel(status: SubscriptionStatus): string {
  return SUBSCRIPTION_LABEL[status];
}

export function subscriptionColor(status: SubscriptionStatus): string {
  return SUBSCRIPTION_COLOR[status];
}

function StatusCard({ title, children, footer }: { title: string; children: ReactNode; footer?: ReactNode }) {
  return (
    <Card withBorder padding="md" aria-label={title} component="section">
      <Text size="sm" c="dimmed" fw={500}>
        {title}
      </Text>
      <div>{children}</div>
      {footer && (
        <Text size="xs" c="dimmed" mt={4}>
          {footer}
        </Text>
      )}
    </Card>
  );
}

export function StatusCards({ subscription }: { subscription: SubscriptionDto | undefined }) {
  const user = useSessionStore(selectUser);
  const bot = useLiveStore((s) => s.bot);
  const stats = useLiveStore((s) => s.stats);
  const status = subscription?.status ?? user?.subscriptionStatus ?? 'inactive';
  const endDate = subscription?.endDate ?? user?.subscriptionEndDate ?? null;
  const brokerConnected = user?.brokerConnected ?? false;

  return (
    <SimpleGrid cols={{ base: 1, xs: 2, lg: 4 }}>
      <StatusCard
        title="Subscription"
        footer={endDate ? `Until ${formatIstDate(endDate)}` : 'No active plan'}
      >
        <Badge size="lg" mt={6} color={subscriptionColor(status)} variant="light">
          {subscriptionLabel(status)}
        </Badge>
      </StatusCard>
      <StatusCard
        title="Broker"
        footer={user?.brokerType ? BROKER_LABELS[user.brokerType] : 'Add your broker API below'}
      >
        <Badge size="lg" mt={6} color={brokerConnected ? 'green' : 'gray'} variant="light">
          {brokerConnected ? 'Connected' : 'Not Connected'}
        </Badge>
      </StatusCard>
      <StatusCard title="Bot Status" footer={bot?.isRunning ? `${bot.mode} mode` : bot?.reason}>
        <Badge size="lg" mt={6} color={bot?.isRunning ? 'green' : 'red'} variant="light">
          {bot ? (bot.isRunning ? 'Running' : 'Stopped') : '—'}
        </Badge>
      </StatusCard>
      <StatusCard
        title="Today's P&L"
        footer={stats && formatPnlParts(stats.todayRealisedPnl, stats.openPnl, stats.openTrades)}
      >
        <Text
          size="xl"
          fw={700}
          c={stats ? pnlColor(stats.todayPnl) : 'dimmed'}
          aria-label="Today's P&L value"
        >
          {stats ? formatPnl(stats.todayPnl) : '—'}
        </Text>
      </StatusCard>
    </SimpleGrid>
  );
}
