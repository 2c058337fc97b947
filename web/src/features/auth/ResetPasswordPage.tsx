import { useEffect, useState, type FormEvent } from 'react';
import { Alert, Anchor, Button, List, Stack, Text } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { authApi } from '../../api/auth';
import { CenteredCard } from '../../components/CenteredCard';
import { SecretInput } from '../../components/SecretInput';
import { toastError, toastSuccess } from '../../lib/toast';
import { usePageTitle } from '../../lib/usePageTitle';
import { useSubmit } from '../../lib/useSubmit';
import { MESSAGES } from './messages';
import { validateResetPassword } from './resetPasswordValidation';

/** Spec §9: after a successful reset the page moves on to sign-in after 3 seconds. */
export const RESET_REDIRECT_DELAY_MS = 3000;

/** `/reset-password?token=…` (spec §2): choose a new password with the e-mailed token. */
export function ResetPasswordPage() {
  usePageTitle('Reset password');
  const [params] = useSearchParams();
  const token = params.get('token');
  const navigate = useNavigate();
  const [newPassword, setNewPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const submit = useSubmit({ title: MESSAGES.resetFailedTitle, message: MESSAGES.resetFailed });
  const [doneMessage, setDoneMessage] = useState<string | null>(null);

  useEffect(() => {
    if (doneMessage === null) return undefined;
    const timer = window.setTimeout(() => navigate('/login', { replace: true }), RESET_REDIRECT_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [doneMessage, navigate]);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const problem = validateResetPassword({ token, newPassword, confirmPassword });
    if (problem) {
      toastError('Error', problem);
      return;
    }
    await submit.run(async () => {
      // validateResetPassword returned null, so the token is present.
      const response = await authApi.resetPassword(token ?? '', newPassword);
      if (!response || response.success !== true) throw new Error(response?.message || MESSAGES.resetFailed);
      const message = response.message || 'Your password has been reset.';
      toastSuccess(MESSAGES.resetSucceededTitle, message);
      setDoneMessage(message);
    });
  };

  if (doneMessage !== null) {
    return (
      <CenteredCard title="Password updated">
        <Alert color="teal" icon={<IconCircleCheck size={18} />} title="Password reset successful">
          {doneMessage} Redirecting you to sign in…
        </Alert>
        <Anchor component={Link} to="/login">
          Sign in now
        </Anchor>
      </CenteredCard>
    );
  }

  return (
    <CenteredCard
      title="Reset your password"
      description="Choose a new password for your OptionPilot account."
    >
      <form onSubmit={onSubmit} noValidate aria-label="Reset password">
        <Stack gap="md">
          <SecretInput
            label="New Password"
            autoComplete="new-password"
            value={newPassword}
            onChange={(e) => setNewPassword(e.currentTarget.value)}
            toggleLabel="Show or hide the new entry"
          />
          <SecretInput
            label="Confirm Password"
            autoComplete="new-password"
            value={confirmPassword}
            onChange={(e) => setConfirmPassword(e.currentTarget.value)}
            toggleLabel="Show or hide the confirmation"
          />
          <div>
            <Text size="sm" c="dimmed">
              Your new password needs:
            </Text>
            <List size="sm" c="dimmed">
              <List.Item>at least 8 characters</List.Item>
              <List.Item>a lowercase letter, an uppercase letter and a number</List.Item>
            </List>
          </div>
          <Button type="submit" fullWidth disabled={submit.busy}>
            {submit.busy ? 'Resetting...' : 'Reset Password'}
          </Button>
          <Anchor component={Link} to="/forgot-password" size="sm" ta="center">
            Need a new link?
          </Anchor>
        </Stack>
      </form>
    </CenteredCard>
  );
}
