// The Overview's live tabs (spec §2): Trades (active trades), Signals and Logs, fed by the admin live store.
import { Badge, Table, Text } from '@mantine/core';
import { formatIstDateTime } from '../../../lib/format';
import { formatPoints, formatPremium } from '../../dashboard/display';
import { TradePnl } from '../../dashboard/TradesTable';
import { useAdminLiveStore } from '../live/adminLiveStore';
import { MARKET_TIME, MarketClockNote, SERVER_TIME } from '../shared/ClockNote';

function Empty({ children }: { children: string }) {
  return (
    <Text c="dimmed" size="sm">
      {children}
    </Text>
  );
}

function TypeBadge({ type }: { type: 'CALL' | 'PUT' }) {
  return (
    <Badge variant="light" color={type === 'CALL' ? 'green' : 'red'}>
      {type}
    </Badge>
  );
}

export function ActiveTradesTable() {
  const trades = useAdminLiveStore((s) => s.activeTrades);
  if (trades.length === 0) return <Empty>No active trades.</Empty>;
  return (
    <Table.ScrollContainer minWidth={800}>
      <Table striped aria-label="Active trades">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>User</Table.Th>
            <Table.Th>Type</Table.Th>
            <Table.Th>Instrument</Table.Th>
            <Table.Th>Entry</Table.Th>
            <Table.Th>Stop Loss</Table.Th>
            <Table.Th>Target</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>P&amp;L</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {trades.map((t) => (
            <Table.Tr key={t.id}>
              <Table.Td>
                <Text size="sm">
                  {t.user.firstName} {t.user.lastName}
                </Text>
                <Text size="xs" c="dimmed">
                  #{t.userId} · {t.user.email}
                </Text>
              </Table.Td>
              <Table.Td>
                <TypeBadge type={t.tradeType} />
              </Table.Td>
              <Table.Td>
                <Text size="sm" ff="monospace">
                  {t.symbol}
                </Text>
              </Table.Td>
              <Table.Td>{formatPremium(t.entryPrice)}</Table.Td>
              <Table.Td>{formatPremium(t.stopLoss)}</Table.Td>
              <Table.Td>{formatPremium(t.target)}</Table.Td>
              <Table.Td>{t.status}</Table.Td>
              <Table.Td>
                {/* the engine's mark at the last quote, pushed with every move (admin:trades) */}
                <TradePnl trade={t} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

export function SignalsTable() {
  const signals = useAdminLiveStore((s) => s.signals);
  if (signals.length === 0) return <Empty>No signals yet.</Empty>;
  return (
    <Table.ScrollContainer minWidth={700}>
      <MarketClockNote />
      <Table striped aria-label="Signals">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{MARKET_TIME}</Table.Th>
            <Table.Th>Type</Table.Th>
            <Table.Th>Condition</Table.Th>
            <Table.Th>Entry Trigger</Table.Th>
            <Table.Th>NIFTY Price</Table.Th>
            <Table.Th>Executed</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {signals.map((s) => (
            <Table.Tr key={s.id}>
              <Table.Td>{formatIstDateTime(s.timestamp)}</Table.Td>
              <Table.Td>
                <TypeBadge type={s.type} />
              </Table.Td>
              <Table.Td>{s.conditionMet}</Table.Td>
              <Table.Td>{formatPoints(s.entryTrigger)}</Table.Td>
              <Table.Td>{formatPoints(s.niftyPrice)}</Table.Td>
              <Table.Td>
                <Badge variant="light" color={s.executed ? 'green' : 'gray'}>
                  {s.executed ? 'Yes' : 'No'}
                </Badge>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

const EVENT_COLOR: Record<string, string> = { error: 'red', trade: 'blue' };

export function LogsTable() {
  const logs = useAdminLiveStore((s) => s.logs);
  if (logs.length === 0) return <Empty>No log entries yet.</Empty>;
  return (
    <Table.ScrollContainer minWidth={700}>
      <MarketClockNote />
      <Table striped aria-label="Logs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{SERVER_TIME}</Table.Th>
            <Table.Th>Event</Table.Th>
            <Table.Th>Description</Table.Th>
            <Table.Th>User</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {logs.map((l) => (
            <Table.Tr key={l.id}>
              <Table.Td>{formatIstDateTime(l.timestamp)}</Table.Td>
              <Table.Td>
                <Badge variant="light" color={EVENT_COLOR[l.eventType] ?? 'gray'}>
                  {l.eventType}
                </Badge>
              </Table.Td>
              <Table.Td>{l.description}</Table.Td>
              <Table.Td>{l.userId === null ? '—' : `#${l.userId}`}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
