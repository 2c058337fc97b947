import { Paper, Text } from '@mantine/core';

/** One fact of the landing page's stat rows (hero and about): a large blue figure over a dimmed caption. */
export interface LandingStat {
  readonly value: string;
  readonly label: string;
}

/** A bordered card for one {@link LandingStat}; `valueSize` is the figure's font size in px. */
export function StatCard({ stat, valueSize }: { stat: LandingStat; valueSize: number }) {
  return (
    <Paper withBorder radius="md" p="md" ta="center">
      <Text fz={valueSize} fw={800} c="blue">
        {stat.value}
      </Text>
      <Text size="sm" c="dimmed">
        {stat.label}
      </Text>
    </Paper>
  );
}
