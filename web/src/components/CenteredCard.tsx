import type { ReactNode } from 'react';
import { Box, Center, Paper, Stack, Text, Title } from '@mantine/core';
import { BrandMark } from './BrandMark';

export interface CenteredCardProps {
  title: string;
  description?: ReactNode;
  children: ReactNode;
  width?: number;
}

/** The frame of the stand-alone visitor screens (admin sign-in, setup, password reset). */
export function CenteredCard({ title, description, children, width = 440 }: CenteredCardProps) {
  return (
    <Center mih="100vh" p="md" bg="var(--mantine-color-gray-light)">
      <Box w="100%" maw={width}>
        <Center mb="lg">
          <BrandMark />
        </Center>
        <Paper withBorder shadow="sm" p="xl" radius="md">
          <Stack gap="md">
            <div>
              <Title order={2} size="h3">
                {title}
              </Title>
              {description && (
                <Text c="dimmed" size="sm" mt={4}>
                  {description}
                </Text>
              )}
            </div>
            {children}
          </Stack>
        </Paper>
      </Box>
    </Center>
  );
}
