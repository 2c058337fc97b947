import { Stack, Text, Title } from '@mantine/core';
import { PlaceholderNotice } from '../../components/PlaceholderNotice';
import { usePageTitle } from '../../lib/usePageTitle';
import { AdminLayout } from './AdminLayout';
import type { AdminSection } from './adminSections';

/** One admin page (`/admin/<section>`). Placeholder until its feature lands. */
export function AdminSectionPage({ section }: { section: AdminSection }) {
  usePageTitle(`Admin · ${section.label}`);
  return (
    <AdminLayout>
      <Stack gap="md" maw={1200} mx="auto">
        <Title order={1} size="h2">
          {section.label}
        </Title>
        <PlaceholderNotice>
          <Text size="sm">{section.summary} This page comes with a later release.</Text>
        </PlaceholderNotice>
      </Stack>
    </AdminLayout>
  );
}
