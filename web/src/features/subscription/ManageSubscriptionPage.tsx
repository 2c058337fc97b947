// Manage Subscription (/subscription; decisions.md: renewal, payment history, invoices). The plan, its status and
// end date; Renew opens the payment dialog (plan choice and offer code); every payment with its GST invoice PDF and
// the credit notes of its refunds.
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { Alert, Anchor, Badge, Button, Card, Group, Stack, Table, Text, Title } from '@mantine/core';
import type { PaymentHistoryItemDto, SubscriptionDto } from '@optionpilot/server/contract';
import { errorMessage } from '../../api/client';
import { SignedInLayout } from '../../components/SignedInLayout';
import { EMPTY_VALUE, formatInr, formatIstDateTime } from '../../lib/format';
import { toastError } from '../../lib/toast';
import { useLiveStore } from '../../live/stores';
import { useLiveSession } from '../../live/useLiveSession';
import { useUiStore } from '../../stores/ui';
import { formatIstDate } from '../dashboard/display';
import { subscriptionColor, subscriptionLabel } from '../dashboard/StatusCards';
import { dashboardApi } from '../dashboard/dashboardApi';
import { useApiData } from '../dashboard/useApiData';
import { PaymentReviewBanner } from '../payment/PaymentReviewBanner';
import { subscriptionApi } from './subscriptionApi';

const METHOD_LABELS: Record<PaymentHistoryItemDto['method'], string> = {
  razorpay: 'Razorpay',
  upi: 'UPI transfer',
  bank_transfer: 'Bank transfer',
  test: 'Test payment',
};

const STATUS_LABELS: Record<PaymentHistoryItemDto['status'], { label: string; color: string }> = {
  captured: { label: 'Paid', color: 'green' },
  refunded: { label: 'Refunded', color: 'gray' },
  failed: { label: 'Failed', color: 'red' },
};

/** A payment partly refunded is still paid; the badge says both. */
function statusOf(payment: PaymentHistoryItemDto): { label: string; color: string } {
  if (payment.status === 'captured' && payment.refundedPaise > 0)
    return { label: 'Partly refunded', color: 'yellow' };
  return STATUS_LABELS[payment.status];
}

/** What Renew does to the dates, in words: extension from the later of now and the current end. */
export function renewalText(subscription: SubscriptionDto | undefined): string {
  if (subscription?.status === 'active' && subscription.endDate) {
    const left = subscription.daysLeft !== null ? ` (${subscription.daysLeft} days left)` : '';
    return `Your plan runs until ${formatIstDate(subscription.endDate)}${left}. Renewing adds the plan's period from that date, so no day is lost.`;
  }
  return 'You have no active plan. Subscribing starts it today; the bot trades for you while it is active.';
}

function SubscriptionSummary({ subscription }: { subscription: SubscriptionDto | undefined }) {
  const status = subscription?.status ?? 'inactive';
  const renew = () => useUiStore.getState().openPaymentDialog();
  return (
    <Card withBorder padding="lg" component="section" aria-label="Your plan">
      <Title order={4} mb="sm">
        Your plan
      </Title>
      <Stack gap={6}>
        <Group justify="space-between">
          <Text c="dimmed" size="sm">
            Plan
          </Text>
          <Text fw={600}>{subscription?.plan?.name ?? 'Professional'}</Text>
        </Group>
        <Group justify="space-between">
          <Text c="dimmed" size="sm">
            Status
          </Text>
          <Badge color={subscriptionColor(status)} variant="light">
            {subscriptionLabel(status)}
          </Badge>
        </Group>
        <Group justify="space-between">
          <Text c="dimmed" size="sm">
            Started
          </Text>
          <Text>{formatIstDate(subscription?.startDate ?? null)}</Text>
        </Group>
        <Group justify="space-between">
          <Text c="dimmed" size="sm">
            Ends
          </Text>
          <Text>{formatIstDate(subscription?.endDate ?? null)}</Text>
        </Group>
      </Stack>
      <Text size="sm" c="dimmed" mt="md">
        {renewalText(subscription)}
      </Text>
      <Button mt="sm" onClick={renew}>
        {status === 'active' ? 'Renew Subscription' : 'Subscribe Now'}
      </Button>
    </Card>
  );
}

