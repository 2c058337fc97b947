// /admin/brokers (spec §2): connection stats, the broker accounts one server page at a time with a per-user
// disconnect (the user's bot stops and their dashboard shows it) and a connection test, plus "create test user"
// (a paper account with an active demo subscription, left out of revenue).
import { useEffect, useState } from 'react';
import { Badge, Button, Group, Table } from '@mantine/core';
import {
  BROKER_TYPES,
  type AdminBrokerAccountDto,
  type BrokerType,
  type PageDto,
} from '@optionpilot/server/contract';
import { formatIstDateTime } from '../../../lib/format';
import { toastError, toastSuccess } from '../../../lib/toast';
import { useSubmit } from '../../../lib/useSubmit';
import { BROKER_LABELS } from '@optionpilot/server/contract';
import { useApiData } from '../../dashboard/useApiData';
import { AdminPage } from '../shared/AdminPage';
import { Figures } from '../shared/Figures';
import { FilterSelect, SearchField } from '../shared/ListControls';
import { Pager } from '../shared/Pager';
import { useAdminQuery } from '../shared/query';
import { TableState } from '../shared/TableState';
import { UserCell } from '../shared/UserCell';
import { useListFilters } from '../shared/useListFilters';
import { useBrokerOffers } from '../../broker/useBrokerOffers';
import { brokersApi } from './brokersApi';
import { showTestFailure, showTestResult } from './brokerToasts';
import { CreateTestUserButton } from './CreateTestUserButton';

export const BROKERS_PAGE_SIZE = 25;

const BROKER_OPTIONS = [
  { value: 'all', label: 'All brokers' },
  ...BROKER_TYPES.map((b) => ({ value: b, label: BROKER_LABELS[b] })),
];
const STATUS_COLOR: Record<AdminBrokerAccountDto['status'], string> = {
  connected: 'green',
  credentials_saved: 'blue',
  expired: 'orange',
  error: 'red',
  disconnected: 'gray',
};

export function BrokersPage() {
  const status = useApiData(brokersApi.status);
  const offers = useBrokerOffers();
  const list = useListFilters({ broker: 'all' });
  const accounts = useAdminQuery<PageDto<AdminBrokerAccountDto>>('/api/admin/brokers', {
    ...list.params,
    pageSize: BROKERS_PAGE_SIZE,
  });
  const { busy, run } = useSubmit({ title: 'Error', message: 'Failed to disconnect user' });
  const [testing, setTesting] = useState<number | null>(null);
  const rows = accounts.data?.items ?? [];
  const s = status.data;

  useEffect(() => {
    if (status.error || accounts.error) toastError('Error', 'Failed to fetch broker data');
  }, [status.error, accounts.error]);

  const refresh = () => {
    status.reload();
    accounts.reload();
  };

  const disconnect = (row: AdminBrokerAccountDto) =>
    run(async () => {
      const answer = await brokersApi.disconnect(row.user.id);
      toastSuccess('User disconnected', answer.message);
      refresh();
    });

  const test = async (userId: number, type: BrokerType) => {
    setTesting(userId);
    try {
      showTestResult(await brokersApi.testBroker(userId), type);
    } catch (error) {
      showTestFailure(error, type);
    } finally {
      setTesting(null);
    }
  };

  // Test connection exists for each broker registered on this server (issue 18 item 7), nothing else.
  const registered = (offers.data?.brokers ?? []).filter((o) => o.available);
  const testConnection = async (type: BrokerType) => {
    try {
      showTestResult(await brokersApi.testConnection(type), type);
    } catch (error) {
      showTestFailure(error, type);
    }
  };

  const breakdown = s
    ? Object.entries(s.brokerBreakdown)
        .map(([b, n]) => `${BROKER_LABELS[b as BrokerType]} ${n}`)
        .join(' · ') || '—'
    : '—';

  return (
    <AdminPage
      title="Brokers"
      actions={
        <Group gap="xs">
          {registered.map((offer) => (
            <Button key={offer.type} variant="light" onClick={() => void testConnection(offer.type)}>
              Test {offer.label} connection
            </Button>
          ))}
          <CreateTestUserButton onCreated={refresh} />
        </Group>
      }
    >
      <Figures
        figures={[
          { label: 'Users', value: s ? s.totalUsers.toLocaleString('en-IN') : '—' },
          { label: 'Connected', value: s ? s.connectedUsers.toLocaleString('en-IN') : '—' },
          {
            label: 'Sessions valid / expired',
            value: s ? `${s.sessions.valid} / ${s.sessions.expired}` : '—',
          },
          { label: 'By broker', value: breakdown },
        ]}
      />
      <Group align="flex-end">
        <SearchField placeholder="E-mail or name" value={list.search} onChange={list.setSearch} />
        <FilterSelect
          label="Broker"
          data={BROKER_OPTIONS}
          value={list.filters.broker}
          onChange={(v) => list.setFilter('broker', v)}
        />
      </Group>
      <TableState
        loading={accounts.loading}
        error={accounts.error}
        empty={rows.length === 0}
        emptyText="No broker accounts."
      />
      {rows.length > 0 && (
        <Table.ScrollContainer minWidth={900}>
          <Table striped aria-label="Broker accounts">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>User</Table.Th>
                <Table.Th>Broker</Table.Th>
                <Table.Th>API key</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Session expires</Table.Th>
                <Table.Th>Actions</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((row) => (
                <Table.Tr key={row.user.id}>
                  <Table.Td>
                    <UserCell user={row.user} />
                  </Table.Td>
                  <Table.Td>{BROKER_LABELS[row.brokerType]}</Table.Td>
                  <Table.Td>{row.apiKeyMasked}</Table.Td>
                  <Table.Td>
                    <Badge variant="light" color={STATUS_COLOR[row.status]}>
                      {row.status.replace('_', ' ')}
                    </Badge>
                  </Table.Td>
                  <Table.Td>{row.tokenExpiresAt ? formatIstDateTime(row.tokenExpiresAt) : '—'}</Table.Td>
                  <Table.Td>
                    <Group gap={4} wrap="nowrap">
                      <Button
                        size="xs"
                        variant="light"
                        loading={testing === row.user.id}
                        onClick={() => void test(row.user.id, row.brokerType)}
                      >
                        Test
                      </Button>
                      <Button
                        size="xs"
                        color="red"
                        variant="light"
                        disabled={busy || row.status === 'disconnected'}
                        onClick={() => void disconnect(row)}
                      >
                        Disconnect
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Pager info={accounts.data} onPage={list.setPage} />
    </AdminPage>
  );
}
