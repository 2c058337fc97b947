// Offers (spec §3, issue 18): a code buyers type at checkout, a percentage or a fixed discount, a validity window
// in IST days and an optional redemption cap (defaults 10 %, 30 days, 50 redemptions). The redeemed count is the
// server's: a use is counted when a payment that used the offer is verified. Edit opens every field and the list of
// redemptions.
import { useState, type FormEvent } from 'react';
import { Button, Card, Group, Stack, Switch, Table, Title } from '@mantine/core';
import type { AdminOfferDto } from '@optionpilot/server/contract';
import type { FieldErrors } from '../../../lib/fieldErrors';
import { formatInr, formatIstDate } from '../../../lib/format';
import { toastSuccess } from '../../../lib/toast';
import { useSubmit } from '../../../lib/useSubmit';
import { useApiData } from '../../dashboard/useApiData';
import { TableState } from '../shared/TableState';
import { OfferEditDialog } from './OfferEditDialog';
import { OfferFields } from './OfferFields';
import { buildNewOffer, newOfferForm, type OfferFormField, type OfferFormValues } from './offerForm';
import { subscriptionsApi } from './subscriptionsApi';

/** "10%" or "₹500.00" */
export function discountText(offer: AdminOfferDto): string {
  return offer.discountAmountPaise !== null
    ? formatInr(offer.discountAmountPaise)
    : `${offer.discountPercent ?? 0}%`;
}

/** "1 Nov 2026 – 30 Nov 2026" in IST days; the end shown is the last day the offer applies. */
export function validityText(offer: AdminOfferDto): string {
  const from = offer.validFrom ? formatIstDate(offer.validFrom) : 'Now';
  const until = offer.validTill ? formatIstDate(Date.parse(offer.validTill) - 1) : 'no end';
  return `${from} – ${until}`;
}

export function OffersCard({ now = () => Date.now() }: { now?: () => number }) {
  const { data, loading, error, reload } = useApiData(subscriptionsApi.offers);
  const plans = useApiData(subscriptionsApi.plans);
  const [form, setForm] = useState<OfferFormValues>(() => newOfferForm(now()));
  const [errors, setErrors] = useState<FieldErrors<OfferFormField>>({});
  const [editing, setEditing] = useState<AdminOfferDto | null>(null);
  const { busy, run } = useSubmit({ title: 'Error', message: 'Failed to save the offer' });
  const rows = data ?? [];

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const built = buildNewOffer(form);
    if (!built.ok) {
      setErrors(built.errors);
      return;
    }
    setErrors({});
    void run(async () => {
      const { offer } = await subscriptionsApi.createOffer(built.body);
      toastSuccess('Offer created', `${offer.code ?? offer.name}: ${discountText(offer)} off`);
      setForm(newOfferForm(now()));
      reload();
    });
  };

  return (
    <Card withBorder padding="lg" component="section" aria-label="Offers">
      <Title order={4} mb="sm">
        Offers
      </Title>
      <form onSubmit={submit} aria-label="New offer" noValidate>
        <Stack gap="sm" mb="md">
          <OfferFields
            form={form}
            onChange={(patch) => setForm((f) => ({ ...f, ...patch }))}
            errors={errors}
            plans={plans.data ?? []}
          />
          <Group>
            <Button type="submit" disabled={busy}>
              Add offer
            </Button>
          </Group>
        </Stack>
      </form>
      <TableState loading={loading} error={error} empty={rows.length === 0} emptyText="No offers yet." />
      {rows.length > 0 && (
        <Table.ScrollContainer minWidth={760}>
          <Table aria-label="Offers table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Code</Table.Th>
                <Table.Th>Discount</Table.Th>
                <Table.Th>Valid (IST)</Table.Th>
                <Table.Th>Redeemed / max</Table.Th>
                <Table.Th>Active</Table.Th>
                <Table.Th>Actions</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((o) => (
                <Table.Tr key={o.id}>
                  <Table.Td>{o.name}</Table.Td>
                  <Table.Td>{o.code ?? '—'}</Table.Td>
                  <Table.Td>{discountText(o)}</Table.Td>
                  <Table.Td>{validityText(o)}</Table.Td>
                  <Table.Td>
                    {o.usedCount} / {o.maxUsers ?? '∞'}
                  </Table.Td>
                  <Table.Td>
                    <Switch
                      aria-label={`${o.name} active`}
                      checked={o.active}
                      disabled={busy}
                      onChange={(e) => {
                        const active = e.currentTarget.checked;
                        void run(async () => {
                          await subscriptionsApi.setOfferActive(o.id, active);
                          reload();
                        });
                      }}
                    />
                  </Table.Td>
                  <Table.Td>
                    <Button size="xs" variant="default" onClick={() => setEditing(o)}>
                      Edit {o.code ?? o.name}
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {editing && (
        <OfferEditDialog
          offer={editing}
          plans={plans.data ?? []}
          onClose={(changed) => {
            setEditing(null);
            if (changed) reload();
          }}
        />
      )}
    </Card>
  );
}
