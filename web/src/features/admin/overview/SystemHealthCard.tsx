// System Health (spec §2, issue 9): the server's real checks (feed age, database, broker sessions, open positions,
// event-loop lag, memory, calendar coverage) instead of the first version's fixed statuses, and the notices of work
// due by a date (next year's NSE holidays) above them.
import { ActionIcon, Alert, Badge, Card, Group, Stack, Text, Title, Tooltip } from '@mantine/core';
import { IconCalendarExclamation, IconRefresh } from '@tabler/icons-react';
import type { HealthCheckName, SubsystemStatus } from '@optionpilot/server/contract';
import { formatCalendarDate, formatIstTime } from '../../../lib/format';
import { adminApi } from '../adminApi';
import { useRefreshing } from '../shared/useRefreshing';

export const HEALTH_REFRESH_MS = 10_000;

export const CHECK_LABELS: Record<HealthCheckName, string> = {
  feed: 'Market feed',
  database: 'Database',
  brokerSessions: 'Broker sessions',
  openPositions: 'Open positions',
  eventLoop: 'Event loop',
  memory: 'Memory',
  calendar: 'Market calendar',
};

const STATUS_COLOR: Record<SubsystemStatus, string> = { ok: 'green', degraded: 'orange', down: 'red' };
const STATUS_TEXT: Record<SubsystemStatus, string> = { ok: 'OK', degraded: 'Degraded', down: 'Down' };

export function SystemHealthCard() {
  const { data, error, reload, loading } = useRefreshing(adminApi.systemHealth, HEALTH_REFRESH_MS);
  return (
    <Card withBorder padding="lg" component="section" aria-label="System Health">
      <Group justify="space-between" mb="sm">
        <Title order={4}>System Health</Title>
        <Group gap="xs">
          {data && (
            <Badge color={STATUS_COLOR[data.status]} variant="filled" aria-label="Overall health">
              {STATUS_TEXT[data.status]}
            </Badge>
          )}
          <Tooltip label="Check again">
            <ActionIcon variant="subtle" aria-label="Check again" onClick={reload} loading={loading}>
              <IconRefresh size={16} />
            </ActionIcon>
          </Tooltip>
        </Group>
      </Group>
      {error && (
        <Text c="red.7" size="sm">
          {error}
        </Text>
      )}
      {data && (
        <Stack gap={6}>
          {data.notices.map((notice) => (
            <Alert
              key={notice.id}
              color="yellow"
              variant="light"
              icon={<IconCalendarExclamation size={18} />}
              title={`Needed by ${formatCalendarDate(notice.neededBy)}`}
              mb={4}
            >
              {notice.message}
            </Alert>
          ))}
          {data.checks.map((check) => (
            <Group key={check.name} justify="space-between" wrap="nowrap" align="flex-start">
              <div>
                <Text size="sm" fw={500}>
                  {CHECK_LABELS[check.name]}
                </Text>
                <Text size="xs" c="dimmed">
                  {check.detail}
                </Text>
              </div>
              <Badge
                color={STATUS_COLOR[check.status]}
                variant="light"
                aria-label={`${CHECK_LABELS[check.name]} status`}
              >
                {STATUS_TEXT[check.status]}
              </Badge>
            </Group>
          ))}
          <Text size="xs" c="dimmed" mt={4}>
            Checked at {formatIstTime(data.checkedAt)}
          </Text>
        </Stack>
      )}
    </Card>
  );
}
