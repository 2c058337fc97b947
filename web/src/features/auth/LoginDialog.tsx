import { useState, type FormEvent } from 'react';
import { Anchor, Button, Modal, Stack, Text, TextInput } from '@mantine/core';
import { Link, useNavigate } from 'react-router-dom';
import { loginSchema } from '@optionpilot/server/contract';
import { SecretInput } from '../../components/SecretInput';
import { toastError, toastSuccess } from '../../lib/toast';
import { useSessionStore } from '../../stores/session';
import { selectAuthDialog, useUiStore } from '../../stores/ui';
import { loginFailureMessage, MESSAGES } from './messages';

/** "Welcome Back" (spec §2 "Login dialog"): e-mail and password; admins land on /admin, others on /. */
export function LoginDialog() {
  const opened = useUiStore(selectAuthDialog) === 'login';
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<{ email?: string; password?: string }>({});

  const close = () => {
    useUiStore.getState().closeAuthDialog();
    setPassword('');
    setErrors({});
  };

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
      const user = await useSessionStore.getState().login(parsed.data);
      toastSuccess(MESSAGES.loginSuccess);
      close();
      setEmail('');
      navigate(user.isAdmin ? '/admin' : '/', { replace: true });
    } catch (error) {
      toastError(MESSAGES.loginFailedTitle, loginFailureMessage(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened={opened} onClose={close} title="Welcome Back" centered size="md">
      {/* No " *" in labels (inputs stay required): exact label lookups in e2e tests then match the field name. */}
      <form onSubmit={onSubmit} noValidate aria-label="Sign in">
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            Sign in to your OptionPilot account.
          </Text>
          <TextInput
            label="Email"
            type="email"
            autoComplete="email"
            placeholder="you@example.com"
            required
            withAsterisk={false}
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            error={errors.email}
            data-autofocus
          />
          <SecretInput
            label="Password"
            autoComplete="current-password"
            placeholder="Your password"
            required
            withAsterisk={false}
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            error={errors.password}
          />
          <Anchor component={Link} to="/forgot-password" size="sm" onClick={close}>
            Forgot your password?
          </Anchor>
          <Button type="submit" fullWidth disabled={busy}>
            {busy ? 'Signing in...' : 'Sign In'}
          </Button>
          <Text size="sm" ta="center">
            Don&apos;t have an account?{' '}
            <Anchor
              component="button"
              type="button"
              onClick={() => useUiStore.getState().openAuthDialog('signup')}
            >
              Sign up
            </Anchor>
          </Text>
        </Stack>
      </form>
    </Modal>
  );
}
