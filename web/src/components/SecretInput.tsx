import { PasswordInput, type PasswordInputProps } from '@mantine/core';

export interface SecretInputProps extends PasswordInputProps {
  /** accessible name of the show/hide button */
  toggleLabel?: string;
}

/**
 * A password field whose show/hide toggle is keyboard-reachable. The toggle's name avoids the word "password"
 * on purpose: label lookups such as `getByLabel('Password')` match substrings and would otherwise hit it too.
 */
export function SecretInput({ toggleLabel = 'Show or hide characters', ...props }: SecretInputProps) {
  return (
    <PasswordInput
      visibilityToggleFocusable
      visibilityToggleButtonProps={{ 'aria-label': toggleLabel }}
      {...props}
    />
  );
}
