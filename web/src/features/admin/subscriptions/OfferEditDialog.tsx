// Edit an offer: every field (only what changed is sent) and the redemptions so far: who paid with it, when, the
// discount on their invoice and the invoice number.
import { useCallback, useState } from 'react';
import { Button, Group, Modal, Stack, Table, Text, Title } from '@mantine/core';
import type { AdminOfferDto, AdminPlanDto } from '@optionpilot/server/contract';
import type { FieldErrors } from '../../../lib/fieldErrors';
import { formatInr, formatIstDateTime } from '../../../lib/format';
import { toastSuccess } from '../../../lib/toast';
import { useSubmit } from '../../../lib/useSubmit';
import { useApiData } from '../../dashboard/useApiData';
import { TableState } from '../shared/TableState';
import { UserCell } from '../shared/UserCell';
import { OfferFields } from './OfferFields';
import { buildOfferPatch, offerFormOf, type OfferFormField, type OfferFormValues } from './offerForm';
import { subscriptionsApi } from './subscriptionsApi';

export function OfferEditDialog({
  offer,
  plans,
  onClose,
}: {
  offer: AdminOfferDto;
  plans: readonly AdminPlanDto[];
  onClose: (changed: boolean) => void;
}) {
  const [form, setForm] = useState<OfferFormValues>(() => offerFormOf(offer));
  const [errors, setErrors] = useState<FieldErrors<OfferFormField>>({});
  const { busy, run } = useSubmit({ title: 'Error', message: 'Failed to save the offer' });
  const load = useCallback(() => subscriptionsApi.redemptions(offer.id), [offer.id]);
  const redemptions = useApiData(load);
  const items = redemptions.data?.items ?? [];

  const save = () => {
    const built = buildOfferPatch(offer, form);
    if (built === null) {
      onClose(false);
      return;
    }
    if (!built.ok) {
      setErrors(built.errors);
      return;
    }
    setErrors({});
    void run(async () => {
      const answer = await subscriptionsApi.updateOffer(offer.id, built.body);
      toastSuccess('Offer updated', answer.offer.code ?? answer.offer.name);
      onClose(true);
    });
  };

  return (
    <Modal opened onClose={() => onClose(false)} title={`Edit offer ${offer.code ?? offer.name}`} size="xl">
      <Stack gap="md">
        <OfferFields
          form={form}
          onChange={(patch) => setForm((f) => ({ ...f, ...patch }))}
          errors={errors}
          plans={plans}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={() => onClose(false)}>
            Cancel
          </Button>
          <Button onClick={save} disabled={busy}>
            Save offer
          </Button>
        </Group>
        <Title order={5}>
          Redemptions: {offer.usedCount} of {offer.maxUsers ?? 'no limit'}
        </Title>
        <TableState
          loading={redemptions.loading}
          error={redemptions.error}
          empty={items.length === 0}
          emptyText="Nobody has redeemed this offer yet."
        />
        {items.length > 0 && (
          <Table aria-label="Redemptions">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Paid</Table.Th>
                <Table.Th>Trader</Table.Th>
                <Table.Th>Discount</Table.Th>
                <Table.Th>Paid (incl. GST)</Table.Th>
                <Table.Th>Invoice</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((r) => (
                <Table.Tr key={r.paymentId}>
                  <Table.Td>{formatIstDateTime(r.paidAt)}</Table.Td>
                  <Table.Td>
                    <UserCell user={r.user} />
                  </Table.Td>
                  <Table.Td>{formatInr(r.discountPaise)}</Table.Td>
                  <Table.Td>{formatInr(r.amountPaise)}</Table.Td>
                  <Table.Td>{r.invoiceNumber ?? '—'}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        {redemptions.data && redemptions.data.total > items.length && (
          <Text size="sm" c="dimmed">
            The newest {items.length} of {redemptions.data.total} are shown.
          </Text>
        )}
      </Stack>
    </Modal>
  );
}
