// The two trade tables of the dashboard: Recent Trades (first 10, spec §2) and the Trades tab's full history. On a
// phone (narrower than Mantine's `sm`, 48em) each trade is a stacked card instead of a table row, so its side and
// P&L stay on screen and no word is cut.
import { Badge, Group, Paper, Stack, Table, Text, useMantineTheme } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { ReactNode } from 'react';
import type { TradeDto } from '@optionpilot/server/contract';
import { formatIstDateTime, formatIstTime } from '../../lib/format';
import { noTradesMessage } from '../session/sessionText';
import { useMarketSession } from '../session/useMarketSession';
import { formatPnl, formatPremium, pnlColor } from './display';

/** Spec §9: the dashboard lists the first 10 trades. */
export const RECENT_TRADES = 10;

/** The empty list's line, by the state of the session now (open, entries over for the day, closed). */
export function NoTradesText(props: { ta?: 'center'; py?: 'lg' }) {
  const session = useMarketSession();
  return (
    <Text c="dimmed" size="sm" {...props}>
      {noTradesMessage(session)}
    </Text>
  );
}

/** A trade's P&L: realised when closed, the live mark while open ("Running" before the first quote). Admin views show
 * it the same way. */
export function TradePnl({ trade }: { trade: TradeDto }) {
  if (trade.pnl === null && trade.status === 'open' && trade.markPnl !== null) {
    // An open trade's P&L at the last option quote, before charges: it moves with the market.
    return (
      <Text
        size="sm"
        c={pnlColor(trade.markPnl)}
        fw={600}
        title="Open: marked to the last quote, before charges"
        style={{ whiteSpace: 'nowrap' }}
      >
        {formatPnl(trade.markPnl)}{' '}
        <Text span size="xs" c="dimmed" fw={400}>
          live
        </Text>
      </Text>
    );
  }
  if (trade.pnl === null) {
    return <Text size="sm">{trade.status === 'cancelled' ? '—' : 'Running'}</Text>;
  }
  return (
    <Text size="sm" c={pnlColor(trade.pnl)} fw={600} style={{ whiteSpace: 'nowrap' }}>
      {formatPnl(trade.pnl)}
    </Text>
  );
}

function TypeBadge({ trade }: { trade: TradeDto }) {
  return (
    // Never truncated: "CALL" must not become "CA…" in a narrow column.
    <Badge variant="light" color={trade.tradeType === 'CALL' ? 'green' : 'red'} style={{ flexShrink: 0 }}>
      {trade.tradeType}
    </Badge>
  );
}

/** Whether the viewport is narrower than the theme's `sm` breakpoint (read at first render, then followed). */
export function usePhoneLayout(): boolean {
  const theme = useMantineTheme();
  return !useMediaQuery(`(min-width: ${theme.breakpoints.sm})`, true, { getInitialValueInEffect: false });
}

/** One trade as a stacked card: side, time and P&L on the first line, prices (and symbol, status) below. */
function TradeCard({ trade, when, details }: { trade: TradeDto; when: string; details?: boolean }) {
  const exit = trade.exitPrice === null ? 'Open' : formatPremium(trade.exitPrice);
  return (
    <Paper component="li" withBorder p="xs" aria-label={`${trade.tradeType} trade at ${when}`}>
      <Group justify="space-between" wrap="nowrap" gap="xs">
        <Group gap="xs" wrap="nowrap" miw={0}>
          <TypeBadge trade={trade} />
          <Text size="sm">{when}</Text>
        </Group>
        <TradePnl trade={trade} />
      </Group>
      <Text size="sm" c="dimmed" mt={4}>
        Entry {formatPremium(trade.entryPrice)} · Exit {exit}
      </Text>
      {details && (
        <Group gap="xs" mt={4}>
          <Text size="sm" ff="monospace" style={{ wordBreak: 'break-all' }}>
            {trade.symbol}
          </Text>
          <Badge variant="dot" color={STATUS_COLOR[trade.status]}>
            {trade.status}
          </Badge>
          {trade.paper && (
            <Text size="xs" c="dimmed">
              paper
            </Text>
          )}
        </Group>
      )}
    </Paper>
  );
}

function TradeCards({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: 'none' }} aria-label={label}>
      {children}
    </Stack>
  );
}

/** The columns both tables show, in this order, between their own first and last columns. */
function TradeHeaderCells() {
  return (
    <>
      <Table.Th>Type</Table.Th>
      <Table.Th>Entry</Table.Th>
      <Table.Th>Exit</Table.Th>
      <Table.Th>P&amp;L</Table.Th>
    </>
  );
}

function TradeCells({ trade }: { trade: TradeDto }) {
  return (
    <>
      <Table.Td>
        <TypeBadge trade={trade} />
      </Table.Td>
      <Table.Td>{formatPremium(trade.entryPrice)}</Table.Td>
      <Table.Td>{trade.exitPrice === null ? 'Open' : formatPremium(trade.exitPrice)}</Table.Td>
      <Table.Td>
        <TradePnl trade={trade} />
      </Table.Td>
    </>
  );
}

const STATUS_COLOR: Record<TradeDto['status'], string> = {
  open: 'blue',
  closed: 'gray',
  cancelled: 'orange',
};

export function RecentTradesTable({ trades }: { trades: readonly TradeDto[] }) {
  const phone = usePhoneLayout();
  const rows = trades.slice(0, RECENT_TRADES);
  if (rows.length === 0) {
    return <NoTradesText />;
  }
  if (phone) {
    return (
      <TradeCards label="Recent trades">
        {rows.map((t) => (
          <TradeCard key={t.id} trade={t} when={formatIstTime(t.timestamp)} />
        ))}
      </TradeCards>
    );
  }
  return (
    <Table.ScrollContainer minWidth={420}>
      <Table striped aria-label="Recent trades">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Time</Table.Th>
            <TradeHeaderCells />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((t) => (
            <Table.Tr key={t.id}>
              <Table.Td>{formatIstTime(t.timestamp)}</Table.Td>
              <TradeCells trade={t} />
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

export function TradeHistoryTable({ trades }: { trades: readonly TradeDto[] }) {
  const phone = usePhoneLayout();
  if (phone) {
    return (
      <TradeCards label="Trading history">
        {trades.map((t) => (
          <TradeCard key={t.id} trade={t} when={formatIstDateTime(t.timestamp)} details />
        ))}
      </TradeCards>
    );
  }
  return (
    <Table.ScrollContainer minWidth={720}>
      <Table striped highlightOnHover aria-label="Trading history">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Symbol</Table.Th>
            <TradeHeaderCells />
            <Table.Th>Status</Table.Th>
            <Table.Th>Date</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {trades.map((t) => (
            <Table.Tr key={t.id}>
              <Table.Td>
                <Text size="sm" ff="monospace">
                  {t.symbol}
                </Text>
                {t.paper && (
                  <Text size="xs" c="dimmed">
                    paper
                  </Text>
                )}
              </Table.Td>
              <TradeCells trade={t} />
              <Table.Td>
                <Badge variant="dot" color={STATUS_COLOR[t.status]}>
                  {t.status}
                </Badge>
              </Table.Td>
              <Table.Td>{formatIstDateTime(t.timestamp)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
