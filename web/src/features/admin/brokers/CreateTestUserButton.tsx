// "Create test user" (spec §2 Brokers): a paper account with an active demo subscription, flagged as test and left
// out of revenue. Its generated password is shown once, like the first admin's.
import { useState } from 'react';
import { Alert, Button, Code, Group, Modal, Stack, Text } from '@mantine/core';
import type { CreateTestUserResponse } from '@optionpilot/server/contract';
import { toastSuccess } from '../../../lib/toast';
import { useSubmit } from '../../../lib/useSubmit';
import { brokersApi } from './brokersApi';

export function CreateTestUserButton({ onCreated }: { onCreated: () => void }) {
  const [created, setCreated] = useState<CreateTestUserResponse | null>(null);
  const { busy, run } = useSubmit({ title: 'Error', message: 'Failed to create test user' });

  const create = () =>
    run(async () => {
      const answer = await brokersApi.createTestUser();
      if (!answer.success) throw new Error(answer.message || 'Failed to create test user');
      setCreated(answer);
      toastSuccess('Test user created', answer.message);
      onCreated();
    });

  return (
    <>
      <Button onClick={() => void create()} disabled={busy}>
        {busy ? 'Creating...' : 'Create test user'}
      </Button>
      <Modal opened={created !== null} onClose={() => setCreated(null)} title="Test user created" centered>
        {created && (
          <Stack gap="xs">
            <Alert color="yellow" title="Shown only once">
              Paper trading only, with an active demo subscription; left out of revenue.
            </Alert>
            <Group gap="xs">
              <Text size="sm" fw={500}>
                Email:
              </Text>
              <Code aria-label="Test user email">{created.user.email}</Code>
            </Group>
            <Group gap="xs">
              <Text size="sm" fw={500}>
                Password:
              </Text>
              <Code aria-label="Test user password">{created.password}</Code>
            </Group>
          </Stack>
        )}
      </Modal>
    </>
  );
}
