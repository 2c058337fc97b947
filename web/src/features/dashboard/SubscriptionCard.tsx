// Subscription Details (spec §2). Manage Subscription opens its own page (/subscription; decisions.md: renewal,
// payment history, invoices).
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import type { SubscriptionDto } from '@optionpilot/server/contract';
import { formatInr } from '../../lib/format';
import { formatIstDate } from './display';
import { subscriptionColor, subscriptionLabel } from './StatusCards';

/** Monthly plan incl. GST in paise (DOMAIN.md §4), shown until the server's subscription answer arrives. */
const DEFAULT_AMOUNT_PAISE = 589_882;

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Group justify="space-between">
      <Text c="dimmed" size="sm">
        {label}
      </Text>
      {children}
    </Group>
  );
}

export function SubscriptionCard({ subscription }: { subscription: SubscriptionDto | undefined }) {
  const status = subscription?.status ?? 'inactive';
  const amountPaise = subscription?.amountPaise || subscription?.plan?.totalPaise || DEFAULT_AMOUNT_PAISE;

  return (
    <Card withBorder padding="lg">
      <Title order={4} mb="sm">
        Subscription Details
      </Title>
      <Stack gap={6}>
        <Row label="Plan">
          <Text fw={600}>Professional</Text>
        </Row>
        <Row label="Status">
          <Badge color={subscriptionColor(status)} variant="light">
            {subscriptionLabel(status)}
          </Badge>
        </Row>
        <Row label="Next billing">
          <Text>{formatIstDate(subscription?.endDate ?? null)}</Text>
        </Row>
        <Row label="Amount">
          <Text fw={600}>{formatInr(amountPaise)}</Text>
        </Row>
      </Stack>
      <Button component={Link} to="/subscription" variant="light" fullWidth mt="md">
        Manage Subscription
      </Button>
    </Card>
  );
}
