import { useState, type FormEvent } from 'react';
import { Anchor, Button, Modal, Stack, Text, TextInput } from '@mantine/core';
import { Link, useNavigate } from 'react-router-dom';
import { loginSchema } from '@optionpilot/server/contract';
import { SecretInput } from '../../components/SecretInput';
import { fieldErrorsOf, type FieldErrors } from '../../lib/fieldErrors';
import { toastSuccess } from '../../lib/toast';
import { useSubmit } from '../../lib/useSubmit';
import { useSessionStore } from '../../stores/session';
import { selectAuthDialog, useUiStore } from '../../stores/ui';
import { LOGIN_FIELDS, loginFailureMessage, MESSAGES, type LoginField } from './messages';

/** "Welcome Back" (spec §2 "Login dialog"): e-mail and password; admins land on /admin, others on /. */
export function LoginDialog() {
  const opened = useUiStore(selectAuthDialog) === 'login';
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const submit = useSubmit({ title: MESSAGES.loginFailedTitle, message: loginFailureMessage });
  const { busy } = submit;
  const [errors, setErrors] = useState<FieldErrors<LoginField>>({});

  const close = () => {
    useUiStore.getState().closeAuthDialog();
    setPassword('');
    setErrors({});
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = loginSchema.safeParse({ email, password });
    if (!parsed.success) {
      setErrors(fieldErrorsOf(parsed.error, LOGIN_FIELDS));
      return;
    }
    setErrors({});
    await submit.run(async () => {
      const user = await useSessionStore.getState().login(parsed.data);
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
