import { Anchor, Text } from '@mantine/core';
import { useUiStore, type AuthDialogKind } from '../../stores/ui';

/** The "Don't have an account? Sign up" line under an auth dialog: switches to the other dialog. */
export function AuthDialogSwitch({
  prompt,
  to,
  label,
}: {
  prompt: string;
  to: AuthDialogKind;
  label: string;
}) {
  return (
    <Text size="sm" ta="center">
      {prompt}{' '}
      <Anchor component="button" type="button" onClick={() => useUiStore.getState().openAuthDialog(to)}>
        {label}
      </Anchor>
    </Text>
  );
}
