// Subscription Details (spec §2) and its Manage Subscription modal (decisions.md: renewal, payment history, invoices).
import { useState, type ReactNode } from 'react';
import { Badge, Button, Card, Group, Modal, Stack, Text, Title } from '@mantine/core';
import type { SubscriptionDto } from '@optionpilot/server/contract';
import { formatInr } from '../../lib/format';
import { useUiStore } from '../../stores/ui';
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
  const [manageOpen, setManageOpen] = useState(false);
  const status = subscription?.status ?? 'inactive';
  const amountPaise = subscription?.amountPaise || subscription?.plan?.totalPaise || DEFAULT_AMOUNT_PAISE;

  const renew = () => {
    setManageOpen(false);
    useUiStore.getState().openPaymentDialog();
  };

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
      <Button variant="light" fullWidth mt="md" onClick={() => setManageOpen(true)}>
        Manage Subscription
      </Button>
      <Modal opened={manageOpen} onClose={() => setManageOpen(false)} title="Manage Subscription" centered>
        <Stack gap="md">
          <div>
            <Title order={5}>Renewal</Title>
            <Text size="sm" c="dimmed">
              {subscription?.endDate
                ? `Your plan runs until ${formatIstDate(subscription.endDate)}${
                    subscription.daysLeft !== null ? ` (${subscription.daysLeft} days left)` : ''
                  }. Renewing adds one month from that date.`
                : 'You have no active plan. Subscribe to let the bot trade for you.'}
            </Text>
            <Button mt="sm" onClick={renew}>
              {status === 'active' ? 'Renew Subscription' : 'Subscribe Now'} ({formatInr(amountPaise)})
            </Button>
          </div>
          <div>
            <Title order={5}>Payment history and invoices</Title>
            <Text size="sm" c="dimmed">
              Your payments and GST invoices will be listed here once invoicing is switched on.
            </Text>
          </div>
        </Stack>
      </Modal>
    </Card>
  );
}
