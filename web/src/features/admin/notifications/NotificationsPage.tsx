// Notifications (issue 20): the recent deliveries, newest first (sent, failed and why), filtered by status and
// channel, and a "Send test" per channel this server has, which sends a test to the signed-in admin at once.
import { Badge, Button, Group, Select, Table, Text } from '@mantine/core';
import type {
  DeliveryStatusName,
  NotificationDeliveriesDto,
  NotificationTestDto,
} from '@optionpilot/server/contract';
import { api } from '../../../api/client';
import { formatIstDateTime } from '../../../lib/format';
import { toastError, toastSuccess } from '../../../lib/toast';
import { useSubmit } from '../../../lib/useSubmit';
import { AdminPage } from '../shared/AdminPage';
import { Pager } from '../shared/Pager';
import { useAdminQuery } from '../shared/query';
import { TableState } from '../shared/TableState';
import { useListFilters } from '../shared/useListFilters';

export const DELIVERIES_PAGE_SIZE = 50;

const CHANNEL_LABELS: Record<string, string> = {
  email: 'E-mail',
  telegram: 'Telegram',
  push: 'Browser push',
};

const STATUS_COLORS: Record<DeliveryStatusName, string> = {
  sent: 'green',
  pending: 'yellow',
  failed: 'red',
  no_address: 'gray',
  off: 'gray',
};

const STATUS_LABELS: Record<DeliveryStatusName, string> = {
  sent: 'Sent',
  pending: 'Retrying',
  failed: 'Failed',
  no_address: 'No address',
  off: 'Turned off',
};

export function NotificationsPage() {
  const list = useListFilters({ status: 'all', channel: 'all' });
  const { data, loading, error, reload } = useAdminQuery<NotificationDeliveriesDto>(
    '/api/admin/notifications/deliveries',
    { ...list.params, pageSize: DELIVERIES_PAGE_SIZE },
  );
  const { busy, run } = useSubmit({ title: 'Error', message: 'Failed to send the test' });
  const rows = data?.items ?? [];

  const sendTest = (channel: string) =>
    run(async () => {
      const result = await api.post<NotificationTestDto>('/api/admin/notifications/test', { channel });
      if (result.status === 'sent') toastSuccess('Test sent', result.message);
      else toastError('Test not sent', result.error ? `${result.message} ${result.error}` : result.message);
      reload();
    });

  return (
    <AdminPage
      title="Notifications"
      actions={
        <Group gap="xs">
          {data?.channels.length === 0 && (
            <Text size="sm" c="dimmed">
              No channel is set up on this server.
            </Text>
          )}
          {data?.channels.map((channel) => (
            <Button
              key={channel}
              size="xs"
              variant="light"
              disabled={busy}
              onClick={() => void sendTest(channel)}
            >
              Send test by {CHANNEL_LABELS[channel] ?? channel}
            </Button>
          ))}
        </Group>
      }
    >
      <Group>
        <Select
          label="Status"
          w={180}
          data={[
            { value: 'all', label: 'All' },
            ...Object.entries(STATUS_LABELS).map(([value, label]) => ({ value, label })),
          ]}
          value={list.filters.status}
          allowDeselect={false}
          onChange={(v) => list.setFilter('status', v ?? 'all')}
        />
        <Select
          label="Channel"
          w={180}
          data={[
            { value: 'all', label: 'All' },
            ...Object.entries(CHANNEL_LABELS).map(([value, label]) => ({ value, label })),
          ]}
          value={list.filters.channel}
          allowDeselect={false}
          onChange={(v) => list.setFilter('channel', v ?? 'all')}
        />
      </Group>
      <TableState loading={loading} error={error} empty={rows.length === 0} emptyText="No deliveries yet." />
      {rows.length > 0 && (
        <Table.ScrollContainer minWidth={800}>
          <Table striped aria-label="Deliveries">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Recorded (IST)</Table.Th>
                <Table.Th>Event</Table.Th>
                <Table.Th>User</Table.Th>
                <Table.Th>Channel</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Attempts</Table.Th>
                <Table.Th>Last error / detail</Table.Th>
                <Table.Th>Updated (IST)</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((d) => (
                <Table.Tr key={d.id}>
                  <Table.Td>{formatIstDateTime(d.recordedAt)}</Table.Td>
                  <Table.Td>{d.eventLabel}</Table.Td>
                  <Table.Td>{d.userEmail}</Table.Td>
                  <Table.Td>{CHANNEL_LABELS[d.channel] ?? d.channel}</Table.Td>
                  <Table.Td>
                    <Badge color={STATUS_COLORS[d.status]} variant="light">
                      {STATUS_LABELS[d.status]}
                    </Badge>
                    {d.nextAttemptAt && (
                      <Text size="xs" c="dimmed">
                        next {formatIstDateTime(d.nextAttemptAt)}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>{d.attempts}</Table.Td>
                  <Table.Td>
                    <Text size="sm" c={d.lastError ? 'red' : 'dimmed'} style={{ wordBreak: 'break-word' }}>
                      {d.lastError ?? d.detail ?? '—'}
                    </Text>
                  </Table.Td>
                  <Table.Td>{formatIstDateTime(d.updatedAt)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Pager info={data} onPage={list.setPage} />
    </AdminPage>
  );
}
