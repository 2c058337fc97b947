// Edit (spec §2, decisions.md): the same fields as View; broker credentials are replaced (never shown), a payment
// received outside the gateway can be recorded; the account section sends a reset link, sets a new password (every
// session of the user ends) or deactivates/reactivates.
import { useState, type FormEvent } from 'react';
import {
  Button,
  Divider,
  Group,
  Modal,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { BROKER_TYPES, type AdminUserDto } from '@optionpilot/server/contract';
import { SecretInput } from '../../../components/SecretInput';
import type { FieldErrors } from '../../../lib/fieldErrors';
import { toastSuccess } from '../../../lib/toast';
import { useSubmit } from '../../../lib/useSubmit';
import { BROKER_LABELS } from '@optionpilot/server/contract';
import { AccountActions } from './AccountActions';
import { buildUserPatch, initialUserForm, type UserFormField, type UserFormValues } from './userForm';
import { usersApi } from './usersApi';

const STATUS_OPTIONS = ['active', 'pending', 'inactive', 'expired'].map((v) => ({
  value: v,
  label: v[0]?.toUpperCase() + v.slice(1),
}));
const BROKER_OPTIONS = BROKER_TYPES.map((b) => ({ value: b, label: BROKER_LABELS[b] }));
const METHOD_OPTIONS = [
  { value: 'upi', label: 'UPI' },
  { value: 'bank_transfer', label: 'Bank transfer' },
];

export function UserEditDialog({
  user,
  onClose,
}: {
  user: AdminUserDto;
  onClose: (changed: boolean) => void;
}) {
  const [form, setForm] = useState<UserFormValues>(() => initialUserForm(user));
  const [errors, setErrors] = useState<FieldErrors<UserFormField>>({});
  const [changed, setChanged] = useState(false);
  const { busy, run } = useSubmit({ title: 'Update Failed', message: 'Failed to update user data' });

  const set = <K extends keyof UserFormValues>(key: K, value: UserFormValues[K]) =>
    setForm((f) => ({ ...f, [key]: value }));
  const text = (key: keyof UserFormValues & UserFormField, label: string, type = 'text') => (
    <TextInput
      label={label}
      type={type}
      value={form[key]}
      onChange={(e) => set(key, e.currentTarget.value)}
      error={errors[key]}
    />
  );

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const patch = buildUserPatch(user, form);
    if (!patch.ok) {
      setErrors(patch.errors);
      return;
    }
    setErrors({});
    void run(async () => {
      await usersApi.patch(user.id, patch.body);
      toastSuccess('User Updated', `${form.email} was saved.`);
      onClose(true);
    });
  };

  return (
    <Modal opened onClose={() => onClose(changed)} title="Edit user" size="lg" centered>
      <form onSubmit={submit} aria-label="Edit user" noValidate>
        <Stack gap="sm">
          <Title order={5}>Personal</Title>
          <SimpleGrid cols={2}>
            {text('firstName', 'First name')}
            {text('lastName', 'Last name')}
            {text('email', 'Email', 'email')}
            {text('phone', 'Phone', 'tel')}
          </SimpleGrid>
          <Title order={5}>Subscription</Title>
          <SimpleGrid cols={3}>
            <Select
              label="Subscription status"
              data={STATUS_OPTIONS}
              value={form.subscriptionStatus}
              allowDeselect={false}
              onChange={(v) => v && set('subscriptionStatus', v as UserFormValues['subscriptionStatus'])}
            />
            {text('subscriptionStartDate', 'Start date (IST)', 'date')}
            {text('subscriptionEndDate', 'End date (IST)', 'date')}
          </SimpleGrid>
          <Title order={5}>Replace broker credentials</Title>
          <SimpleGrid cols={3}>
            <Select
              label="Broker"
              data={BROKER_OPTIONS}
              value={form.brokerType || null}
              onChange={(v) => set('brokerType', v ?? '')}
              error={errors.brokerType}
            />
            {text('brokerApiKey', 'New API key')}
            <SecretInput
              label="New API secret"
              value={form.brokerApiSecret}
              onChange={(e) => set('brokerApiSecret', e.currentTarget.value)}
              error={errors.brokerApiSecret}
            />
          </SimpleGrid>
          <Title order={5}>Record a payment</Title>
          <Text size="sm" c="dimmed">
            A payment received by UPI or bank transfer: it extends the subscription by the plan and issues a
            GST invoice, once per UTR. Dates set above in the same edit take precedence.
          </Text>
          <SimpleGrid cols={2}>
            <TextInput
              label="UTR number"
              value={form.utrNumber}
              onChange={(e) => set('utrNumber', e.currentTarget.value)}
              error={errors.paymentDetails}
            />
            <Select
              label="Payment method"
              data={METHOD_OPTIONS}
              value={form.paymentMethod}
              allowDeselect={false}
              onChange={(v) => v && set('paymentMethod', v as UserFormValues['paymentMethod'])}
            />
            <TextInput
              label="Amount (₹)"
              inputMode="decimal"
              value={form.amountRupees}
              onChange={(e) => set('amountRupees', e.currentTarget.value)}
            />
            <TextInput
              label="Payment date (IST)"
              type="date"
              value={form.paymentDate}
              onChange={(e) => set('paymentDate', e.currentTarget.value)}
            />
          </SimpleGrid>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => onClose(changed)} disabled={busy}>
              Cancel
            </Button>
            <Button type="submit" disabled={busy}>
              {busy ? 'Saving...' : 'Save changes'}
            </Button>
          </Group>
        </Stack>
      </form>
      <Divider my="md" />
      <AccountActions user={user} onChanged={() => setChanged(true)} />
    </Modal>
  );
}
