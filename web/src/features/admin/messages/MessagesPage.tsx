// Contact inbox (decisions.md: messages from the landing page's form are stored for admins), one server page at a
// time, newest first; opening marks a message read.
import { Badge, Button, Card, Group, Select, Stack, Text } from '@mantine/core';
import type { ContactMessagesResponse } from '@optionpilot/server/contract';
import { api } from '../../../api/client';
import { formatIstDateTime } from '../../../lib/format';
import { useSubmit } from '../../../lib/useSubmit';
import { AdminPage } from '../shared/AdminPage';
import { Pager } from '../shared/Pager';
import { useAdminQuery } from '../shared/query';
import { TableState } from '../shared/TableState';
import { useListFilters } from '../shared/useListFilters';

export const MESSAGES_PAGE_SIZE = 20;

export function MessagesPage() {
  const list = useListFilters({ unread: 'all' });
  const { data, loading, error, reload } = useAdminQuery<ContactMessagesResponse>(
    '/api/admin/contact-messages',
    {
      ...list.params,
      pageSize: MESSAGES_PAGE_SIZE,
    },
  );
  const { busy, run } = useSubmit({ title: 'Error', message: 'Failed to update the message' });
  const rows = data?.items ?? [];

  const mark = (id: number, read: boolean) =>
    run(async () => {
      await api.patch<unknown>(`/api/admin/contact-messages/${id}`, { read });
      reload();
    });

  return (
    <AdminPage
      title="Messages"
      actions={
        data ? <Badge color={data.unreadCount ? 'blue' : 'gray'}>{data.unreadCount} unread</Badge> : null
      }
    >
      <Select
        label="Show"
        w={200}
        data={[
          { value: 'all', label: 'All messages' },
          { value: 'true', label: 'Unread only' },
        ]}
        value={list.filters.unread}
        allowDeselect={false}
        onChange={(v) => list.setFilter('unread', v ?? 'all')}
      />
      <TableState loading={loading} error={error} empty={rows.length === 0} emptyText="No messages." />
      <Stack gap="sm">
        {rows.map((m) => (
          <Card key={m.id} withBorder padding="md" component="article" aria-label={`Message from ${m.name}`}>
            <Group justify="space-between" mb={4}>
              <Text fw={600}>
                {m.name} · {m.email}
              </Text>
              <Group gap="xs">
                <Text size="xs" c="dimmed">
                  {formatIstDateTime(m.createdAt)}
                </Text>
                {m.readAt === null && <Badge size="xs">new</Badge>}
              </Group>
            </Group>
            <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
              {m.message}
            </Text>
            <Group justify="flex-end" mt="xs">
              <Button
                size="xs"
                variant="subtle"
                disabled={busy}
                onClick={() => void mark(m.id, m.readAt === null)}
              >
                {m.readAt === null ? 'Mark as read' : 'Mark as unread'}
              </Button>
            </Group>
          </Card>
        ))}
      </Stack>
      <Pager info={data} onPage={list.setPage} />
    </AdminPage>
  );
}
