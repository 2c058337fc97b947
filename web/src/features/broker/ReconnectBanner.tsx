// The dashboard's one-click Reconnect (issue 10): from 08:30 IST, when yesterday's broker session has expired, a
// banner leads straight to the broker's login.
import { Alert, Button, Group, Text } from '@mantine/core';
import { useSubmit } from '../../lib/useSubmit';
import { shouldOfferReconnect } from './brokerText';
import { goToBrokerLogin } from './connectBroker';
import { useBrokerConnection } from './useBrokerConnection';

export function ReconnectBanner({ now = () => Date.now() }: { now?: () => number }) {
  const connection = useBrokerConnection();
  const { busy, run } = useSubmit({ title: 'Authentication Failed', message: 'Failed to connect broker' });
  if (!shouldOfferReconnect(connection, now())) return null;
  return (
    <Alert color="orange" variant="light" title="Broker session expired" role="status">
      <Group justify="space-between">
        <Text size="sm">
          Your broker ends API sessions every night. Log in again to trade today; until then trades stay on
          paper.
        </Text>
        <Button color="orange" loading={busy} onClick={() => void run(goToBrokerLogin)}>
          Reconnect
        </Button>
      </Group>
    </Alert>
  );
}
