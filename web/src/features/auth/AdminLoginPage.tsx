import { useState, type FormEvent } from 'react';
import { Anchor, Button, Stack, TextInput } from '@mantine/core';
import { Link, Navigate, useNavigate } from 'react-router-dom';
import { loginSchema } from '@optionpilot/server/contract';
import { errorMessage } from '../../api/client';
import { CenteredCard } from '../../components/CenteredCard';
import { SecretInput } from '../../components/SecretInput';
import { toastError, toastSuccess } from '../../lib/toast';
import { usePageTitle } from '../../lib/usePageTitle';
import { selectStatus, useSessionStore } from '../../stores/session';
import { MESSAGES } from './messages';

/** `/admin-login` (spec §2): admin sign-in. The form starts empty: no default credentials (decisions.md). */
export function AdminLoginPage() {
  usePageTitle('Admin sign-in');
  const status = useSessionStore(selectStatus);
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ email?: string; password?: string }>({});
  const [busy, setBusy] = useState(false);

  if (status === 'admin' && !busy) return <Navigate to="/admin" replace />;

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = loginSchema.safeParse({ email, password });
    if (!parsed.success) {
      const next: { email?: string; password?: string } = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0];
        if ((field === 'email' || field === 'password') && !next[field]) next[field] = issue.message;
      }
      setErrors(next);
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const { message } = await useSessionStore.getState().adminLogin(parsed.data);
      toastSuccess(MESSAGES.loginSuccess, message ?? undefined);
      navigate('/admin', { replace: true });
    } catch (error) {
      toastError(MESSAGES.adminLoginFailedTitle, errorMessage(error, MESSAGES.authenticationFailed));
    } finally {
      setBusy(false);
    }
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
