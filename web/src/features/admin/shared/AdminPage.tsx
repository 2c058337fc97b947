// The frame of every /admin/<section> page: admin side menu, page title and heading.
import type { ReactNode } from 'react';
import { Group, Stack, Title } from '@mantine/core';
import { usePageTitle } from '../../../lib/usePageTitle';
import { AdminLayout } from '../AdminLayout';

export function AdminPage({
  title,
  actions,
  children,
}: {
  title: string;
  actions?: ReactNode;
  children: ReactNode;
}) {
  usePageTitle(`Admin · ${title}`);
  return (
    <AdminLayout>
      <Stack gap="md" maw={1200} mx="auto">
        <Group justify="space-between">
          <Title order={1} size="h2">
            {title}
          </Title>
          {actions}
        </Group>
        {children}
      </Stack>
    </AdminLayout>
  );
}
