// What a trader sets up at the broker before connecting (issue 18 item 8: shown first, since the broker app that
// issues the API key needs the redirect URL and the whitelisted IP): where to create the app, the redirect URL
// (and postback URL) to register with Copy, the server's static IP to whitelist, and when sessions end. Every
// value comes from the server's description of the broker (GET /api/brokers).
import { Anchor, Button, Code, Group, List, Stack, Text } from '@mantine/core';
import type { BrokerSetupDto } from '@optionpilot/server/contract';
import { browser } from '../../lib/browser';
import { toastError, toastSuccess } from '../../lib/toast';

async function copy(text: string): Promise<void> {
  try {
    await browser.copyText(text);
    toastSuccess('Copied!');
  } catch {
    toastError('Error', 'Could not copy: select the text and copy it by hand.');
  }
}

function CopyLine({ name, value }: { name: string; value: string }) {
  return (
    <Group gap="xs" wrap="wrap">
      <Text size="sm">Register this {name} in the app:</Text>
      <Code style={{ wordBreak: 'break-all' }}>{value}</Code>
      <Button size="compact-xs" variant="subtle" onClick={() => void copy(value)} aria-label={`Copy ${name}`}>
        Copy
      </Button>
    </Group>
  );
}

export function BrokerSetupSteps({
  brokerLabel,
  setup,
  egressIp,
}: {
  brokerLabel: string;
  setup: BrokerSetupDto;
  egressIp: string | null;
}) {
  return (
    <Stack gap={6} aria-label={`${brokerLabel} setup`}>
      <Text size="sm" fw={600}>
        Before you connect: set up your {brokerLabel} API app
      </Text>
      <List size="sm" type="ordered" spacing={4}>
        <List.Item>
          Create an API app at{' '}
          <Anchor href={setup.portal.url} target="_blank" rel="noreferrer">
            {setup.portal.name}
          </Anchor>
          .
        </List.Item>
        {setup.redirectUrl && (
          <List.Item>
            <CopyLine name="redirect URL" value={setup.redirectUrl} />
          </List.Item>
        )}
        {setup.postbackUrl && (
          <List.Item>
            <CopyLine name="postback URL" value={setup.postbackUrl} />
          </List.Item>
        )}
        <List.Item>
          <Text size="sm" aria-label="Static IP">
            {egressIp
              ? `Whitelist this server's static IP in the app: ${egressIp}`
              : "Brokers accept API orders only from a whitelisted static IP: ask this server's operator for it."}
          </Text>
        </List.Item>
        <List.Item>
          Enter the app&apos;s {setup.credentialLabels.apiKey} and {setup.credentialLabels.apiSecret} below.{' '}
          {brokerLabel} ends sessions daily at {setup.sessionEnds}: you log in again each trading day.
        </List.Item>
        {setup.notes.map((note) => (
          <List.Item key={note}>{note}</List.Item>
        ))}
      </List>
    </Stack>
  );
}
