// Payment gateway status: test mode or live, the masked key, and when the last webhook arrived.
import { Badge, Card, Group, SimpleGrid, Text, Title } from '@mantine/core';
import { LabeledValue } from '../../../components/LabeledValue';
import { formatIstDateTime } from '../../../lib/format';
import { useApiData } from '../../dashboard/useApiData';
import { subscriptionsApi } from './subscriptionsApi';

export function GatewayCard() {
  const { data, error } = useApiData(subscriptionsApi.gateway);
  return (
    <Card withBorder padding="lg" component="section" aria-label="Payment Gateway">
      <Group justify="space-between" mb="sm">
        <Title order={4}>Payment Gateway</Title>
        {data && (
          <Badge color={data.mode === 'live' ? 'green' : 'orange'} variant="filled">
            {data.mode === 'live' ? 'Live' : 'Test mode'}
          </Badge>
        )}
      </Group>
      {error && <Text c="red.7">{error}</Text>}
      {data && (
        <SimpleGrid cols={{ base: 2, md: 4 }}>
          <LabeledValue label="Provider" value="Razorpay" />
          <LabeledValue label="Key" value={data.keyIdMasked ?? 'Not configured'} />
          <LabeledValue
            label="Webhook secret"
            value={data.webhookSecretConfigured ? 'Configured' : 'Not configured'}
          />
          <LabeledValue
            label="Last webhook"
            value={
              data.lastWebhookAt
                ? `${formatIstDateTime(data.lastWebhookAt)} (${data.lastWebhookType ?? '—'})`
                : 'None yet'
            }
          />
        </SimpleGrid>
      )}
    </Card>
  );
}
