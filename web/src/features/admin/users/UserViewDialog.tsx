// View (spec §2 with decisions.md "Made safe"): personal, broker, subscription and payment details. No password is
// ever sent by the server; the broker key arrives masked to its last 4 characters and the secret not at all.
import { useCallback, type ReactNode } from 'react';
import { Badge, Divider, Loader, Modal, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { AdminUserDetailDto } from '@optionpilot/server/contract';
import { formatInr, formatIstDateTime } from '../../../lib/format';
import { BROKER_LABELS } from '@optionpilot/server/contract';
import { subscriptionLabel } from '../../dashboard/StatusCards';
import { useApiData } from '../../dashboard/useApiData';
import { usersApi } from './usersApi';

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={500} component="div">
        {children}
      </Text>
    </div>
  );
}

const when = (iso: string | null) => (iso ? formatIstDateTime(iso) : '—');

function Details({ user }: { user: AdminUserDetailDto }) {
  const payment = user.paymentDetails;
  return (
    <Stack gap="sm">
      <Title order={5}>Personal</Title>
      <SimpleGrid cols={2}>
        <Field label="Name">
          {user.firstName} {user.lastName}
        </Field>
        <Field label="Email">{user.email}</Field>
        <Field label="Phone">{user.phone}</Field>
        <Field label="Joined">{when(user.createdAt)}</Field>
        <Field label="Last active">{when(user.lastActive)}</Field>
        <Field label="Account">
          {user.disabled ? 'Deactivated' : 'Enabled'}
          {user.isTest ? ' · test user' : ''}
          {user.isAdmin ? ' · admin' : ''}
        </Field>
      </SimpleGrid>
      <Divider />
      <Title order={5}>Broker</Title>
      {user.broker ? (
        <SimpleGrid cols={2}>
          <Field label="Broker">{BROKER_LABELS[user.broker.brokerType]}</Field>
          <Field label="Status">{user.broker.status.replace('_', ' ')}</Field>
          <Field label="API key">{user.broker.apiKeyMasked}</Field>
          <Field label="API secret">•••• (encrypted, not shown)</Field>
          <Field label="Session expires">{when(user.broker.tokenExpiresAt)}</Field>
          <Field label="Last error">{user.broker.lastError ?? '—'}</Field>
        </SimpleGrid>
      ) : (
        <Text size="sm" c="dimmed">
          No broker connected.
        </Text>
      )}
      <Divider />
      <Title order={5}>Subscription</Title>
      <SimpleGrid cols={2}>
        <Field label="Status">
          <Badge variant="light">{subscriptionLabel(user.subscriptionStatus)}</Badge>
        </Field>
        <Field label="Plan">{user.plan?.name ?? '—'}</Field>
        <Field label="Start">{when(user.subscriptionStartDate)}</Field>
        <Field label="End">{when(user.subscriptionEndDate)}</Field>
      </SimpleGrid>
      <Divider />
      <Title order={5}>Payment details</Title>
      {payment ? (
        <SimpleGrid cols={2}>
          <Field label="UTR number">{payment.utrNumber ?? '—'}</Field>
          <Field label="Method">{payment.paymentMethod}</Field>
          <Field label="Amount">{formatInr(payment.amountPaise)}</Field>
          <Field label="Date">{when(payment.paymentDate)}</Field>
        </SimpleGrid>
      ) : (
        <Text size="sm" c="dimmed">
          No payment recorded.
        </Text>
      )}
    </Stack>
  );
}

export function UserViewDialog({ userId, onClose }: { userId: number; onClose: () => void }) {
  const load = useCallback(() => usersApi.detail(userId), [userId]);
  const { data, error } = useApiData(load);
  return (
    <Modal opened onClose={onClose} title="User details" size="lg" centered>
      {error && <Text c="red.7">{error}</Text>}
      {!data && !error && <Loader size="sm" aria-label="Loading" />}
      {data && <Details user={data} />}
    </Modal>
  );
}