function DocumentButton({
  document,
  kind,
}: {
  document: { id: number; number: string };
  kind: 'invoice' | 'credit note';
}) {
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      if (kind === 'invoice') await subscriptionApi.downloadInvoice(document);
      else await subscriptionApi.downloadCreditNote(document);
    } catch (err) {
      toastError('Download failed', errorMessage(err, `Could not download the ${kind}`));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button
      size="xs"
      variant={kind === 'invoice' ? 'light' : 'subtle'}
      loading={busy}
      onClick={() => void download()}
      aria-label={`Download ${kind} ${document.number}`}
    >
      {document.number}
    </Button>
  );
}

function PaymentHistory({ payments }: { payments: PaymentHistoryItemDto[] }) {
  if (payments.length === 0) return <Text c="dimmed">No payments yet.</Text>;
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table striped aria-label="Payment history">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Date</Table.Th>
            <Table.Th>Plan</Table.Th>
            <Table.Th>Method</Table.Th>
            <Table.Th>Amount</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>GST documents</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {payments.map((payment) => (
            <Table.Tr key={payment.id}>
              <Table.Td>{formatIstDateTime(payment.paidAt)}</Table.Td>
              <Table.Td>{payment.planName ?? EMPTY_VALUE}</Table.Td>
              <Table.Td>{METHOD_LABELS[payment.method]}</Table.Td>
              <Table.Td ff="monospace">
                {formatInr(payment.amountPaise)}
                {payment.refundedPaise > 0 && (
                  <Text size="xs" c="dimmed">
                    {formatInr(payment.refundedPaise)} refunded
                  </Text>
                )}
              </Table.Td>
              <Table.Td>
                <Badge color={statusOf(payment).color} variant="light">
                  {statusOf(payment).label}
                </Badge>
              </Table.Td>
              <Table.Td>
                <Stack gap={2} align="flex-start">
                  {payment.invoice ? (
                    <DocumentButton document={payment.invoice} kind="invoice" />
                  ) : (
                    EMPTY_VALUE
                  )}
                  {payment.creditNotes.map((note) => (
                    <DocumentButton key={note.id} document={note} kind="credit note" />
                  ))}
                </Stack>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

export function ManageSubscriptionPage() {
  useLiveSession();
  const loaded = useApiData(dashboardApi.subscription);
  const history = useApiData(subscriptionApi.history);
  // An approved UPI payment arrives over the socket: newer than the first read, and it adds a payment to the list.
  const live = useLiveStore((s) => s.subscription);
  const subscription = { data: live ?? loaded.data, error: loaded.error };
  const reloadHistory = history.reload;
  useEffect(() => {
    if (live) reloadHistory();
  }, [live, reloadHistory]);
  return (
    <SignedInLayout>
      <Stack gap="md">
        <Group justify="space-between">
          <Title order={2}>Manage Subscription</Title>
          <Anchor component={Link} to="/dashboard">
            Back to dashboard
          </Anchor>
        </Group>
        <PaymentReviewBanner />
        {subscription.error && (
          <Alert color="red" title="Could not load your subscription">
            {subscription.error}
          </Alert>
        )}
        <SubscriptionSummary subscription={subscription.data} />
        <Card withBorder padding="lg">
          <Title order={4} mb="sm">
            Payment history and invoices
          </Title>
          {history.error ? (
            <Alert color="red" title="Could not load your payments">
              {history.error}
            </Alert>
          ) : history.data ? (
            <PaymentHistory payments={history.data.payments} />
          ) : (
            <Text c="dimmed">Loading…</Text>
          )}
        </Card>
      </Stack>
    </SignedInLayout>
  );
}
