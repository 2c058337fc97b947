// Broker Connection form (spec §2/§5/§8). Until real broker login lands the server only stores the credentials
// (encrypted) and says so; the success toast shows the server's own words rather than claiming a live connection.
import { useState } from 'react';
import { Button, Card, Group, PasswordInput, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { BROKER_TYPES, type BrokerConnectionDto, type BrokerType } from '@optionpilot/server/contract';
import { toastError, toastSuccess } from '../../lib/toast';
import { useSubmit } from '../../lib/useSubmit';
import { useSessionStore } from '../../stores/session';
import { dashboardApi } from './dashboardApi';
import { useApiData } from './useApiData';

export const BROKER_LABELS: Record<BrokerType, string> = {
  zerodha: 'Zerodha',
  upstox: 'Upstox',
  aliceblue: 'Alice Blue',
  fyers: 'Fyers',
  groww: 'Groww',
  angelone: 'Angel One',
  dhan: 'Dhan',
};

const BROKER_OPTIONS = BROKER_TYPES.map((value) => ({ value, label: BROKER_LABELS[value] }));

/** Spec §5 wording, also the server's message for a missing field. */
export const MISSING_BROKER_FIELDS = 'Please fill in all broker credentials including API secret';

const STATUS_TEXT: Record<BrokerConnectionDto['status'], string> = {
  credentials_saved: 'credentials saved',
  connected: 'connected',
  expired: 'session expired: log in again',
  error: 'error',
  disconnected: 'disconnected',
};

export function BrokerForm() {
  const saved = useApiData(dashboardApi.broker);
  const [brokerType, setBrokerType] = useState<string | null>(null);
  const [apiKey, setApiKey] = useState('');
  const [apiSecret, setApiSecret] = useState('');
  const { busy, run } = useSubmit({ title: 'Authentication Failed', message: 'Failed to connect broker' });

  const submit = async () => {
    if (!brokerType || !apiKey.trim() || !apiSecret.trim()) {
      toastError('Error', MISSING_BROKER_FIELDS);
      return;
    }
    await run(async () => {
      const response = await dashboardApi.saveBroker({
        brokerType,
        apiKey: apiKey.trim(),
        apiSecret: apiSecret.trim(),
      });
      toastSuccess('Broker Connected', response.message);
      saved.setData(response.broker);
      // The secret must not stay in memory or on screen once the server has it.
      setApiSecret('');
      setApiKey('');
      await useSessionStore.getState().refreshMe();
    });
  };

  const current = saved.data;
  return (
    <Card withBorder padding="lg">
      <Title order={4} mb="xs">
        Broker Connection
      </Title>
      {current && (
        <Text size="sm" mb="sm" aria-label="Saved broker">
          {BROKER_LABELS[current.brokerType]} · API key {current.apiKeyMasked} · {STATUS_TEXT[current.status]}
          {current.lastError ? ` (${current.lastError})` : ''}
        </Text>
      )}
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <Stack gap="sm">
          <Select
            label="Broker"
            placeholder="Select your broker"
            data={BROKER_OPTIONS}
            value={brokerType}
            onChange={setBrokerType}
            required
          />
          <TextInput
            label="API Key"
            value={apiKey}
            onChange={(e) => setApiKey(e.currentTarget.value)}
            autoComplete="off"
            required
          />
          <PasswordInput
            label="API Secret"
            value={apiSecret}
            onChange={(e) => setApiSecret(e.currentTarget.value)}
            autoComplete="new-password"
            required
          />
          <Group justify="flex-end">
            <Button type="submit" loading={busy}>
              {current ? 'Update Broker' : 'Connect Broker'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
