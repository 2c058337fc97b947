// /broker/{broker}/callback (spec §7): where the broker's login sends the trader back. The page forwards the query
// (request token / code and the state) to the server, which checks the state and completes the login, then
// returns to the dashboard. Nothing of the query is shown or kept.
import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Center, Loader, Stack, Text, Title } from '@mantine/core';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { errorMessage } from '../../api/client';
import { toastSuccess } from '../../lib/toast';
import { usePageTitle } from '../../lib/usePageTitle';
import { useSessionStore } from '../../stores/session';
import { brokerApi } from './brokerApi';

export function BrokerCallbackPage() {
  usePageTitle('Connecting your broker');
  const { broker = '' } = useParams();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  // The state is single use: React's development double effect must not send it twice.
  const sent = useRef(false);

  useEffect(() => {
    if (sent.current) return;
    sent.current = true;
    const query = Object.fromEntries(params.entries());
    brokerApi
      .callback(broker, query)
      .then(async (response) => {
        toastSuccess('Broker Connected', response.message);
        await useSessionStore.getState().refreshMe();
        navigate('/dashboard', { replace: true });
      })
      .catch((err: unknown) => setError(errorMessage(err, 'Failed to connect broker')));
  }, [broker, params, navigate]);

  return (
    <Center mih="100vh" p="md">
      <Stack align="center" gap="sm" maw={520}>
        <Title order={1} size="h3">
          Connecting your broker
        </Title>
        {error ? (
          <>
            <Alert color="red" title="Authentication Failed" role="alert">
              {error}
            </Alert>
            <Button component={Link} to="/dashboard">
              Back to dashboard
            </Button>
          </>
        ) : (
          <>
            <Loader aria-label="Completing the broker login" />
            <Text c="dimmed">Completing the broker login…</Text>
          </>
        )}
      </Stack>
    </Center>
  );
}
