// Who a row belongs to: name over e-mail.
import { Text } from '@mantine/core';
import type { UserRefDto } from '@optionpilot/server/contract';

export function UserCell({ user }: { user: Pick<UserRefDto, 'firstName' | 'lastName' | 'email'> }) {
  return (
    <>
      <Text size="sm">
        {user.firstName} {user.lastName}
      </Text>
      <Text size="xs" c="dimmed">
        {user.email}
      </Text>
    </>
  );
}
