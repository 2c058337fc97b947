import { useState, type FormEvent } from 'react';
import {
  Alert,
  Anchor,
  Button,
  Code,
  CopyButton,
  Divider,
  Group,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { Link } from 'react-router-dom';
import type { InitAdminResponse } from '@optionpilot/server/contract';
import { authApi } from '../../api/auth';
import { CenteredCard } from '../../components/CenteredCard';
import { toastSuccess } from '../../lib/toast';
import { usePageTitle } from '../../lib/usePageTitle';
import { useSubmit } from '../../lib/useSubmit';

/**
 * `/create-admin` (spec §2 "Admin sign-in and setup"). "Create admin" works only while no admin exists and shows
 * the generated password once; "Make admin" promotes a user and needs an admin session (decisions.md).
 */
export function CreateAdminPage() {
  usePageTitle('Admin setup');
  const creating = useSubmit({ title: 'Error', message: 'Failed to create admin' });
  const [created, setCreated] = useState<InitAdminResponse | null>(null);
  const [email, setEmail] = useState('');
  const promoting = useSubmit({ title: 'Error', message: 'Failed to make admin' });

  const createAdmin = () =>
    creating.run(async () => {
      const response = await authApi.initAdmin();
      if (!response?.email || !response.password) throw new Error('Invalid response from server');
      setCreated(response);
      toastSuccess('Admin created', response.message);
    });

  const makeAdmin = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!email.trim()) return;
    await promoting.run(async () => {
      const response = await authApi.makeAdmin(email.trim());
      toastSuccess('Admin granted', response?.message || `${email.trim()} is now an admin`);
      setEmail('');
    });
  };

  return (
    <CenteredCard title="Admin setup" width={520}>
      <Stack gap="sm">
        <Title order={3} size="h5">
          Create admin
        </Title>
        <Text size="sm" c="dimmed">
          Creates the first administrator account with a freshly generated password. This works only while no
          admin exists yet.
        </Text>
        {created ? (
          <Stack gap="xs">
            <Alert color="yellow" icon={<IconAlertTriangle size={18} />} title="Store this password now">
              It is shown only this once and cannot be recovered. Keep it in a password manager, then sign in
              and change it.
            </Alert>
            <Group gap="xs">
              <Text size="sm" fw={500}>
                Email:
              </Text>
              <Code aria-label="Admin email">{created.email}</Code>
            </Group>
            <Group gap="xs">
              <Text size="sm" fw={500}>
                Password:
              </Text>
              <Code aria-label="Admin password">{created.password}</Code>
              <CopyButton value={created.password}>
                {({ copied, copy }) => (
                  <Button size="xs" variant="light" color={copied ? 'teal' : 'blue'} onClick={copy}>
                    {copied ? 'Copied!' : 'Copy password'}
                  </Button>
                )}
              </CopyButton>
            </Group>
            <Anchor component={Link} to="/admin-login" size="sm">
              Go to admin sign-in
            </Anchor>
          </Stack>
        ) : (
          <Button onClick={createAdmin} disabled={creating.busy}>
            {creating.busy ? 'Creating...' : 'Create admin'}
          </Button>
        )}
      </Stack>
      <Divider />
      <form onSubmit={makeAdmin} aria-label="Make admin">
        <Stack gap="sm">
          <Title order={3} size="h5">
            Make admin
          </Title>
          <Text size="sm" c="dimmed">
            Gives an existing user admin rights. You must be signed in as an admin.
          </Text>
          <TextInput
            label="User email"
            type="email"
            placeholder="user@example.com"
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
          />
          <Button type="submit" disabled={!email.trim() || promoting.busy}>
            {promoting.busy ? 'Saving...' : 'Make admin'}
          </Button>
        </Stack>
      </form>
    </CenteredCard>
  );
}
