// /admin/revenue (spec §2): period and status filters, totals of gross received, refunded, net and pending, count
// and average over every matching row (computed on the server, test users left out), and Approve / Reject / View on
// the rows; below, revenue by IST month with GST and the GST register CSV (issue 18).
// Approve and Reject apply to pending UPI/bank requests; gateway payments are already verified. Refund returns all
// or part of a recorded payment and issues its GST credit note.
import { useState } from 'react';
import { Badge, Button, Group, Modal, SimpleGrid, Table, Text } from '@mantine/core';
import type {
  AdminPaymentDto,
  AdminPaymentsResponse,
  RevenueSummaryResponse,
} from '@optionpilot/server/contract';
import { LabeledValue } from '../../../components/LabeledValue';
import { formatInr, formatIstDateTime } from '../../../lib/format';
import { ReviewDialog } from '../payments/ReviewDialog';
import { MonthlyRevenueCard, type MonthRange } from './MonthlyRevenueCard';
import { RefundDialog } from './RefundDialog';
import { AdminPage } from '../shared/AdminPage';
import { Figures } from '../shared/Figures';
import { FilterSelect } from '../shared/ListControls';
import { Pager } from '../shared/Pager';
import { useAdminQuery } from '../shared/query';
import { TableState } from '../shared/TableState';
import { UserCell } from '../shared/UserCell';
import { useListFilters } from '../shared/useListFilters';

export const REVENUE_PAGE_SIZE = 25;

const PERIOD_OPTIONS = [
  { value: 'all', label: 'All time' },
  { value: 'today', label: 'Today' },
  { value: 'week', label: 'Last 7 days' },
  { value: 'month', label: 'This month' },
  { value: 'quarter', label: 'This quarter' },
];
const STATUS_OPTIONS = [
  { value: 'all', label: 'All' },
  { value: 'approved', label: 'Approved' },
  { value: 'pending', label: 'Pending' },
  { value: 'rejected', label: 'Rejected' },
];
const STATUS_COLOR: Record<AdminPaymentDto['status'], string> = {
  approved: 'green',
  pending: 'yellow',
  rejected: 'red',
  refunded: 'gray',
  failed: 'red',
};
const METHOD_LABEL: Record<AdminPaymentDto['method'], string> = {
  upi: 'UPI',
  bank_transfer: 'Bank transfer',
  razorpay: 'Razorpay',
  test: 'Test checkout',
};

type Action = { row: AdminPaymentDto; kind: 'approved' | 'rejected' | 'view' | 'refund' } | null;

function PaymentView({ row, onClose }: { row: AdminPaymentDto; onClose: () => void }) {
  return (
    <Modal opened onClose={onClose} title="Payment" centered>
      <SimpleGrid cols={2}>
        <LabeledValue label="User" value={`${row.user.firstName} ${row.user.lastName}`} />
        <LabeledValue label="Email" value={row.user.email} />
        <LabeledValue label="Amount" value={formatInr(row.amountPaise)} />
        <LabeledValue label="Status" value={row.status} />
        <LabeledValue label="Method" value={METHOD_LABEL[row.method]} />
        <LabeledValue label="UTR number" value={row.utrNumber ?? '—'} />
        <LabeledValue label="Plan" value={row.planCode ?? '—'} />
        <LabeledValue label="Date" value={formatIstDateTime(row.at)} />
        <LabeledValue label="Refunded" value={formatInr(row.refundedPaise)} />
      </SimpleGrid>
    </Modal>
  );
}

