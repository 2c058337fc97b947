// The Settings tab's notifications (issue 20): one row per event, one switch per channel, as the server sends the
// table (traders see their events, admins their own too). A switch saves at once; the server enforces the table
// (the sender asks it before every delivery). A channel the operator has not set up is shown, its switches
// disabled. Locked switches are e-mails that carry tax documents (payment receipt, refund).
import { useState } from 'react';
import { Alert, Button, Card, Group, Loader, Stack, Switch, Table, Text, Title } from '@mantine/core';
import type {
  NotificationChannelName,
  NotificationEventDto,
  NotificationSettingsDto,
} from '@optionpilot/server/contract';
import { api, errorMessage } from '../../../api/client';
import { toastError } from '../../../lib/toast';
import { useApiData } from '../useApiData';
import { PushSwitch } from './PushSwitch';
import { TelegramLink } from './TelegramLink';

const loadSettings = () => api.get<NotificationSettingsDto>('/api/user/notifications');

function EventRows({
  events,
  settings,
  saving,
  onToggle,
}: {
  events: NotificationEventDto[];
  settings: NotificationSettingsDto;
  saving: string | null;
  onToggle: (event: NotificationEventDto, channel: NotificationChannelName, enabled: boolean) => void;
}) {
  return events.map((e) => (
    <Table.Tr key={e.event}>
      <Table.Td>
        <Text size="sm" fw={500}>
          {e.label}
        </Text>
        <Text size="xs" c="dimmed">
          {e.description}
        </Text>
      </Table.Td>
      {settings.channels.map((c) => {
        const cell = e.channels[c.channel];
        const key = `${e.event}:${c.channel}`;
        return (
          <Table.Td key={c.channel} ta="center">
            <Group justify="center">
              <Switch
                aria-label={`${c.label} for ${e.label}`}
                checked={cell.enabled}
                disabled={cell.locked || !c.available || saving === key}
                onChange={(ev) => onToggle(e, c.channel, ev.currentTarget.checked)}
              />
            </Group>
          </Table.Td>
        );
      })}
    </Table.Tr>
  ));
}

export function NotificationsCard() {
  const loaded = useApiData(loadSettings);
  const [saving, setSaving] = useState<string | null>(null);
  const settings = loaded.data;

  const toggle = async (event: NotificationEventDto, channel: NotificationChannelName, enabled: boolean) => {
    if (!settings) return;
    const key = `${event.event}:${channel}`;
    // Shown at once; the server's answer (the whole table) replaces it, a failure puts the old table back.
    const before = settings;
    loaded.setData({
      ...settings,
      events: settings.events.map((e) =>
        e.event === event.event
          ? { ...e, channels: { ...e.channels, [channel]: { ...e.channels[channel], enabled } } }
          : e,
      ),
    });
    setSaving(key);
    try {
      const saved = await api.put<NotificationSettingsDto>('/api/user/notifications', {
        changes: [{ event: event.event, channel, enabled }],
      });
      loaded.setData(saved);
    } catch (err) {
      loaded.setData(before);
      toastError('Error', errorMessage(err, 'Failed to save the notification setting'));
    } finally {
      setSaving(null);
    }
  };

  const traderEvents = settings?.events.filter((e) => e.audience === 'trader') ?? [];
  const adminEvents = settings?.events.filter((e) => e.audience === 'admin') ?? [];

  return (
    <Card withBorder padding="lg">
      <Title order={4} mb="sm">
        Notifications
      </Title>
      {!settings ? (
        loaded.error ? (
          <Alert color="red" title="Could not load your notification settings">
            {loaded.error}{' '}
            <Button variant="subtle" size="compact-sm" onClick={loaded.reload}>
              Try again
            </Button>
          </Alert>
        ) : (
          <Group justify="center" py="md">
            <Loader aria-label="Loading notification settings" />
          </Group>
        )
      ) : (
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            Choose what reaches you, and where. Changes are saved at once.
          </Text>
          <TelegramLink />
          {/* this browser's subscription: offered only when the server sends push */}
          {settings.channels.some((c) => c.channel === 'push' && c.available) && <PushSwitch />}
          <Table.ScrollContainer minWidth={420}>
            <Table aria-label="Notification settings" verticalSpacing="xs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Notify me about</Table.Th>
                  {settings.channels.map((c) => (
                    <Table.Th key={c.channel} ta="center">
                      {c.label}
                      {!c.available && (
                        <Text size="xs" c="dimmed" fw={400}>
                          not set up
                        </Text>
                      )}
                    </Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                <EventRows
                  events={traderEvents}
                  settings={settings}
                  saving={saving}
                  onToggle={(e, c, v) => void toggle(e, c, v)}
                />
                {adminEvents.length > 0 && (
                  <Table.Tr>
                    <Table.Th colSpan={settings.channels.length + 1}>Admin</Table.Th>
                  </Table.Tr>
                )}
                <EventRows
                  events={adminEvents}
                  settings={settings}
                  saving={saving}
                  onToggle={(e, c, v) => void toggle(e, c, v)}
                />
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <Text size="xs" c="dimmed">
            Payment and refund e-mails carry your tax documents and are always sent.
          </Text>
        </Stack>
      )}
    </Card>
  );
}
