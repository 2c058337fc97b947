import type { FormEvent } from 'react';
import { Anchor, Button, Stack, TextInput } from '@mantine/core';
import { Link, Navigate, useNavigate } from 'react-router-dom';
import { CenteredCard } from '../../components/CenteredCard';
import { SecretInput } from '../../components/SecretInput';
import { toastSuccess } from '../../lib/toast';
import { usePageTitle } from '../../lib/usePageTitle';
import { useSubmit } from '../../lib/useSubmit';
import { selectStatus, useSessionStore } from '../../stores/session';
import { MESSAGES } from './messages';
import { useLoginForm } from './useLoginForm';

/** `/admin-login` (spec §2): admin sign-in. The form starts empty: no default credentials (decisions.md). */
export function AdminLoginPage() {
  usePageTitle('Admin sign-in');
  const status = useSessionStore(selectStatus);
  const navigate = useNavigate();
  const { email, setEmail, password, setPassword, errors, validate } = useLoginForm();
  const submit = useSubmit({ title: MESSAGES.adminLoginFailedTitle, message: MESSAGES.authenticationFailed });
  const { busy } = submit;

  if (status === 'admin' && !busy) return <Navigate to="/admin" replace />;

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const request = validate();
    if (!request) return;
    await submit.run(async () => {
      const { message } = await useSessionStore.getState().adminLogin(request);
      toastSuccess(MESSAGES.loginSuccess, message ?? undefined);
      navigate('/admin', { replace: true });
    });
  };

  return (
    <CenteredCard title="Admin sign-in" description="For OptionPilot administrators only.">
      {/* No " *" in labels (inputs stay required): exact label lookups in e2e tests then match the field name. */}
      <form onSubmit={onSubmit} noValidate aria-label="Admin sign-in">
        <Stack gap="md">
          <TextInput
            label="Email"
            type="email"
            autoComplete="username"
            placeholder="admin@example.com"
            required
            withAsterisk={false}
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            error={errors.email}
          />
          <SecretInput
            label="Password"
            autoComplete="current-password"
            required
            withAsterisk={false}
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            error={errors.password}
          />
          <Button type="submit" fullWidth disabled={busy}>
            {busy ? 'Signing in...' : 'Sign In'}
          </Button>
          <Anchor component={Link} to="/" size="sm" ta="center">
            Back to home
          </Anchor>
        </Stack>
      </form>
    </CenteredCard>
  );
}
