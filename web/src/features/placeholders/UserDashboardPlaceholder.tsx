import { Alert, Badge, Group, Stack, Text, Title } from '@mantine/core';
import { IconFlask } from '@tabler/icons-react';
import { PlaceholderNotice } from '../../components/PlaceholderNotice';
import { SignedInLayout } from '../../components/SignedInLayout';
import { usePageTitle } from '../../lib/usePageTitle';
import { selectUser, useSessionStore } from '../../stores/session';

/** Stand-in for the user dashboard (`/`, `/dashboard`, `/dev-dashboard`) until features/dashboard/UserDashboard lands. */
export function UserDashboardPlaceholder() {
  usePageTitle('Dashboard');
  const user = useSessionStore(selectUser);
  return (
    <SignedInLayout>
      <Stack gap="md" maw={1200} mx="auto">
        <Alert color="yellow" variant="light" icon={<IconFlask size={18} />} title="TEST MODE">
          All features enabled, payment system disabled.
        </Alert>
        <Group justify="space-between" align="flex-end">
          <Title order={1} size="h2">
            Dashboard
          </Title>
          {user && (
            <Badge variant="light" size="lg" aria-label="Subscription status">
              Subscription: {user.subscriptionStatus}
            </Badge>
          )}
        </Group>
        <PlaceholderNotice>
          <Text size="sm">
            The live trading dashboard (status cards, the NIFTY 50 feed, the algo switch, trades and settings)
            comes with a later release. You are signed in and your account is ready.
          </Text>
        </PlaceholderNotice>
      </Stack>
    </SignedInLayout>
  );
}
