import { useState, type FormEvent } from 'react';
import { Anchor, Button, Stack, TextInput } from '@mantine/core';
import { Link, Navigate, useNavigate } from 'react-router-dom';
import { loginSchema } from '@optionpilot/server/contract';
import { CenteredCard } from '../../components/CenteredCard';
import { SecretInput } from '../../components/SecretInput';
import { fieldErrorsOf, type FieldErrors } from '../../lib/fieldErrors';
import { toastSuccess } from '../../lib/toast';
import { usePageTitle } from '../../lib/usePageTitle';
import { useSubmit } from '../../lib/useSubmit';
import { selectStatus, useSessionStore } from '../../stores/session';
import { LOGIN_FIELDS, MESSAGES, type LoginField } from './messages';

/** `/admin-login` (spec §2): admin sign-in. The form starts empty: no default credentials (decisions.md). */
export function AdminLoginPage() {
  usePageTitle('Admin sign-in');
  const status = useSessionStore(selectStatus);
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<FieldErrors<LoginField>>({});
  const submit = useSubmit({ title: MESSAGES.adminLoginFailedTitle, message: MESSAGES.authenticationFailed });
  const { busy } = submit;

  if (status === 'admin' && !busy) return <Navigate to="/admin" replace />;

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = loginSchema.safeParse({ email, password });
    if (!parsed.success) {
      setErrors(fieldErrorsOf(parsed.error, LOGIN_FIELDS));
      return;
    }
    setErrors({});
    await submit.run(async () => {
      const { message } = await useSessionStore.getState().adminLogin(parsed.data);
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
