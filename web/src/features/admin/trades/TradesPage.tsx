// /admin/trades (spec §2): search by instrument, e-mail or name; status, type and date filters; totals over every
// matching trade computed on the server; one page of rows at a time. Each trade shows the option symbol and P&L the
// trader sees: an open trade's mark follows the admin live feed (admin:trades) while the page is open.
import { Badge, Group, Table, Text } from '@mantine/core';
import type { AdminTradeDto, AdminTradesResponse } from '@optionpilot/server/contract';
import { formatIstDateTime } from '../../../lib/format';
import { formatPnl, formatPnlParts, formatPremium } from '../../dashboard/display';
import { TradePnl } from '../../dashboard/TradesTable';
import { useAdminLiveStore } from '../live/adminLiveStore';
import { useAdminLive } from '../live/useAdminLive';
import { AdminPage } from '../shared/AdminPage';
import { Figures } from '../shared/Figures';
import { FilterSelect, SearchField } from '../shared/ListControls';
import { Pager } from '../shared/Pager';
import { useAdminQuery } from '../shared/query';
import { TableState } from '../shared/TableState';
import { UserCell } from '../shared/UserCell';
import { MARKET_TIME, MarketClockNote } from '../shared/ClockNote';
import { useListFilters } from '../shared/useListFilters';

export const TRADES_PAGE_SIZE = 25;

const STATUS_OPTIONS = [
  { value: 'all', label: 'All statuses' },
  { value: 'open', label: 'Open' },
  { value: 'closed', label: 'Closed' },
  { value: 'cancelled', label: 'Cancelled' },
];
const TYPE_OPTIONS = [
  { value: 'all', label: 'All types' },
  { value: 'CALL', label: 'CALL' },
  { value: 'PUT', label: 'PUT' },
];
const PERIOD_OPTIONS = [
  { value: 'all', label: 'Any date' },
  { value: 'today', label: 'Today' },
  { value: 'week', label: 'Last 7 days' },
  { value: 'month', label: 'This month' },
];

/** The row as last pushed by the live feed while it is open (a newer mark), else as the page read it. */
function withLiveMark(row: AdminTradeDto, live: readonly AdminTradeDto[]): AdminTradeDto {
  if (row.status !== 'open') return row;
  return live.find((t) => t.id === row.id) ?? row;
}

export function TradesPage() {
  useAdminLive();
  const live = useAdminLiveStore((st) => st.activeTrades);
  const list = useListFilters({ status: 'all', type: 'all', period: 'all' });
  const { data, loading, error } = useAdminQuery<AdminTradesResponse>('/api/admin/trades', {
    ...list.params,
    pageSize: TRADES_PAGE_SIZE,
  });
  const rows = (data?.items ?? []).map((row) => withLiveMark(row, live));
  const s = data?.summary;

  return (
    <AdminPage title="Trades">
      <Figures
        figures={[
          { label: 'Total Trades', value: s ? s.total.toLocaleString('en-IN') : '—' },
          { label: 'Win Rate', value: s ? `${s.winRate.toFixed(1)}%` : '—' },
          {
            label: 'Total P&L',
            value: s ? formatPnl(s.totalPnl) : '—',
            ...(s ? { note: formatPnlParts(s.realisedPnl, s.openPnl, s.openTrades) } : {}),
          },
          { label: 'Open Trades', value: s ? s.openTrades.toLocaleString('en-IN') : '—' },
        ]}
      />
      <Group align="flex-end">
        <SearchField placeholder="Instrument, e-mail or name" value={list.search} onChange={list.setSearch} />
        <FilterSelect
          label="Status"
          data={STATUS_OPTIONS}
          value={list.filters.status}
          onChange={(v) => list.setFilter('status', v)}
        />
        <FilterSelect
          label="Type"
          data={TYPE_OPTIONS}
          value={list.filters.type}
          onChange={(v) => list.setFilter('type', v)}
        />
        <FilterSelect
          label="Market date"
          data={PERIOD_OPTIONS}
          value={list.filters.period}
          onChange={(v) => list.setFilter('period', v)}
        />
      </Group>
      <TableState loading={loading} error={error} empty={rows.length === 0} emptyText="No trades match." />
      {rows.length > 0 && (
        <Table.ScrollContainer minWidth={1000}>
          <MarketClockNote />
          <Table striped aria-label="Trades">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{MARKET_TIME}</Table.Th>
                <Table.Th>User</Table.Th>
                <Table.Th>Instrument</Table.Th>
                <Table.Th>Type</Table.Th>
                <Table.Th>Qty</Table.Th>
                <Table.Th>Entry</Table.Th>
                <Table.Th>Exit</Table.Th>
                <Table.Th>P&amp;L</Table.Th>
                <Table.Th>Status</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((t) => (
                <Table.Tr key={t.id}>
                  <Table.Td>{formatIstDateTime(t.timestamp)}</Table.Td>
                  <Table.Td>
                    <UserCell user={t.user} />
                  </Table.Td>
                  <Table.Td>
                    <Text span size="sm" ff="monospace">
                      {t.symbol}
                    </Text>
                    {t.paper && (
                      <Badge ml={6} size="xs" color="gray">
                        paper
                      </Badge>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Badge variant="light" color={t.tradeType === 'CALL' ? 'green' : 'red'}>
                      {t.tradeType}
                    </Badge>
                  </Table.Td>
                  <Table.Td>{t.quantity}</Table.Td>
                  <Table.Td>{formatPremium(t.entryPrice)}</Table.Td>
                  <Table.Td>{t.exitPrice === null ? 'Open' : formatPremium(t.exitPrice)}</Table.Td>
                  <Table.Td>
                    <TradePnl trade={t} />
                  </Table.Td>
                  <Table.Td>{t.status}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Pager info={data} onPage={list.setPage} />
    </AdminPage>
  );
}
