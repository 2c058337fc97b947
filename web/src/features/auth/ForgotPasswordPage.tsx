import { useState, type FormEvent } from 'react';
import { Anchor, Button, CopyButton, Stack, Text, TextInput } from '@mantine/core';
import { IconMailCheck } from '@tabler/icons-react';
import { Link } from 'react-router-dom';
import { requestPasswordResetSchema } from '@optionpilot/server/contract';
import { authApi } from '../../api/auth';
import { CenteredCard } from '../../components/CenteredCard';
import { toastInfo } from '../../lib/toast';
import { usePageTitle } from '../../lib/usePageTitle';
import { useSubmit } from '../../lib/useSubmit';
import { MESSAGES } from './messages';

// The test-mode link toast stays longer than the usual 5 s: people need time to copy it.
const RESET_LINK_TOAST_MS = 20_000;

/** The body of the test-mode toast: the link (a real anchor, so tests can read its href) and a copy action. */
export function ResetLinkToastBody({ link }: { link: string }) {
  return (
    <Stack gap={6}>
      <Text size="sm">No mail server is configured, so here is the link that would have been e-mailed:</Text>
      <Anchor href={link} size="sm" style={{ wordBreak: 'break-all' }} aria-label="Password reset link">
        {link}
      </Anchor>
      <CopyButton value={link}>
        {({ copied, copy }) => (
          <Button size="xs" variant="light" color={copied ? 'teal' : 'blue'} onClick={copy}>
            {copied ? 'Copied!' : 'Copy link'}
          </Button>
        )}
      </CopyButton>
    </Stack>
  );
}

/** `/forgot-password` (spec §2): request form, then a confirmation screen with "Try Again". */
export function ForgotPasswordPage() {
  usePageTitle('Forgot password');
  const [email, setEmail] = useState('');
  const [emailError, setEmailError] = useState<string | null>(null);
  const submit = useSubmit({
    title: MESSAGES.resetRequestFailedTitle,
    message: MESSAGES.invalidServerResponse,
  });
  const [sentMessage, setSentMessage] = useState<string | null>(null);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = requestPasswordResetSchema.safeParse({ email });
    if (!parsed.success) {
      setEmailError(parsed.error.issues[0]?.message ?? 'email must be a valid e-mail address');
      return;
    }
    setEmailError(null);
    await submit.run(async () => {
      const response = await authApi.requestPasswordReset(parsed.data.email);
      if (!response || typeof response.success !== 'boolean') throw new Error(MESSAGES.invalidServerResponse);
      if (!response.success) throw new Error(response.message || MESSAGES.resetRequestFailedTitle);
      setSentMessage(
        response.message || 'If an account exists for that e-mail, a password reset link is on its way.',
      );
      if (response.resetLink) {
        toastInfo('Test mode: reset link', <ResetLinkToastBody link={response.resetLink} />, {
          autoClose: RESET_LINK_TOAST_MS,
        });
      }
    });
  };

  if (sentMessage !== null) {
    return (
      <CenteredCard title="Check your email">
        <Stack gap="md" align="center">
          <IconMailCheck size={48} color="var(--mantine-color-blue-6)" aria-hidden />
          <Text ta="center">{sentMessage}</Text>
          <Text size="sm" c="dimmed" ta="center">
            The link is valid for 30 minutes. Didn&apos;t get it? Check your spam folder or try again.
          </Text>
          <Button variant="light" onClick={() => setSentMessage(null)}>
            Try Again
          </Button>
          <Anchor component={Link} to="/login" size="sm">
            Back to sign in
          </Anchor>
        </Stack>
      </CenteredCard>
    );
  }

  return (
    <CenteredCard
      title="Forgot your password?"
      description="Enter the e-mail you signed up with and we will send you a link to choose a new password."
    >
      {/* No " *" in labels (inputs stay required): exact label lookups in e2e tests then match the field name. */}
      <form onSubmit={onSubmit} aria-label="Request password reset">
        <Stack gap="md">
          <TextInput
            label="Email"
            type="email"
            autoComplete="email"
            placeholder="you@example.com"
            required
            withAsterisk={false}
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            error={emailError}
          />
          <Button type="submit" fullWidth disabled={submit.busy}>
            {submit.busy ? 'Sending...' : 'Send Reset Link'}
          </Button>
          <Anchor component={Link} to="/login" size="sm" ta="center">
            Back to sign in
          </Anchor>
        </Stack>
      </form>
    </CenteredCard>
  );
}
