import { Group, Text, ThemeIcon, UnstyledButton, type MantineBreakpoint } from '@mantine/core';
import { IconChartLine } from '@tabler/icons-react';
import { Link } from 'react-router-dom';

/** The product name with its icon, linking home; with `compactBelow`, only the icon below that breakpoint. */
export function BrandMark({ compactBelow }: { compactBelow?: MantineBreakpoint } = {}) {
  return (
    <UnstyledButton component={Link} to="/" aria-label="OptionPilot home">
      <Group gap={8} wrap="nowrap">
        <ThemeIcon size="md" radius="md" variant="filled">
          <IconChartLine size={18} />
        </ThemeIcon>
        <Text fw={800} size="lg" visibleFrom={compactBelow}>
          OptionPilot
        </Text>
      </Group>
    </UnstyledButton>
  );
}
