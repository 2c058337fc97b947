// Settings → Telegram: link the trader's Telegram chat with a one-time code (the t.me deep link sends
// `/start <code>` to the bot in one tap), see which chat is linked, unlink it. The bot itself answers in the chat;
// this card only asks the server for a code and shows the link state (GET again with "I've sent it").
import { useState } from 'react';
import { Alert, Anchor, Button, Card, Code, Group, Loader, Stack, Text, Title } from '@mantine/core';
import type { TelegramLinkCodeDto, TelegramLinkDto } from '@optionpilot/server/contract';
import { api } from '../../../api/client';
import { formatIstDateTime } from '../../../lib/format';
import { toastSuccess } from '../../../lib/toast';
import { useSubmit } from '../../../lib/useSubmit';
import { useApiData } from '../useApiData';

export const telegramApi = {
  state: () => api.get<TelegramLinkDto>('/api/user/telegram'),
  linkCode: () => api.post<TelegramLinkCodeDto>('/api/user/telegram/link-code', {}),
  unlink: () => api.delete<TelegramLinkDto>('/api/user/telegram/link'),
};

export function TelegramLink() {
  const loaded = useApiData(telegramApi.state);
  const [code, setCode] = useState<TelegramLinkCodeDto | null>(null);
  const { busy, run } = useSubmit({ title: 'Telegram', message: 'That did not work. Please try again.' });
  const state = loaded.data;

  const askForCode = () =>
    run(async () => {
      setCode(await telegramApi.linkCode());
    });

  const unlink = () =>
    run(async () => {
      loaded.setData(await telegramApi.unlink());
      setCode(null);
      toastSuccess('Telegram unlinked', 'That chat gets no more notifications.');
    });

  const checkLinked = () => {
    setCode(null);
    loaded.reload();
  };

  return (
    <Card withBorder padding="lg">
      <Stack gap="sm">
        <div>
          <Title order={4}>Telegram</Title>
          <Text size="sm" c="dimmed">
            Notifications in your Telegram chat, and /status, /positions, /pnl, /pause and /resume for your
            own bot.
          </Text>
        </div>
        {loaded.error !== null && state === undefined ? (
          <Alert color="red" title="Could not load your Telegram link">
            {loaded.error}{' '}
            <Button variant="subtle" size="compact-sm" onClick={loaded.reload}>
              Try again
            </Button>
          </Alert>
        ) : state === undefined ? (
          <Group justify="center">
            <Loader size="sm" aria-label="Loading Telegram link" />
          </Group>
        ) : !state.available ? (
          <Text size="sm">Telegram is not set up on this server.</Text>
        ) : state.linked ? (
          <Group justify="space-between">
            <Text size="sm">
              Linked{state.username === null ? '' : ` to @${state.username}`}
              {state.linkedAt === null ? '' : ` since ${formatIstDateTime(state.linkedAt)}`}.
            </Text>
            <Button variant="light" color="red" loading={busy} onClick={() => void unlink()}>
              Unlink
            </Button>
          </Group>
        ) : code === null ? (
          <Group justify="space-between">
            <Text size="sm">Not linked.</Text>
            <Button loading={busy} onClick={() => void askForCode()}>
              Link Telegram
            </Button>
          </Group>
        ) : (
          <Stack gap="xs">
            <Text size="sm">
              <Anchor href={code.deepLink} target="_blank" rel="noopener noreferrer">
                Open Telegram to link
              </Anchor>{' '}
              (on the device where you use Telegram), or send <Code>/start {code.code}</Code> to @
              {code.botUsername}.
            </Text>
            <Text size="sm" c="dimmed">
              The code works once, until {formatIstDateTime(code.expiresAt)}.
            </Text>
            <Group>
              <Button variant="light" onClick={checkLinked}>
                I&apos;ve sent it
              </Button>
              <Button variant="subtle" loading={busy} onClick={() => void askForCode()}>
                New code
              </Button>
            </Group>
          </Stack>
        )}
      </Stack>
    </Card>
  );
}
