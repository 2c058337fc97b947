// Plans (spec §3 defaults: monthly ₹4,999 / 1 month, quarterly ₹12,999 / 3, yearly ₹49,999 / 12; only monthly
// active at first), persisted; switching one on offers it at checkout.
import { Card, Switch, Table, Title } from '@mantine/core';
import { formatInr } from '../../../lib/format';
import { toastSuccess } from '../../../lib/toast';
import { useSubmit } from '../../../lib/useSubmit';
import { useApiData } from '../../dashboard/useApiData';
import { TableState } from '../shared/TableState';
import { subscriptionsApi } from './subscriptionsApi';

export function PlansCard() {
  const { data, loading, error, reload } = useApiData(subscriptionsApi.plans);
  const { busy, run } = useSubmit({ title: 'Error', message: 'Failed to update the plan' });
  const rows = data ?? [];
  return (
    <Card withBorder padding="lg" component="section" aria-label="Plans">
      <Title order={4} mb="sm">
        Plans
      </Title>
      <TableState loading={loading} error={error} empty={rows.length === 0} emptyText="No plans." />
      {rows.length > 0 && (
        <Table aria-label="Plans table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Plan</Table.Th>
              <Table.Th>Months</Table.Th>
              <Table.Th>Price</Table.Th>
              <Table.Th>GST</Table.Th>
              <Table.Th>Total</Table.Th>
              <Table.Th>Active</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((p) => (
              <Table.Tr key={p.code}>
                <Table.Td>{p.name}</Table.Td>
                <Table.Td>{p.months}</Table.Td>
                <Table.Td>{formatInr(p.pricePaise)}</Table.Td>
                <Table.Td>{formatInr(p.gstPaise)}</Table.Td>
                <Table.Td>{formatInr(p.totalPaise)}</Table.Td>
                <Table.Td>
                  <Switch
                    aria-label={`${p.name} active`}
                    checked={p.active}
                    disabled={busy}
                    onChange={(e) => {
                      const active = e.currentTarget.checked;
                      void run(async () => {
                        await subscriptionsApi.setPlanActive(p.code, active);
                        toastSuccess(
                          'Setting updated successfully',
                          `${p.name} is ${active ? 'on sale' : 'off sale'}.`,
                        );
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
