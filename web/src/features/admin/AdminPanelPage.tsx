import { Anchor, Card, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { PlaceholderNotice } from '../../components/PlaceholderNotice';
import { usePageTitle } from '../../lib/usePageTitle';
import { AdminLayout } from './AdminLayout';
import { ADMIN_SECTIONS } from './adminSections';

/** The admin panel (`/` and `/admin` for admins). Placeholder: the overview, bot control and tabs come later. */
export function AdminPanelPage() {
  usePageTitle('Admin panel');
  return (
    <AdminLayout>
      <Stack gap="md" maw={1200} mx="auto">
        <Title order={1} size="h2">
          Admin Panel
        </Title>
        <PlaceholderNotice>
          <Text size="sm">
            The overview (active users, revenue, trades, win rate), bot control, strategy, signals and logs
            come with a later release. The admin pages below are reachable now.
          </Text>
        </PlaceholderNotice>
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
          {ADMIN_SECTIONS.map((section) => (
            <Card key={section.path} withBorder padding="md">
              <Anchor component={Link} to={`/admin/${section.path}`} fw={600}>
                {section.label}
              </Anchor>
              <Text size="sm" c="dimmed" mt={4}>
                {section.summary}
              </Text>
            </Card>
          ))}
        </SimpleGrid>
      </Stack>
    </AdminLayout>
  );
}
