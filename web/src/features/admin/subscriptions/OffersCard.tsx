// Offers (spec §3: discount %, valid till, max users, used count; defaults 10 %, 30 days, 50 users). The used count
// is incremented by the server when a payment uses the offer.
import { useState, type FormEvent } from 'react';
import { Button, Card, Group, NumberInput, Switch, Table, TextInput, Title } from '@mantine/core';
import { offerSchema } from '@optionpilot/server/contract';
import { fieldErrorsOf, type FieldErrors } from '../../../lib/fieldErrors';
import { formatIstDateTime } from '../../../lib/format';
import { toastSuccess } from '../../../lib/toast';
import { useSubmit } from '../../../lib/useSubmit';
import { useApiData } from '../../dashboard/useApiData';
import { fromIstDay, toIstDay } from '../users/userForm';
import { TableState } from '../shared/TableState';
import { subscriptionsApi } from './subscriptionsApi';

const DAY_MS = 86_400_000;
type Field = 'name' | 'discountPercent' | 'validTill' | 'maxUsers';

export function OffersCard({ now = () => Date.now() }: { now?: () => number }) {
  const { data, loading, error, reload } = useApiData(subscriptionsApi.offers);
  const [name, setName] = useState('');
  const [discount, setDiscount] = useState<number | string>(10);
  const [validTill, setValidTill] = useState(() => toIstDay(new Date(now() + 30 * DAY_MS).toISOString()));
  const [maxUsers, setMaxUsers] = useState<number | string>(50);
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const { busy, run } = useSubmit({ title: 'Error', message: 'Failed to save the offer' });
  const rows = data ?? [];

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const body = {
      name,
      discountPercent: typeof discount === 'number' ? discount : Number.NaN,
      validTill: fromIstDay(validTill),
      maxUsers: typeof maxUsers === 'number' ? maxUsers : null,
    };
    const parsed = offerSchema.safeParse(body);
    if (!parsed.success) {
      setErrors(fieldErrorsOf(parsed.error, ['name', 'discountPercent', 'validTill', 'maxUsers'] as const));
      return;
    }
    setErrors({});
    void run(async () => {
      await subscriptionsApi.createOffer(body);
      toastSuccess('Offer created', `${name} (${body.discountPercent}% off)`);
      setName('');
      reload();
    });
  };

  return (
    <Card withBorder padding="lg" component="section" aria-label="Offers">
      <Title order={4} mb="sm">
        Offers
      </Title>
      <form onSubmit={submit} aria-label="New offer" noValidate>
        <Group align="flex-end" mb="md">
          <TextInput
            label="Offer name"
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={errors.name}
          />
          <NumberInput
            label="Discount %"
            value={discount}
            onChange={setDiscount}
            min={0}
            max={100}
            error={errors.discountPercent}
          />
          <TextInput
            label="Valid till (IST)"
            type="date"
            value={validTill}
            onChange={(e) => setValidTill(e.currentTarget.value)}
            error={errors.validTill}
          />
          <NumberInput
            label="Max users"
            value={maxUsers}
            onChange={setMaxUsers}
            min={1}
            error={errors.maxUsers}
          />
          <Button type="submit" disabled={busy}>
            Add offer
          </Button>
        </Group>
      </form>
      <TableState loading={loading} error={error} empty={rows.length === 0} emptyText="No offers yet." />
      {rows.length > 0 && (
        <Table aria-label="Offers table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Discount</Table.Th>
              <Table.Th>Valid till</Table.Th>
              <Table.Th>Used / max</Table.Th>
              <Table.Th>Active</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((o) => (
              <Table.Tr key={o.id}>
                <Table.Td>{o.name}</Table.Td>
                <Table.Td>{o.discountPercent}%</Table.Td>
                <Table.Td>{o.validTill ? formatIstDateTime(o.validTill) : 'No end'}</Table.Td>
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
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Card>
  );
}
