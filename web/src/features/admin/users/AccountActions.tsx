// The Edit dialog's account section (decisions.md: admins never see a password): send a reset link, set a new
// password (the server ends every session of the user), deactivate or reactivate the account.
import { useState } from 'react';
import { Anchor, Button, Group, Stack, Text, Title } from '@mantine/core';
import { passwordSchema, type AdminUserDto } from '@optionpilot/server/contract';
import { SecretInput } from '../../../components/SecretInput';
import { toastSuccess } from '../../../lib/toast';
import { useSubmit } from '../../../lib/useSubmit';
import { usersApi } from './usersApi';

export function AccountActions({ user, onChanged }: { user: AdminUserDto; onChanged: () => void }) {
  const [password, setPassword] = useState('');
  const [passwordError, setPasswordError] = useState<string | null>(null);
  const [resetLink, setResetLink] = useState<string | null>(null);
  const [disabled, setDisabled] = useState(user.disabled);
  const { busy, run } = useSubmit({ title: 'Update Failed', message: 'Failed to update user data' });

  const sendLink = () =>
    run(async () => {
      const answer = await usersApi.sendResetLink(user.id);
      setResetLink(answer.resetLink ?? null);
      toastSuccess('User Updated', answer.message ?? `A reset link was sent to ${user.email}.`);
    });

  const setNewPassword = () => {
    const parsed = passwordSchema.safeParse(password);
    if (!parsed.success) {
      setPasswordError(parsed.error.issues[0]?.message ?? 'Invalid password');
      return;
    }
    setPasswordError(null);
    void run(async () => {
      await usersApi.setPassword(user.id, password);
      setPassword('');
      toastSuccess('User Updated', 'Password set; every session of this user was signed out.');
    });
  };

  const toggleDisabled = () =>
    run(async () => {
      const answer = disabled ? await usersApi.reactivate(user.id) : await usersApi.deactivate(user.id);
      setDisabled(answer.user.disabled);
      onChanged();
      toastSuccess('User Updated', answer.user.disabled ? 'Account deactivated.' : 'Account reactivated.');
    });

  return (
    <Stack gap="sm">
      <Title order={5}>Account</Title>
      <Group align="flex-end">
        <SecretInput
          label="Set a new password"
          value={password}
          onChange={(e) => setPassword(e.currentTarget.value)}
          error={passwordError}
          style={{ flex: 1 }}
        />
        <Button variant="light" onClick={setNewPassword} disabled={busy || !password}>
          Set password
        </Button>
      </Group>
      <Group>
        <Button variant="light" onClick={() => void sendLink()} disabled={busy}>
          Send reset link
        </Button>
        <Button
          color={disabled ? 'green' : 'red'}
          variant="light"
          onClick={() => void toggleDisabled()}
          disabled={busy}
        >
          {disabled ? 'Reactivate account' : 'Deactivate account'}
        </Button>
      </Group>
      {resetLink && (
        <Text size="sm">
          Test mode (no mail transport):{' '}
          <Anchor href={resetLink} aria-label="Password reset link">
            reset link
          </Anchor>
        </Text>
      )}
    </Stack>
  );
}
