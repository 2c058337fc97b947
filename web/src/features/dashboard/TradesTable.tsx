// The two trade tables of the dashboard: Recent Trades (first 10, spec §2) and the Trades tab's full history.
import { Badge, Table, Text } from '@mantine/core';
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

function PnlCell({ trade }: { trade: TradeDto }) {
  if (trade.pnl === null && trade.status === 'open' && trade.markPnl !== null) {
    // An open trade's P&L at the last option quote, before charges: it moves with the market.
    return (
      <Text
        size="sm"
        c={pnlColor(trade.markPnl)}
        fw={600}
        title="Open: marked to the last quote, before charges"
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
    <Text size="sm" c={pnlColor(trade.pnl)} fw={600}>
      {formatPnl(trade.pnl)}
    </Text>
  );
}

function TypeBadge({ trade }: { trade: TradeDto }) {
  return (
    <Badge variant="light" color={trade.tradeType === 'CALL' ? 'green' : 'red'}>
      {trade.tradeType}
    </Badge>
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
        <PnlCell trade={trade} />
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
  const rows = trades.slice(0, RECENT_TRADES);
  if (rows.length === 0) {
    return <NoTradesText />;
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
