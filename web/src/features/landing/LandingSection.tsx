import type { ReactNode } from 'react';
import { Box, Container, Stack, Text, Title } from '@mantine/core';
import { NAV_HEIGHT } from './LandingNav';
import type { SectionId } from './sections';

interface LandingSectionProps {
  id: SectionId;
  title: string;
  subtitle?: string;
  children: ReactNode;
  /** Alternating backgrounds make section boundaries visible without borders. */
  tinted?: boolean;
}

/** One titled, full-width landing section that nav buttons can scroll to by id. */
export function LandingSection({ id, title, subtitle, children, tinted = false }: LandingSectionProps) {
  const headingId = `${id}-heading`;
  return (
    <Box
      component="section"
      id={id}
      aria-labelledby={headingId}
      py={64}
      bg={tinted ? 'var(--mantine-color-gray-light)' : undefined}
      style={{ scrollMarginTop: NAV_HEIGHT }}
    >
      <Container size="lg">
        <Stack gap="xs" align="center" mb="xl" ta="center">
          <Title order={2} id={headingId}>
            {title}
          </Title>
          {subtitle && (
            <Text c="dimmed" maw={640}>
              {subtitle}
            </Text>
          )}
        </Stack>
        {children}
      </Container>
    </Box>
  );
}
