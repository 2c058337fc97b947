import { Anchor, Container, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { BrandMark } from '../../components/BrandMark';
import { PlaceholderNotice } from '../../components/PlaceholderNotice';
import { usePageTitle } from '../../lib/usePageTitle';

/** `/test-dashboard`: where visitors of `/dev-dashboard` land. A read-only demo on simulated data comes later. */
export function TestDashboardPage() {
  usePageTitle('Demo dashboard');
  return (
    <Container size="md" py="xl">
      <Stack gap="lg">
        <BrandMark />
        <Title order={1} size="h2">
          Demo dashboard
        </Title>
        <PlaceholderNotice>
          <Text size="sm">Demo dashboard on simulated data — coming with the live dashboard</Text>
        </PlaceholderNotice>
        <Anchor component={Link} to="/">
          Back to home
        </Anchor>
      </Stack>
    </Container>
  );
}
