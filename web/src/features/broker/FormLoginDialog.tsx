// A broker's daily login by form (Angel One: client code, MPIN and the current TOTP), rendered from the fields the
// server declares for the broker (GET /api/brokers), with no broker-specific code. The values go to the server once,
// which sends them straight to the broker; the dialog forgets them as soon as it closes.
import { useState } from 'react';
import { Button, Group, Modal, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import type { BrokerLoginFieldDto, BrokerSessionResponse } from '@optionpilot/server/contract';
import { api } from '../../api/client';
import { toastSuccess } from '../../lib/toast';
import { useSubmit } from '../../lib/useSubmit';

/** The first field whose value does not match its pattern, as the server would word it. */
export function firstInvalidField(
  fields: readonly BrokerLoginFieldDto[],
  values: Readonly<Record<string, string>>,
): string | null {
  for (const field of fields) {
    if (!new RegExp(`^(?:${field.pattern})$`).test((values[field.name] ?? '').trim())) {
      return `${field.label} must be ${field.hint}`;
    }
  }
  return null;
}

export function FormLoginDialog({
  opened,
  onClose,
  brokerLabel,
  fields,
  submitPath,
  onConnected,
}: {
  opened: boolean;
  onClose: () => void;
  brokerLabel: string;
  fields: readonly BrokerLoginFieldDto[];
  submitPath: string;
  onConnected: (response: BrokerSessionResponse) => void | Promise<void>;
}) {
  const [values, setValues] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const { busy, run } = useSubmit({ title: 'Authentication Failed', message: 'Failed to connect broker' });

  const close = () => {
    setValues({});
    setProblem(null);
    onClose();
  };

  const submit = () => {
    const invalid = firstInvalidField(fields, values);
    setProblem(invalid);
    if (invalid !== null) return;
    const sent = Object.fromEntries(fields.map((f) => [f.name, (values[f.name] ?? '').trim()]));
    void run(async () => {
      try {
        const response = await api.post<BrokerSessionResponse>(submitPath, { fields: sent });
        toastSuccess('Broker Connected', response.message);
        await onConnected(response);
        close();
      } finally {
        // A TOTP is good for one login attempt: never leave it in the form.
        setValues((v) => Object.fromEntries(Object.entries(v).filter(([k]) => k !== 'totp')));
      }
    });
  };

  return (
    <Modal
      opened={opened}
      onClose={close}
      title={`Log in to ${brokerLabel}`}
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            {brokerLabel} asks for these each day. They go straight to {brokerLabel} and are never stored.
          </Text>
          {fields.map((field) => {
            const common = {
              label: field.label,
              description: field.hint,
              value: values[field.name] ?? '',
              required: true,
              autoComplete: field.kind === 'otp' ? 'one-time-code' : 'off',
              onChange: (event: React.ChangeEvent<HTMLInputElement>) => {
                const value = event.currentTarget.value;
                setValues((v) => ({ ...v, [field.name]: value }));
              },
            };
            return field.kind === 'secret' ? (
              <PasswordInput key={field.name} {...common} />
            ) : (
              <TextInput
                key={field.name}
                {...common}
                inputMode={field.kind === 'otp' ? 'numeric' : undefined}
              />
            );
          })}
          {problem && (
            <Text size="sm" c="red" role="alert">
              {problem}
            </Text>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={busy}>
              Log in
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
