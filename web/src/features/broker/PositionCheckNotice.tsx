// Issue 10 item 6: after a start or a reconnect the server reconciles a live trader's positions with their broker
// (the broker wins). When they differed, the dashboard says what differed and what OptionPilot did about it.
import { Alert, List, Text } from '@mantine/core';
import { formatIstDateTime } from '../../lib/format';
import { positionCheckLines } from './brokerText';
import { useBrokerConnection } from './useBrokerConnection';
import { useBrokerOffers } from './useBrokerOffers';

export function PositionCheckNotice({ now = () => Date.now() }: { now?: () => number }) {
  const connection = useBrokerConnection();
  const offers = useBrokerOffers().data;
  const brokerType = connection?.brokerType;
  const label = offers?.brokers.find((b) => b.type === brokerType)?.label ?? brokerType ?? 'your broker';
  const lines = positionCheckLines(connection, label, now());
  const checkedAt = connection?.positionCheck?.checkedAt;
  if (lines.length === 0 || checkedAt === undefined) return null;
  return (
    <Alert
      color="yellow"
      variant="light"
      title={`Positions at ${label} differ from OptionPilot's`}
      role="status"
    >
      <Text size="sm" mb="xs">
        Checked {formatIstDateTime(checkedAt)}. Your broker&apos;s positions are the truth: OptionPilot
        changed its own records to match and never trades what it did not open.
      </Text>
      <List size="sm">
        {lines.map((line) => (
          <List.Item key={line}>{line}</List.Item>
        ))}
      </List>
    </Alert>
  );
}
