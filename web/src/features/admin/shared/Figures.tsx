// A row of summary figures (totals computed on the server), each a small card named by its label.
import { Card, SimpleGrid, Text } from '@mantine/core';

export interface Figure {
  label: string;
  value: string;
  /** a line under the value (e.g. what a total is made of) */
  note?: string;
}

export function Figures({ figures }: { figures: readonly Figure[] }) {
  return (
    <SimpleGrid cols={{ base: 2, md: figures.length }}>
      {figures.map((f) => (
        <Card key={f.label} withBorder padding="sm" component="section" aria-label={f.label}>
          <Text size="xs" c="dimmed" fw={500}>
            {f.label}
          </Text>
          <Text size="lg" fw={700} aria-label={`${f.label} value`}>
            {f.value}
          </Text>
          {f.note && (
            <Text size="xs" c="dimmed">
              {f.note}
            </Text>
          )}
        </Card>
      ))}
    </SimpleGrid>
  );
}
