// /admin/users (spec §2): summary counts, search by e-mail or name, status and broker filters, one server page at a
// time; View, Edit, and Activate for pending users. Admins are not customers: they are neither listed nor counted
// with them, and show on their own under "Admins", without subscription actions.
import { useState } from 'react';
import { Badge, Button, Group, SegmentedControl, Table } from '@mantine/core';
import { BROKER_TYPES, type AdminUserDto, type AdminUsersResponse } from '@optionpilot/server/contract';
import { formatIstDateTime } from '../../../lib/format';
import { BROKER_LABELS } from '@optionpilot/server/contract';
import { subscriptionColor, subscriptionLabel } from '../../dashboard/StatusCards';
import { AdminPage } from '../shared/AdminPage';
import { Figures } from '../shared/Figures';
import { FilterSelect, SearchField } from '../shared/ListControls';
import { Pager } from '../shared/Pager';
import { useAdminQuery } from '../shared/query';
import { TableState } from '../shared/TableState';
import { useListFilters } from '../shared/useListFilters';
import { ActivateUserDialog } from './ActivateUserDialog';
import { UserEditDialog } from './UserEditDialog';
import { UserViewDialog } from './UserViewDialog';

export const USERS_PAGE_SIZE = 25;

const STATUS_OPTIONS = [
  { value: 'all', label: 'All statuses' },
  { value: 'active', label: 'Active' },
  { value: 'pending', label: 'Pending' },
  { value: 'inactive', label: 'Inactive' },
  { value: 'expired', label: 'Expired' },
];

const BROKER_OPTIONS = [
  { value: 'all', label: 'All brokers' },
  ...BROKER_TYPES.map((b) => ({ value: b, label: BROKER_LABELS[b] })),
  { value: 'none', label: 'No broker' },
];

type Dialog = { kind: 'view' | 'edit' | 'activate'; user: AdminUserDto } | null;

type Role = 'customers' | 'admins';

export function UsersPage() {
  const list = useListFilters({ status: 'all', broker: 'all' });
  const [role, setRole] = useState<Role>('customers');
  const admins = role === 'admins';
  const { data, loading, error, reload } = useAdminQuery<AdminUsersResponse>('/api/admin/users', {
    ...list.params,
    ...(admins ? { role, status: 'all', broker: 'all' } : {}),
    pageSize: USERS_PAGE_SIZE,
  });
  const [dialog, setDialog] = useState<Dialog>(null);
  const rows = data?.items ?? [];
  const summary = data?.summary;
  const count = (n: number | undefined) => (n === undefined ? '—' : n.toLocaleString('en-IN'));

  const close = (changed: boolean) => {
    setDialog(null);
    if (changed) reload();
  };

  return (
    <AdminPage title="Users">
      <Figures
        figures={[
          { label: 'Total Users', value: count(summary?.total) },
          { label: 'Active', value: count(summary?.active) },
          { label: 'Pending Payments', value: count(summary?.pendingPayments) },
          { label: 'New This Month', value: count(summary?.newThisMonth) },
        ]}
      />
      <Group align="flex-end">
        <SegmentedControl
          aria-label="Show"
          value={role}
          onChange={(v) => {
            setRole(v as Role);
            list.setPage(1);
          }}
          data={[
            { value: 'customers', label: 'Customers' },
            { value: 'admins', label: `Admins (${count(summary?.admins)})` },
          ]}
        />
        <SearchField placeholder="E-mail or name" value={list.search} onChange={list.setSearch} />
        {!admins && (
          <>
            <FilterSelect
              label="Status"
              data={STATUS_OPTIONS}
              value={list.filters.status}
              onChange={(v) => list.setFilter('status', v)}
            />
            <FilterSelect
              label="Broker"
              data={BROKER_OPTIONS}
              value={list.filters.broker}
              onChange={(v) => list.setFilter('broker', v)}
            />
          </>
        )}
      </Group>
      <TableState
        loading={loading}
        error={error}
        empty={rows.length === 0}
        emptyText={admins ? 'No admins match.' : 'No users match.'}
      />
      {rows.length > 0 && (
        <Table.ScrollContainer minWidth={900}>
          <Table striped aria-label={admins ? 'Admins' : 'Users'}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Email</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Broker</Table.Th>
                <Table.Th>Joined</Table.Th>
                <Table.Th>Actions</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((u) => (
                <Table.Tr key={u.id}>
                  <Table.Td>
                    {u.firstName} {u.lastName}
                    {u.isTest && (
                      <Badge ml={6} size="xs" color="violet">
                        test
                      </Badge>
                    )}
                    {u.disabled && (
                      <Badge ml={6} size="xs" color="gray">
                        deactivated
                      </Badge>
                    )}
                  </Table.Td>
                  <Table.Td>{u.email}</Table.Td>
                  <Table.Td>
                    {u.isAdmin ? (
                      <Badge variant="light" color="violet">
                        Admin
                      </Badge>
                    ) : (
                      <Badge variant="light" color={subscriptionColor(u.subscriptionStatus)}>
                        {subscriptionLabel(u.subscriptionStatus)}
                      </Badge>
                    )}
                  </Table.Td>
                  <Table.Td>
                    {u.brokerType ? BROKER_LABELS[u.brokerType] : '—'}
                    {u.brokerConnected && (
                      <Badge ml={6} size="xs" color="green">
                        connected
                      </Badge>
                    )}
                  </Table.Td>
                  <Table.Td>{formatIstDateTime(u.createdAt)}</Table.Td>
                  <Table.Td>
                    <Group gap={4} wrap="nowrap">
                      <Button
                        size="xs"
                        variant="default"
                        onClick={() => setDialog({ kind: 'view', user: u })}
                      >
                        View
                      </Button>
                      <Button size="xs" variant="light" onClick={() => setDialog({ kind: 'edit', user: u })}>
                        Edit
                      </Button>
                      {u.subscriptionStatus === 'pending' && !u.isAdmin && (
                        <Button
                          size="xs"
                          color="green"
                          onClick={() => setDialog({ kind: 'activate', user: u })}
                        >
                          Activate
                        </Button>
                      )}
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Pager info={data} onPage={list.setPage} />
      {dialog?.kind === 'view' && <UserViewDialog userId={dialog.user.id} onClose={() => close(false)} />}
      {dialog?.kind === 'edit' && <UserEditDialog user={dialog.user} onClose={close} />}
      {dialog?.kind === 'activate' && <ActivateUserDialog user={dialog.user} onClose={close} />}
    </AdminPage>
  );
}
