// Settings tab (spec §2): Trading Configuration and Notifications, persisted per user (decisions.md) through
// GET/PUT /api/user/settings. Both cards edit one settings object; each Save sends all of it, validated with the
// server's own schema first so field messages match. The spec's "risk level" is not offered: nothing in the
// product could honour it (issue 18), and a setting that does nothing is not shown.
import { useEffect, useState } from 'react';
import {
  Alert,
  Button,
  Card,
  Group,
  Loader,
  NumberInput,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { userSettingsSchema, type UserSettingsDto } from '@optionpilot/server/contract';
import { ApiError, errorMessage } from '../../api/client';
import { useLiveStore } from '../../live/stores';
import { toastError, toastSuccess } from '../../lib/toast';
import { tradingHoursNote } from '../session/sessionText';
import { dashboardApi } from './dashboardApi';
import { useApiData } from './useApiData';
import { PushSwitch } from './notifications/PushSwitch';

type FieldErrors = Record<string, string>;

/** The dotted path of a zod issue or a server `field`, e.g. "notifications.push". */
function keyOf(path: ReadonlyArray<PropertyKey>): string {
  return path.map(String).join('.');
}

export function SettingsTab() {
  const loaded = useApiData(dashboardApi.settings);
  const [form, setForm] = useState<UserSettingsDto | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [saving, setSaving] = useState<'trading' | 'notifications' | null>(null);
  // The strategy's trading day (live: an admin's square-off change shows at once), to say what the hours do.
  const session = useLiveStore((s) => s.strategy?.session);

  useEffect(() => {
    if (loaded.data) setForm(loaded.data);
  }, [loaded.data]);

  if (!form) {
    return loaded.error ? (
      <Alert color="red" title="Could not load your settings">
        {loaded.error}{' '}
        <Button variant="subtle" size="compact-sm" onClick={loaded.reload}>
          Try again
        </Button>
      </Alert>
    ) : (
      <Group justify="center" py="xl">
        <Loader aria-label="Loading settings" />
      </Group>
    );
  }

  const update = (patch: Partial<UserSettingsDto>) => setForm({ ...form, ...patch });
  const updateNotifications = (patch: Partial<UserSettingsDto['notifications']>) =>
    setForm({ ...form, notifications: { ...form.notifications, ...patch } });

  const save = async (which: 'trading' | 'notifications') => {
    const parsed = userSettingsSchema.safeParse(form);
    if (!parsed.success) {
      const next: FieldErrors = {};
      for (const issue of parsed.error.issues) next[keyOf(issue.path)] ??= issue.message;
      setErrors(next);
      toastError('Error', parsed.error.issues[0]?.message ?? 'Please check the highlighted fields');
      return;
    }
    setErrors({});
    setSaving(which);
    try {
      const saved = await dashboardApi.saveSettings(parsed.data);
      loaded.setData(saved);
      toastSuccess(
        'Settings saved',
        which === 'trading' ? 'Trading configuration updated.' : 'Notifications updated.',
      );
    } catch (err) {
      if (err instanceof ApiError && err.field) setErrors({ [err.field]: err.message });
      toastError('Error', errorMessage(err, 'Failed to save settings'));
    } finally {
      setSaving(null);
    }
  };

  return (
    <SimpleGrid cols={{ base: 1, md: 2 }}>
      <Card withBorder padding="lg">
        <Title order={4} mb="sm">
          Trading Configuration
        </Title>
        <Stack gap="sm">
          <Switch
            label="Auto trading"
            description="Let the bot place trades when the strategy signals"
            checked={form.autoTrading}
            onChange={(e) => update({ autoTrading: e.currentTarget.checked })}
          />
          <NumberInput
            label="Max Daily Loss (₹)"
            description="Positions are closed and trading stops for the day at this loss"
            value={form.maxDailyLoss}
            onChange={(v) => update({ maxDailyLoss: typeof v === 'number' ? v : Number.NaN })}
            min={500}
            max={1_000_000}
            step={500}
            allowDecimal={false}
            thousandSeparator=","
            thousandsGroupStyle="lakh"
            prefix="₹"
            clampBehavior="none"
            error={errors.maxDailyLoss}
          />
          <Group grow>
            <TextInput
              type="time"
              label="Trading Hours Start (IST)"
              value={form.tradingHoursStart}
              onChange={(e) => update({ tradingHoursStart: e.currentTarget.value })}
              error={errors.tradingHoursStart}
            />
            <TextInput
              type="time"
              label="Trading Hours End (IST)"
              value={form.tradingHoursEnd}
              onChange={(e) => update({ tradingHoursEnd: e.currentTarget.value })}
              error={errors.tradingHoursEnd}
            />
          </Group>
          {session && (
            <Text size="xs" c="dimmed" aria-label="What your trading hours do">
              {tradingHoursNote(session, form.tradingHoursStart, form.tradingHoursEnd)}
            </Text>
          )}
          <Group justify="flex-end">
            <Button
              onClick={() => void save('trading')}
              loading={saving === 'trading'}
              disabled={saving !== null}
            >
              Save Trading Configuration
            </Button>
          </Group>
        </Stack>
      </Card>
      <Card withBorder padding="lg">
        <Title order={4} mb="sm">
          Notifications
        </Title>
        <Stack gap="sm">
          <PushSwitch onChange={(on) => updateNotifications({ push: on })} />
          <Text size="sm" c="dimmed">
            Notify me about
          </Text>
          <Switch
            label="Trade execution alerts"
            checked={form.notifications.tradeExecution}
            disabled={!form.notifications.push}
            onChange={(e) => updateNotifications({ tradeExecution: e.currentTarget.checked })}
          />
          <Switch
            label="P&L updates"
            checked={form.notifications.pnlUpdates}
            disabled={!form.notifications.push}
            onChange={(e) => updateNotifications({ pnlUpdates: e.currentTarget.checked })}
          />
          <Switch
            label="System alerts"
            checked={form.notifications.systemAlerts}
            disabled={!form.notifications.push}
            onChange={(e) => updateNotifications({ systemAlerts: e.currentTarget.checked })}
          />
          <Group justify="flex-end">
            <Button
              onClick={() => void save('notifications')}
              loading={saving === 'notifications'}
              disabled={saving !== null}
            >
              Save Notifications
            </Button>
          </Group>
        </Stack>
      </Card>
    </SimpleGrid>
  );
}
