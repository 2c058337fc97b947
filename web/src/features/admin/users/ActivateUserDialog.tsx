// Activate (spec §2, decisions.md): opens a pending user's subscription; the reason is recorded in the audit log.
import { useState, type FormEvent } from 'react';
import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { activateUserSchema, type AdminUserDto } from '@optionpilot/server/contract';
import { toastSuccess } from '../../../lib/toast';
import { useSubmit } from '../../../lib/useSubmit';
import { usersApi } from './usersApi';

export function ActivateUserDialog({
  user,
  onClose,
}: {
  user: AdminUserDto;
  onClose: (changed: boolean) => void;
}) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const { busy, run } = useSubmit({ title: 'Update Failed', message: 'Failed to update user data' });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = activateUserSchema.safeParse({ reason });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'reason is required');
      return;
    }
    void run(async () => {
      await usersApi.activate(user.id, parsed.data.reason);
      toastSuccess('User Updated', `${user.email} is now active.`);
      onClose(true);
    });
  };

  return (
    <Modal opened onClose={() => onClose(false)} title="Activate user" centered>
      <form onSubmit={submit} aria-label="Activate user">
        <Stack gap="sm">
          <Text size="sm">
            Opens a subscription for {user.firstName} {user.lastName} ({user.email}) without a payment. The
            reason is kept in the audit log.
          </Text>
          <Textarea
            label="Reason"
            placeholder="e.g. paid by bank transfer, UTR 123456789012"
            value={reason}
            onChange={(e) => {
              setReason(e.currentTarget.value);
              setError(null);
            }}
            error={error}

            rows={3}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => onClose(false)} disabled={busy}>
              Cancel
            </Button>
            <Button type="submit" color="green" disabled={busy}>
              {busy ? 'Activating...' : 'Activate'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
