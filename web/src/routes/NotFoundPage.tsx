import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { usePageTitle } from '../lib/usePageTitle';

/** Any unknown route (spec §2). */
export function NotFoundPage() {
  usePageTitle('Page Not Found');
  return (
    <Center mih="100vh" p="md">
      <Stack align="center" gap="sm">
        <Text fz={64} fw={800} c="dimmed" lh={1}>
          404
        </Text>
        <Title order={1} size="h2">
          Page Not Found
        </Title>
        <Text c="dimmed" ta="center">
          The page you are looking for does not exist or has moved.
        </Text>
        <Button component={Link} to="/">
          Go to home page
        </Button>
      </Stack>
    </Center>
  );
}
