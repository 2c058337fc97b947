// /admin/strategies (spec §2): the persisted strategy list with add and edit.
import { useState } from 'react';
import { Badge, Button, Table } from '@mantine/core';
import type { AdminStrategyDto } from '@optionpilot/server/contract';
import { useApiData } from '../../dashboard/useApiData';
import { AdminPage } from '../shared/AdminPage';
import { TableState } from '../shared/TableState';
import { strategiesApi } from './strategiesApi';
import { StrategyForm } from './StrategyForm';

export function StrategiesPage() {
  const { data, loading, error, reload } = useApiData(strategiesApi.list);
  const [editing, setEditing] = useState<AdminStrategyDto | 'new' | null>(null);
  const rows = data ?? [];
  return (
    <AdminPage title="Strategies" actions={<Button onClick={() => setEditing('new')}>Add strategy</Button>}>
      <TableState loading={loading} error={error} empty={rows.length === 0} emptyText="No strategies yet." />
      {rows.length > 0 && (
        <Table.ScrollContainer minWidth={800}>
          <Table striped aria-label="Strategies">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Type</Table.Th>
                <Table.Th>Parameters</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((s) => (
                <Table.Tr key={s.id}>
                  <Table.Td>
                    {s.name}
                    {s.builtIn && (
                      <Badge ml={6} size="xs" color="gray">
                        built in
                      </Badge>
                    )}
                  </Table.Td>
                  <Table.Td>{s.sides}</Table.Td>
                  <Table.Td>
                    {s.parameters.consecutiveCandles} × {s.parameters.interval} min · SL{' '}
                    {s.parameters.stopLoss} · T {s.parameters.target} · {s.parameters.orderType}
                  </Table.Td>
                  <Table.Td>
                    <Badge variant="light" color={s.active ? 'green' : 'gray'}>
                      {s.active ? 'Active' : 'Inactive'}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    <Button size="xs" variant="light" onClick={() => setEditing(s)}>
                      Edit
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {editing && (
        <StrategyForm
          strategy={editing === 'new' ? null : editing}
          onClose={(changed) => {
            setEditing(null);
            if (changed) reload();
          }}
        />
      )}
    </AdminPage>
  );
}
