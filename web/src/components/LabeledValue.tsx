import { Text } from '@mantine/core';

/** A small dimmed label over a bold value: one figure in a grid of figures (market stats, strategy parameters). */
export function LabeledValue({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={600}>{value}</Text>
    </div>
  );
}
