// The admin panel (`/` and `/admin` for admins, spec §2): the Overview with its figures, bot control, quick settings,
// system health and the Flatten all kill switch, then the live tabs Strategy, Trades, Signals and Logs. Live data of
// the `admins` room runs while this page is mounted.
import { Card, Group, SimpleGrid, Stack, Tabs, Title } from '@mantine/core';
import { usePageTitle } from '../../lib/usePageTitle';
import { AdminLayout } from './AdminLayout';
import { NUMERIC_CONTROLS } from './controlsApi';
import { useAdminLive } from './live/useAdminLive';
import { BotControlCard } from './overview/BotControlCard';
import { ConnectionBadge } from './overview/ConnectionBadge';
import { ControlsForm } from './overview/ControlsForm';
import { FlattenAllButton } from './overview/FlattenAllButton';
import { ActiveTradesTable, LogsTable, SignalsTable } from './overview/LiveTables';
import { StatCards } from './overview/StatCards';
import { SwitchControls } from './overview/SwitchControls';
import { SystemHealthCard } from './overview/SystemHealthCard';

export function AdminPanelPage() {
  usePageTitle('Admin panel');
  useAdminLive();
  return (
    <AdminLayout>
      <Stack gap="md" maw={1200} mx="auto">
        <Group justify="space-between">
          <Title order={1} size="h2">
            Admin Panel
          </Title>
          <Group gap="xs">
            <ConnectionBadge />
            <FlattenAllButton />
          </Group>
        </Group>
        <Tabs defaultValue="overview" keepMounted={false}>
          <Tabs.List mb="md">
            <Tabs.Tab value="overview">Overview</Tabs.Tab>
            <Tabs.Tab value="strategy">Strategy</Tabs.Tab>
            <Tabs.Tab value="trades">Trades</Tabs.Tab>
            <Tabs.Tab value="signals">Signals</Tabs.Tab>
            <Tabs.Tab value="logs">Logs</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="overview">
            <Stack gap="md">
              <StatCards />
              <SimpleGrid cols={{ base: 1, md: 3 }}>
                <BotControlCard />
                <Card withBorder padding="lg" component="section" aria-label="Quick Settings">
                  <Title order={4} mb="sm">
                    Quick Settings
                  </Title>
                  <ControlsForm fields={['stopLoss', 'target']} label="Quick Settings form" />
                </Card>
                <SystemHealthCard />
              </SimpleGrid>
            </Stack>
          </Tabs.Panel>
          <Tabs.Panel value="strategy">
            <Card withBorder padding="lg">
              <Title order={4} mb="sm">
                Strategy Parameters
              </Title>
              <Stack gap="md">
                <ControlsForm fields={NUMERIC_CONTROLS} label="Strategy parameters" />
                <SwitchControls />
              </Stack>
            </Card>
          </Tabs.Panel>
          <Tabs.Panel value="trades">
            <ActiveTradesTable />
          </Tabs.Panel>
          <Tabs.Panel value="signals">
            <SignalsTable />
          </Tabs.Panel>
          <Tabs.Panel value="logs">
            <LogsTable />
          </Tabs.Panel>
        </Tabs>
      </Stack>
    </AdminLayout>
  );
}
