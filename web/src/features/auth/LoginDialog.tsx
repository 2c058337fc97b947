import type { FormEvent } from 'react';
import { Anchor, Button, Modal, Stack, Text, TextInput } from '@mantine/core';
import { Link, useNavigate } from 'react-router-dom';
import { SecretInput } from '../../components/SecretInput';
import { toastSuccess } from '../../lib/toast';
import { useSubmit } from '../../lib/useSubmit';
import { useSessionStore } from '../../stores/session';
import { selectAuthDialog, useUiStore } from '../../stores/ui';
import { AuthDialogSwitch } from './AuthDialogSwitch';
import { loginFailureMessage, MESSAGES } from './messages';
import { useLoginForm } from './useLoginForm';

/** "Welcome Back" (spec §2 "Login dialog"): e-mail and password; admins land on /admin, others on /. */
export function LoginDialog() {
  const opened = useUiStore(selectAuthDialog) === 'login';
  const navigate = useNavigate();
  const { email, setEmail, password, setPassword, errors, setErrors, validate } = useLoginForm();
  const submit = useSubmit({ title: MESSAGES.loginFailedTitle, message: loginFailureMessage });
  const { busy } = submit;

  const close = () => {
    useUiStore.getState().closeAuthDialog();
    setPassword('');
    setErrors({});
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const request = validate();
    if (!request) return;
    await submit.run(async () => {
      const user = await useSessionStore.getState().login(request);
      toastSuccess(MESSAGES.loginSuccess);
      close();
      setEmail('');
      navigate(user.isAdmin ? '/admin' : '/', { replace: true });
    });
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
          <AuthDialogSwitch prompt="Don't have an account?" to="signup" label="Sign up" />
        </Stack>
      </form>
    </Modal>
  );
}
