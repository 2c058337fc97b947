// Payment-request review (spec §2 Payments): one server page of requests, filtered by status; only pending requests
// offer Review.
import { useState } from 'react';
import { Badge, Button, Card, Group, Table, Text, Title } from '@mantine/core';
import type { PageDto, PaymentRequestDto } from '@optionpilot/server/contract';
import { formatInr, formatIstDateTime } from '../../../lib/format';
import { FilterSelect, SearchField } from '../shared/ListControls';
import { Pager } from '../shared/Pager';
import { useAdminQuery } from '../shared/query';
import { TableState } from '../shared/TableState';
import { UserCell } from '../shared/UserCell';
import { useListFilters } from '../shared/useListFilters';
import { ReviewDialog, type ReviewTarget } from './ReviewDialog';

export const REQUESTS_PAGE_SIZE = 20;

const STATUS_OPTIONS = [
  { value: 'all', label: 'All' },
  { value: 'pending', label: 'Pending' },
  { value: 'approved', label: 'Approved' },
  { value: 'rejected', label: 'Rejected' },
];

export const REQUEST_STATUS_COLOR: Record<PaymentRequestDto['status'], string> = {
  pending: 'yellow',
  approved: 'green',
  rejected: 'red',
};

export function reviewTargetOf(r: PaymentRequestDto): ReviewTarget {
  return {
    id: r.id,
    name: `${r.user.firstName} ${r.user.lastName}`,
    email: r.user.email,
    amountPaise: r.amountPaise,
    utrNumber: r.utrNumber,
    createdAt: r.createdAt,
    paymentScreenshot: r.paymentScreenshot,
  };
}

export function PaymentRequestsCard() {
  const list = useListFilters({ status: 'pending' });
  const { data, loading, error, reload } = useAdminQuery<PageDto<PaymentRequestDto>>(
    '/api/admin/payment-requests',
    { ...list.params, pageSize: REQUESTS_PAGE_SIZE },
  );
  const [reviewing, setReviewing] = useState<PaymentRequestDto | null>(null);
  const rows = data?.items ?? [];

  return (
    <Card withBorder padding="lg" component="section" aria-label="Payment Requests">
      <Title order={4} mb="sm">
        Payment Requests
      </Title>
      <Group align="flex-end" mb="sm">
        <SearchField placeholder="E-mail or name" value={list.search} onChange={list.setSearch} />
        <FilterSelect
          label="Status"
          data={STATUS_OPTIONS}
          value={list.filters.status}
          onChange={(v) => list.setFilter('status', v)}
        />
      </Group>
      <TableState
        loading={loading}
        error={error}
        empty={rows.length === 0}
        emptyText="No payment requests."
      />
      {rows.length > 0 && (
        <Table.ScrollContainer minWidth={800}>
          <Table striped aria-label="Payment requests">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Submitted</Table.Th>
                <Table.Th>User</Table.Th>
                <Table.Th>Amount</Table.Th>
                <Table.Th>UTR</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Notes</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((r) => (
                <Table.Tr key={r.id}>
                  <Table.Td>{formatIstDateTime(r.createdAt)}</Table.Td>
                  <Table.Td>
                    <UserCell user={r.user} />
                  </Table.Td>
                  <Table.Td>{formatInr(r.amountPaise)}</Table.Td>
                  <Table.Td>{r.utrNumber}</Table.Td>
                  <Table.Td>
                    <Badge variant="light" color={REQUEST_STATUS_COLOR[r.status]}>
                      {r.status}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" lineClamp={2}>
                      {r.adminNotes ?? '—'}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    {r.status === 'pending' && (
                      <Button size="xs" onClick={() => setReviewing(r)}>
                        Review
                      </Button>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Pager info={data} onPage={list.setPage} />
      {reviewing && (
        <ReviewDialog
          target={reviewTargetOf(reviewing)}
          onClose={(changed) => {
            setReviewing(null);
            if (changed) reload();
          }}
        />
      )}
    </Card>
  );
}
