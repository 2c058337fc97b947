import { useState, type FormEvent, type ReactNode } from 'react';
import {
  Anchor,
  Button,
  Grid,
  Group,
  Paper,
  Stack,
  Text,
  Textarea,
  TextInput,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { IconClock, IconMail, IconPhone } from '@tabler/icons-react';
import { LandingSection } from './LandingSection';
import type { OperatorDetails } from './useOperatorDetails';
import { toastSuccess } from '../../lib/toast';
import { useSubmit } from '../../lib/useSubmit';
import {
  CONTACT_LIMITS,
  sendContactMessage,
  validateContact,
  type ContactErrors,
  type ContactMessage,
} from './contact';

const EMPTY: ContactMessage = { name: '', email: '', message: '' };
const FIELD_ORDER = ['name', 'email', 'message'] as const;

/** `operator`: the business details from the server's configuration, null until loaded. */
export function ContactSection({ operator = null }: { operator?: OperatorDetails | null }) {
  const [values, setValues] = useState<ContactMessage>(EMPTY);
  const [errors, setErrors] = useState<ContactErrors>({});
  const { busy: sending, run } = useSubmit({ title: 'Error', message: 'Failed to send message' });

  const update = (field: keyof ContactMessage) => (value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    // Clear a field's error as soon as the user edits it; it is re-checked on the next submit.
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (sending) return;
    const found = validateContact(values);
    setErrors(found);
    const firstInvalid = FIELD_ORDER.find((field) => found[field]);
    if (firstInvalid) {
      // Keyboard and screen-reader users land on the field to fix instead of hunting for the red text.
      const input = event.currentTarget.elements.namedItem(firstInvalid);
      if (input instanceof HTMLElement) input.focus();
      return;
    }

    await run(async () => {
      await sendContactMessage(values);
      setValues(EMPTY);
      toastSuccess('Message sent', 'Thank you. Our support team will reply by e-mail.');
    });
  };

  return (
    <LandingSection
      id="contact"
      title="Contact"
      subtitle="Questions about the strategy, brokers or billing? Write to us and we will get back to you."
    >
      <Grid gap="xl">
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Stack gap="lg">
            {operator && (
              <>
                <ContactLine icon={<IconMail size={20} aria-hidden />} label="E-mail">
                  <Anchor href={`mailto:${operator.supportEmail}`}>{operator.supportEmail}</Anchor>
                </ContactLine>
                <ContactLine icon={<IconPhone size={20} aria-hidden />} label="Phone">
                  <Anchor href={`tel:${operator.supportPhone.replace(/[^+\d]/g, '')}`}>
                    {operator.supportPhone}
                  </Anchor>
                </ContactLine>
                {/* The operator's own hours (SUPPORT_HOURS), never a figure built into the page. */}
                <ContactLine icon={<IconClock size={20} aria-hidden />} label="Support hours">
                  <Text>{operator.supportHours}</Text>
                </ContactLine>
              </>
            )}
          </Stack>
        </Grid.Col>

        <Grid.Col span={{ base: 12, md: 7 }}>
          <Paper withBorder radius="md" p="lg">
            <form onSubmit={submit} noValidate aria-label="Contact form">
              <Stack gap="md">
                <Title order={3} fz="lg">
                  Send us a message
                </Title>
                <TextInput
                  label="Name"
                  name="name"
                  autoComplete="name"
                  maxLength={CONTACT_LIMITS.name}
                  required
                  value={values.name}
                  error={errors.name}
                  onChange={(event) => update('name')(event.currentTarget.value)}
                />
                <TextInput
                  label="Email"
                  name="email"
                  type="email"
                  autoComplete="email"
                  maxLength={CONTACT_LIMITS.email}
                  required
                  value={values.email}
                  error={errors.email}
                  onChange={(event) => update('email')(event.currentTarget.value)}
                />
                <Textarea
                  label="Message"
                  name="message"
                  maxLength={CONTACT_LIMITS.message}
                  required
                  rows={5}
                  value={values.message}
                  error={errors.message}
                  onChange={(event) => update('message')(event.currentTarget.value)}
                />
                <Group justify="flex-end">
                  <Button type="submit" loading={sending}>
                    Send Message
                  </Button>
                </Group>
              </Stack>
            </form>
          </Paper>
        </Grid.Col>
      </Grid>
    </LandingSection>
  );
}

interface ContactLineProps {
  icon: ReactNode;
  label: string;
  children: ReactNode;
}

function ContactLine({ icon, label, children }: ContactLineProps) {
  return (
    <Group gap="md" wrap="nowrap" align="flex-start">
      <ThemeIcon size={40} radius="md" variant="light">
        {icon}
      </ThemeIcon>
      <div>
        <Text size="sm" c="dimmed">
          {label}
        </Text>
        {children}
      </div>
    </Group>
  );
}
