// Broker Connection card (spec §2/§5/§8, issues 10, 17 and 18): Connected / IP not allowed / Session expired / Not
// connected with the broker's account name and the session's expiry; the setup steps at the broker first (the app,
// its redirect URL to register with "Copied!", the server's static IP to whitelist), then the trader's own API key
// and secret (saved encrypted, shown masked); the daily login the broker uses — its own page (Connect, back through
// /broker/{broker}/callback) or a form (Angel One's MPIN and TOTP) — Disconnect, and Resume after the trader has
// whitelisted the IP. Only brokers with an integration are selectable; all of it is described by GET /api/brokers.
import { useState } from 'react';
import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  PasswordInput,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import {
  BROKER_LABELS,
  type BrokerConnectionDto,
  type BrokerOfferDto,
  type BrokerType,
} from '@optionpilot/server/contract';
import { formatIstDateTime } from '../../lib/format';
import { toastError, toastSuccess } from '../../lib/toast';
import { useSubmit } from '../../lib/useSubmit';
import { useLiveStore } from '../../live/stores';
import { useSessionStore } from '../../stores/session';
import { brokerApi } from '../broker/brokerApi';
import { BrokerSetupSteps } from '../broker/BrokerSetupSteps';
import { SESSION_TEXT } from '../broker/brokerText';
import { goToBrokerLogin } from '../broker/connectBroker';
import { FormLoginDialog } from '../broker/FormLoginDialog';
import { useReloadOnBrokerChange } from '../broker/useBrokerConnection';
import { useBrokerOffers } from '../broker/useBrokerOffers';
import { dashboardApi } from './dashboardApi';
import { useApiData } from './useApiData';

/** Spec §5 wording, also the server's message for a missing field. */
export const MISSING_BROKER_FIELDS = 'Please fill in all broker credentials including API secret';

const SESSION_COLOR: Record<BrokerConnectionDto['session'], string> = {
  connected: 'green',
  ip_blocked: 'red',
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

/** "Called App ID at Fyers" when the broker names the key differently. */
function calledAt(offer: BrokerOfferDto | undefined, name: string | undefined, ours: string) {
  return offer && name && name.toLowerCase() !== ours.toLowerCase()
    ? `Called “${name}” at ${offer.label}`
    : undefined;
}

export function BrokerForm() {
  const saved = useReloadOnBrokerChange(useApiData(dashboardApi.broker));
  const offers = useBrokerOffers();
  const [brokerType, setBrokerType] = useState<string | null>(null);
  const [apiKey, setApiKey] = useState('');
  const [apiSecret, setApiSecret] = useState('');
  const [formLoginOpen, setFormLoginOpen] = useState(false);
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

  const resume = () =>
    connecting.run(async () => {
      const response = await brokerApi.resume();
      saved.setData(response.broker);
      toastSuccess('Orders resumed', response.message);
    });

  const list = offers.data?.brokers ?? [];
  const current = saved.data;
  const currentOffer = current ? list.find((o) => o.type === current.brokerType && o.available) : undefined;
  // The setup steps follow the broker chosen in the select, else the saved one while it is not connected.
  const shownType = brokerType ?? (current?.session === 'connected' ? undefined : current?.brokerType);
  const shown = list.find((o) => o.type === shownType && o.available);
  const egressIp = offers.data?.egressIp ?? null;
  const formLogin = currentOffer?.loginKind === 'form' ? currentOffer : undefined;
  const needsLogin = current !== undefined && current !== null && current.session !== 'connected';
  const loginWord = current?.session === 'expired' ? 'Reconnect' : 'Connect';
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
          {current.session === 'ip_blocked' ? (
            <Alert color="red" title="IP not allowed: no order goes to your broker" role="alert">
              <Stack gap="xs">
                <Text size="sm">{current.lastError}</Text>
                <Text size="sm">
                  New trades are paper until you whitelist the IP in your broker app and press Resume. Open
                  positions keep their stop resting at your broker.
                </Text>
                <Group>
                  <Button size="xs" color="red" loading={connecting.busy} onClick={() => void resume()}>
                    I have whitelisted the IP: resume orders
                  </Button>
                </Group>
              </Stack>
            </Alert>
          ) : (
            current.lastError && (
              <Text size="sm" c="red" role="alert">
                {current.lastError}
              </Text>
            )
          )}
          <Group gap="xs" mt={4}>
            {currentOffer && needsLogin && current.session !== 'ip_blocked' && formLogin === undefined && (
              <Button
                size="xs"
                loading={connecting.busy}
                onClick={() => void connecting.run(goToBrokerLogin)}
              >
                {loginWord}
              </Button>
            )}
            {formLogin && needsLogin && current.session !== 'ip_blocked' && (
              <>
                <Button size="xs" onClick={() => setFormLoginOpen(true)}>
                  {loginWord}
                </Button>
                {formLogin.redirectLogin && (
                  <Button
                    size="xs"
                    variant="light"
                    loading={connecting.busy}
                    onClick={() => void connecting.run(goToBrokerLogin)}
                  >
                    Log in at {formLogin.label} instead
                  </Button>
                )}
              </>
            )}
            {(current.session === 'connected' || current.session === 'ip_blocked') && (
              <Button size="xs" variant="default" loading={connecting.busy} onClick={() => void disconnect()}>
                Disconnect
              </Button>
            )}
          </Group>
        </Stack>
      )}
      {formLogin?.fields && formLogin.submitPath && (
        <FormLoginDialog
          opened={formLoginOpen}
          onClose={() => setFormLoginOpen(false)}
          brokerLabel={formLogin.label}
          fields={formLogin.fields}
          submitPath={formLogin.submitPath}
          onConnected={async (response) => {
            saved.setData(response.broker);
            // The Reconnect banner and the Trading Mode card read the connection again.
            useLiveStore.getState().noteBrokerChange();
            await useSessionStore.getState().refreshMe();
          }}
        />
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
          {shown?.setup && (
            <BrokerSetupSteps brokerLabel={shown.label} setup={shown.setup} egressIp={egressIp} />
          )}
          <TextInput
            label="API Key"
            description={calledAt(shown, shown?.setup?.credentialLabels.apiKey, 'API key')}
            value={apiKey}
            onChange={(e) => setApiKey(e.currentTarget.value)}
            autoComplete="off"
            required
          />
          <PasswordInput
            label="API Secret"
            description={calledAt(shown, shown?.setup?.credentialLabels.apiSecret, 'API secret')}
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
