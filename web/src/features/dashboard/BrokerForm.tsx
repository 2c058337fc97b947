// Broker Connection card (spec §2/§5/§8, issue 10): Connected / Session expired / Not connected with the broker's
// account name and the session's expiry, the trader's own API key and secret (saved encrypted, shown masked),
// Connect (the broker's login page, back through /broker/{broker}/callback), Disconnect, the redirect URL to
// register with "Copied!", and the server's static IP to whitelist. Only brokers with an integration are selectable.
import { useState } from 'react';
import {
  Badge,
  Button,
  Card,
  Code,
  Group,
  PasswordInput,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import type { BrokerConnectionDto, BrokerOfferDto, BrokerType } from '@optionpilot/server/contract';
import { browser } from '../../lib/browser';
import { formatIstDateTime } from '../../lib/format';
import { toastError, toastSuccess } from '../../lib/toast';
import { useSubmit } from '../../lib/useSubmit';
import { useSessionStore } from '../../stores/session';
import { brokerApi } from '../broker/brokerApi';
import { SESSION_TEXT } from '../broker/brokerText';
import { goToBrokerLogin } from '../broker/connectBroker';
import { useReloadOnBrokerChange } from '../broker/useBrokerConnection';
import { useBrokerOffers } from '../broker/useBrokerOffers';
import { dashboardApi } from './dashboardApi';
import { useApiData } from './useApiData';

/** Display names of every broker type (StatusCards too); what can be connected comes from GET /api/brokers. */
export const BROKER_LABELS: Record<BrokerType, string> = {
  zerodha: 'Zerodha',
  upstox: 'Upstox',
  aliceblue: 'Alice Blue',
  fyers: 'Fyers',
  groww: 'Groww',
  angelone: 'Angel One',
  dhan: 'Dhan',
};

/** Spec §5 wording, also the server's message for a missing field. */
export const MISSING_BROKER_FIELDS = 'Please fill in all broker credentials including API secret';

const SESSION_COLOR: Record<BrokerConnectionDto['session'], string> = {
  connected: 'green',
  expired: 'orange',
  not_connected: 'gray',
};

/** Select options: available brokers first; the rest are listed as coming soon and cannot be chosen. */
export function brokerOptions(offers: readonly BrokerOfferDto[]) {
  return offers.map((o) => ({
    value: o.type,
    label: o.available ? o.label : `${o.label} (coming soon)`,
    disabled: !o.available,
  }));
}

function labelOf(offers: readonly BrokerOfferDto[], type: BrokerType): string {
  return offers.find((o) => o.type === type)?.label ?? BROKER_LABELS[type];
}

export function BrokerForm() {
  const saved = useReloadOnBrokerChange(useApiData(dashboardApi.broker));
  const offers = useBrokerOffers();
  const [brokerType, setBrokerType] = useState<string | null>(null);
  const [apiKey, setApiKey] = useState('');
  const [apiSecret, setApiSecret] = useState('');
  const { busy, run } = useSubmit({ title: 'Authentication Failed', message: 'Failed to connect broker' });
  const connecting = useSubmit({ title: 'Authentication Failed', message: 'Failed to connect broker' });

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
      toastSuccess('Credentials saved', response.message);
      saved.setData(response.broker);
      // The secret must not stay in memory or on screen once the server has it.
      setApiSecret('');
      setApiKey('');
      await useSessionStore.getState().refreshMe();
    });
  };

  const disconnect = () =>
    connecting.run(async () => {
      const response = await brokerApi.disconnect();
      saved.setData(response.broker);
      toastSuccess('Broker disconnected', response.message);
      await useSessionStore.getState().refreshMe();
    });

  const copyRedirect = async (url: string) => {
    try {
      await browser.copyText(url);
      toastSuccess('Copied!');
    } catch {
      toastError('Error', 'Could not copy: select the URL and copy it by hand.');
    }
  };

  const list = offers.data?.brokers ?? [];
  const current = saved.data;
  const canConnect = current ? list.some((o) => o.type === current.brokerType && o.available) : false;
  const egressIp = offers.data?.egressIp ?? null;
  return (
    <Card withBorder padding="lg">
      <Group justify="space-between" mb="xs">
        <Title order={4}>Broker Connection</Title>
        {/* Nothing until the connection is read: "Not connected" for a moment would be wrong for a connected trader. */}
        {!(saved.loading && current === undefined) && (
          <Badge color={SESSION_COLOR[current?.session ?? 'not_connected']} aria-label="Broker session">
            {SESSION_TEXT[current?.session ?? 'not_connected']}
          </Badge>
        )}
      </Group>
      {current && (
        <Stack gap={4} mb="sm">
          <Text size="sm" aria-label="Saved broker">
            {labelOf(list, current.brokerType)} · API key {current.apiKeyMasked}
            {current.accountName ? ` · ${current.accountName}` : ''}
          </Text>
          {current.session === 'connected' && current.tokenExpiresAt && (
            <Text size="sm" c="dimmed">
              Session valid until {formatIstDateTime(current.tokenExpiresAt)}
            </Text>
          )}
          {current.lastError && (
            <Text size="sm" c="red" role="alert">
              {current.lastError}
            </Text>
          )}
          <Group gap="xs" wrap="nowrap">
            <Text size="xs" c="dimmed">
              Redirect URL for your broker app:
            </Text>
            <Code>{current.redirectUrl}</Code>
            <Button size="compact-xs" variant="subtle" onClick={() => void copyRedirect(current.redirectUrl)}>
              Copy
            </Button>
          </Group>
          <Text size="xs" c="dimmed" aria-label="Static IP">
            {egressIp
              ? `Whitelist this server's static IP in your broker app: ${egressIp}`
              : "Brokers accept API orders only from a whitelisted static IP: ask this server's operator for it."}
          </Text>
          <Group gap="xs" mt={4}>
            {canConnect && current.session !== 'connected' && (
              <Button
                size="xs"
                loading={connecting.busy}
                onClick={() => void connecting.run(goToBrokerLogin)}
              >
                {current.session === 'expired' ? 'Reconnect' : 'Connect'}
              </Button>
            )}
            {current.session === 'connected' && (
              <Button size="xs" variant="default" loading={connecting.busy} onClick={() => void disconnect()}>
                Disconnect
              </Button>
            )}
          </Group>
        </Stack>
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
            data={brokerOptions(list)}
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
            <Button type="submit" variant={current ? 'default' : 'filled'} loading={busy}>
              {current ? 'Update API Key' : 'Save API Key'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
