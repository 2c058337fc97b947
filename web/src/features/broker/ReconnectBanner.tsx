// The dashboard's one-click Reconnect (issue 10): from 08:30 IST, when yesterday's broker session has expired, a
// banner leads straight to the broker's daily login — its own page, or the login dialog for a broker that logs in
// by form (Angel One), built from the fields the server declares.
import { useState } from 'react';
import { Alert, Button, Group, Text } from '@mantine/core';
import { useLiveStore } from '../../live/stores';
import { useSubmit } from '../../lib/useSubmit';
import { useSessionStore } from '../../stores/session';
import { shouldOfferReconnect } from './brokerText';
import { goToBrokerLogin } from './connectBroker';
import { FormLoginDialog } from './FormLoginDialog';
import { useBrokerConnection } from './useBrokerConnection';
import { useBrokerOffers } from './useBrokerOffers';

export function ReconnectBanner({ now = () => Date.now() }: { now?: () => number }) {
  const connection = useBrokerConnection();
  const offers = useBrokerOffers();
  const [formOpen, setFormOpen] = useState(false);
  const { busy, run } = useSubmit({ title: 'Authentication Failed', message: 'Failed to connect broker' });
  if (!shouldOfferReconnect(connection, now())) return null;
  const offer = offers.data?.brokers.find((o) => o.type === connection?.brokerType && o.available);
  const form = offer?.loginKind === 'form' && offer.fields && offer.submitPath ? offer : undefined;
  return (
    <Alert color="orange" variant="light" title="Broker session expired" role="status">
      <Group justify="space-between">
        <Text size="sm">
          Your broker ends API sessions every night. Log in again to trade today; until then trades stay on
          paper.
        </Text>
        <Button
          color="orange"
          loading={busy}
          onClick={() => (form ? setFormOpen(true) : void run(goToBrokerLogin))}
        >
          Reconnect
        </Button>
      </Group>
      {form?.fields && form.submitPath && (
        <FormLoginDialog
          opened={formOpen}
          onClose={() => setFormOpen(false)}
          brokerLabel={form.label}
          fields={form.fields}
          submitPath={form.submitPath}
          onConnected={async () => {
            // Every view of the connection (the card, this banner) reads it again.
            useLiveStore.getState().noteBrokerChange();
            await useSessionStore.getState().refreshMe();
          }}
        />
      )}
    </Alert>
  );
}
