import { useState, type FormEvent } from 'react';
import { Anchor, Button, Checkbox, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { registerSchema, type RegisterRequest } from '@optionpilot/server/contract';
import { SecretInput } from '../../components/SecretInput';
import { fieldErrorsOf, type FieldErrors } from '../../lib/fieldErrors';
import { toastError, toastSuccess } from '../../lib/toast';
import { useSubmit } from '../../lib/useSubmit';
import { useSessionStore } from '../../stores/session';
import { selectAuthDialog, useUiStore } from '../../stores/ui';
import { AuthDialogSwitch } from './AuthDialogSwitch';
import { MESSAGES } from './messages';

type Field = keyof RegisterRequest;
const FIELDS: ReadonlyArray<Field> = ['firstName', 'lastName', 'email', 'phone', 'password'];

const EMPTY_FORM: RegisterRequest = { firstName: '', lastName: '', email: '', phone: '', password: '' };

/** Client-side check with the server's own schema, so both sides reject the same input with the same words. */
export function validateSignup(form: RegisterRequest): FieldErrors<Field> {
  const parsed = registerSchema.safeParse(form);
  return parsed.success ? {} : fieldErrorsOf(parsed.error, FIELDS);
}

/** "Get Started" (spec §2 "Signup dialog"); on success the payment dialog opens (spec §4). */
export function SignupDialog() {
  const opened = useUiStore(selectAuthDialog) === 'signup';
  const [form, setForm] = useState<RegisterRequest>(EMPTY_FORM);
  const [acceptedTerms, setAcceptedTerms] = useState(false);
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const submit = useSubmit({ title: MESSAGES.signupFailedTitle, message: MESSAGES.signupFailed });

  const set = (field: Field) => (event: { currentTarget: HTMLInputElement }) => {
    const value = event.currentTarget.value;
    setForm((current) => ({ ...current, [field]: value }));
  };

  const close = () => {
    useUiStore.getState().closeAuthDialog();
    setErrors({});
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!acceptedTerms) {
      toastError('Error', MESSAGES.acceptTerms);
      return;
    }
    const fieldErrors = validateSignup(form);
    setErrors(fieldErrors);
    if (Object.keys(fieldErrors).length > 0) return;
    await submit.run(async () => {
      // The server normalises (trim, lower-case e-mail, +91 phone) with the same schema; send what was typed.
      await useSessionStore.getState().register(form);
      toastSuccess(MESSAGES.signupSuccess);
      setForm(EMPTY_FORM);
      setAcceptedTerms(false);
      // Closes the signup dialog too (spec §4: the payment dialog opens, the signup dialog closes).
      useUiStore.getState().openPaymentDialog();
    });
  };

  return (
    <Modal opened={opened} onClose={close} title="Get Started" centered size="lg">
      {/* No " *" in labels (inputs stay required): exact label lookups in e2e tests then match the field name. */}
      <form onSubmit={onSubmit} aria-label="Create account">
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            Create your account, then subscribe to the Professional Plan.
          </Text>
          <Group grow align="flex-start">
            <TextInput
              label="First Name"
              autoComplete="given-name"
              required
              withAsterisk={false}
              value={form.firstName}
              onChange={set('firstName')}
              error={errors.firstName}
              data-autofocus
            />
            <TextInput
              label="Last Name"
              autoComplete="family-name"
              required
              withAsterisk={false}
              value={form.lastName}
              onChange={set('lastName')}
              error={errors.lastName}
            />
          </Group>
          <TextInput
            label="Email"
            type="email"
            autoComplete="email"
            placeholder="you@example.com"
            required
            withAsterisk={false}
            value={form.email}
            onChange={set('email')}
            error={errors.email}
          />
          <TextInput
            label="Phone"
            type="tel"
            autoComplete="tel"
            placeholder="+91 98765 43210"
            required
            withAsterisk={false}
            value={form.phone}
            onChange={set('phone')}
            error={errors.phone}
          />
          <SecretInput
            label="Password"
            autoComplete="new-password"
            description="At least 8 characters with a lowercase letter, an uppercase letter and a number"
            required
            withAsterisk={false}
            value={form.password}
            onChange={set('password')}
            error={errors.password}
          />
          <Checkbox
            label={
              <>
                I agree to the{' '}
                {/* A new tab, so what was typed here is not lost; a click on a link does not tick the box. */}
                <Anchor href="/terms" target="_blank" rel="noopener noreferrer" inherit>
                  Terms of Service
                </Anchor>{' '}
                and{' '}
                <Anchor href="/privacy" target="_blank" rel="noopener noreferrer" inherit>
                  Privacy Policy
                </Anchor>
              </>
            }
            checked={acceptedTerms}
            onChange={(e) => setAcceptedTerms(e.currentTarget.checked)}
          />
          <Button type="submit" fullWidth disabled={submit.busy}>
            {submit.busy ? 'Creating Account...' : 'Create Account & Subscribe'}
          </Button>
          <AuthDialogSwitch prompt="Already have an account?" to="login" label="Sign in" />
        </Stack>
      </form>
    </Modal>
  );
}
