// The signed-in user's dashboard (spec §2 "User dashboard"): top bar from the shared signed-in layout, the test-mode
// banner, and the Dashboard / Trades / Settings tabs. Live data starts when the page mounts (the user is signed in
// by then) and stops when it unmounts.
import { Alert, Badge, Card, Group, SimpleGrid, Stack, Tabs, Title } from '@mantine/core';
import { IconFlask } from '@tabler/icons-react';
import { SignedInLayout } from '../../components/SignedInLayout';
import { useLiveStore } from '../../live/stores';
import { useLiveSession } from '../../live/useLiveSession';
import { PaymentReviewBanner } from '../payment/PaymentReviewBanner';
import { StrategyPanel } from '../strategy/StrategyPanel';
import { brokerApi } from '../broker/brokerApi';
import { PositionCheckNotice } from '../broker/PositionCheckNotice';
import { ReconnectBanner } from '../broker/ReconnectBanner';
import { TradingModeBadge, TradingModeCard } from '../broker/TradingModeCard';
import { useReloadOnBrokerChange } from '../broker/useBrokerConnection';
import { AlgoControlCard } from './AlgoControlCard';
import { BrokerForm } from './BrokerForm';
import { dashboardApi } from './dashboardApi';
import { FeedHealthIndicator, MarketCard } from './MarketCard';
import { SettingsTab } from './SettingsTab';
import { StatusCards } from './StatusCards';
import { SubscriptionCard } from './SubscriptionCard';
import { TradesTab } from './TradesTab';
import { RecentTradesTable } from './TradesTable';
import { TradingStatsCard } from './TradingStatsCard';
import { useApiData } from './useApiData';

/** Spec §1 banner, adapted: without Razorpay keys every feature works and payments run in test mode. */
export const TEST_MODE_BANNER =
  'TEST MODE — all features enabled, payments run in test mode (no money is charged)';

function RecentTradesCard() {
  const trades = useLiveStore((s) => s.trades);
  return (
    <Card withBorder padding="lg" component="section" aria-label="Recent Trades">
      <Title order={4} mb="sm">
        Recent Trades
      </Title>
      <RecentTradesTable trades={trades} />
    </Card>
  );
}

export function UserDashboard() {
  const config = useApiData(dashboardApi.config);
  const loadedSubscription = useApiData(dashboardApi.subscription);
  // A subscription pushed over the socket (an approved UPI payment) is newer than the page's first REST read.
  const liveSubscription = useLiveStore((s) => s.subscription);
  const subscription = { data: liveSubscription ?? loadedSubscription.data };
  // The mode every trade and P&L on this page is in, shown in the header above all tabs.
  // The header's PAPER / LIVE follows the broker connection (a login, a session ended, an IP block) too.
  const tradingMode = useReloadOnBrokerChange(useApiData(brokerApi.tradingMode));

  useLiveSession();

  return (
    <SignedInLayout>
      <Stack gap="md">
        {config.data?.paymentTestMode && (
          <Alert color="orange" variant="filled" icon={<IconFlask size={18} />} role="status">
            {TEST_MODE_BANNER}
          </Alert>
        )}
        <Group justify="space-between">
          <Title order={2}>Dashboard</Title>
          <Group gap="xs">
            <TradingModeBadge mode={tradingMode.data?.effectiveMode} />
            {config.data?.feed.simulated && (
              <Badge color="violet" variant="filled">
                SIMULATED DATA
              </Badge>
            )}
            <FeedHealthIndicator />
          </Group>
        </Group>
        <PaymentReviewBanner />
        <ReconnectBanner />
        <PositionCheckNotice />
        <Tabs defaultValue="dashboard" keepMounted={false}>
          <Tabs.List mb="md">
            <Tabs.Tab value="dashboard">Dashboard</Tabs.Tab>
            <Tabs.Tab value="trades">Trades</Tabs.Tab>
            <Tabs.Tab value="settings">Settings</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="dashboard">
            <Stack gap="md">
              <StatusCards subscription={subscription.data} />
              <AlgoControlCard />
              <MarketCard />
              <SimpleGrid cols={{ base: 1, lg: 2 }}>
                <RecentTradesCard />
                <SubscriptionCard subscription={subscription.data} />
              </SimpleGrid>
              <SimpleGrid cols={{ base: 1, lg: 2 }}>
                <BrokerForm />
                <TradingStatsCard />
              </SimpleGrid>
              <TradingModeCard onChange={tradingMode.setData} />
              <StrategyPanel />
            </Stack>
          </Tabs.Panel>
          <Tabs.Panel value="trades">
            <TradesTab />
          </Tabs.Panel>
          <Tabs.Panel value="settings">
            <SettingsTab />
          </Tabs.Panel>
        </Tabs>
      </Stack>
    </SignedInLayout>
  );
}