export function RevenuePage() {
  const list = useListFilters({ period: 'all', status: 'all' });
  const { data, loading, error, reload } = useAdminQuery<AdminPaymentsResponse>('/api/admin/payments', {
    ...list.params,
    pageSize: REVENUE_PAGE_SIZE,
  });
  const [action, setAction] = useState<Action>(null);
  const [range, setRange] = useState<MonthRange>({ from: '', to: '' });
  const summary = useAdminQuery<RevenueSummaryResponse>('/api/admin/revenue/summary', { ...range });
  const rows = data?.items ?? [];
  const t = data?.totals;
  const reloadAll = () => {
    reload();
    summary.reload();
  };

  return (
    <AdminPage title="Revenue">
      <Figures
        figures={[
          { label: 'Gross', value: t ? formatInr(t.grossPaise) : '—' },
          { label: 'Refunded', value: t ? formatInr(t.refundedPaise) : '—' },
          { label: 'Net', value: t ? formatInr(t.netPaise) : '—' },
          { label: 'Pending', value: t ? formatInr(t.pendingPaise) : '—' },
          { label: 'Payments', value: t ? t.count.toLocaleString('en-IN') : '—' },
          { label: 'Average', value: t ? formatInr(t.averagePaise) : '—' },
        ]}
      />
      <Group>
        <FilterSelect
          label="Period"
          data={PERIOD_OPTIONS}
          value={list.filters.period}
          onChange={(v) => list.setFilter('period', v)}
        />
        <FilterSelect
          label="Status"
          data={STATUS_OPTIONS}
          value={list.filters.status}
          onChange={(v) => list.setFilter('status', v)}
        />
      </Group>
      <TableState loading={loading} error={error} empty={rows.length === 0} emptyText="No payments match." />
      {rows.length > 0 && (
        <Table.ScrollContainer minWidth={900}>
          <Table striped aria-label="Payments">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Date</Table.Th>
                <Table.Th>User</Table.Th>
                <Table.Th>Method</Table.Th>
                <Table.Th>Amount</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Actions</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((row) => (
                <Table.Tr key={row.key}>
                  <Table.Td>{formatIstDateTime(row.at)}</Table.Td>
                  <Table.Td>
                    <UserCell user={row.user} />
                  </Table.Td>
                  <Table.Td>{METHOD_LABEL[row.method]}</Table.Td>
                  <Table.Td>
                    {formatInr(row.amountPaise)}
                    {row.refundedPaise > 0 && (
                      <Text size="xs" c="dimmed">
                        {formatInr(row.refundedPaise)} refunded
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Badge variant="light" color={STATUS_COLOR[row.status]}>
                      {row.status}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4} wrap="nowrap">
                      {row.kind === 'request' && row.status === 'pending' && (
                        <>
                          <Button
                            size="xs"
                            color="green"
                            onClick={() => setAction({ row, kind: 'approved' })}
                          >
                            Approve
                          </Button>
                          <Button
                            size="xs"
                            color="red"
                            variant="light"
                            onClick={() => setAction({ row, kind: 'rejected' })}
                          >
                            Reject
                          </Button>
                        </>
                      )}
                      {row.paymentId !== null &&
                        row.status === 'approved' &&
                        row.refundedPaise < row.amountPaise && (
                          <Button
                            size="xs"
                            color="red"
                            variant="subtle"
                            onClick={() => setAction({ row, kind: 'refund' })}
                          >
                            Refund
                          </Button>
                        )}
                      <Button size="xs" variant="default" onClick={() => setAction({ row, kind: 'view' })}>
                        View
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Pager info={data} onPage={list.setPage} />
      <MonthlyRevenueCard summary={summary} range={range} onRange={setRange} />
      {action?.kind === 'view' && <PaymentView row={action.row} onClose={() => setAction(null)} />}
      {action?.kind === 'refund' && action.row.paymentId !== null && (
        <RefundDialog
          row={{ ...action.row, paymentId: action.row.paymentId }}
          onClose={(changed) => {
            setAction(null);
            if (changed) reloadAll();
          }}
        />
      )}
      {(action?.kind === 'approved' || action?.kind === 'rejected') &&
        action.row.paymentRequestId !== null && (
          <ReviewDialog
            target={{
              id: action.row.paymentRequestId,
              name: `${action.row.user.firstName} ${action.row.user.lastName}`,
              email: action.row.user.email,
              amountPaise: action.row.amountPaise,
              utrNumber: action.row.utrNumber,
              createdAt: action.row.at,
              paymentScreenshot: null,
            }}
            initialStatus={action.kind}
            onClose={(changed) => {
              setAction(null);
              if (changed) reloadAll();
            }}
          />
        )}
    </AdminPage>
  );
}
