// The fake Telegram Bot API in a process of its own, for the notify bench (IPC: test/load/fakeProcess.ts): its
// work (parsing 1,000 sendMessage calls, counting its rate window) stays off the event loop being measured, as
// Telegram is on other machines. The child knows `chats` chats from 10,000 on (each wrote "hello" to the bot before
// it started; those updates are confirmed already, so the bot never answers them) and refuses (429) more than 30 messages in a second or two to one chat within 1 s.
import { fileURLToPath } from 'node:url';
import { startFakeTelegram } from '../../test/fakes/telegram/server';
import { fakeChildFillPrice, forkFakeProcess, serveFakeProcess } from '../../test/load/fakeProcess';

export const FIRST_CHAT_ID = 10_000;

export interface TelegramFakeStats {
  /** messages accepted */
  readonly sent: number;
  /** chats that received at least one message */
  readonly chats: number;
  /** epoch ms of the first and the last accepted message (0 before any) */
  readonly firstAt: number;
  readonly lastAt: number;
  /** sendMessage calls refused with 429 */
  readonly rateLimited: number;
  /** the most messages accepted within any 1 s */
  readonly busiestSecond: number;
}

export interface TelegramFakeProcess {
  readonly url: string;
  readonly token: string;
  stats(): Promise<TelegramFakeStats>;
  /** polls until `count` messages were accepted; resolves with the last stats after `timeoutMs` either way */
  waitForSent(count: number, timeoutMs: number): Promise<TelegramFakeStats>;
  close(): Promise<void>;
}

/** Forks this file with `chats` known chats; resolves once the fake listens. */
export async function startTelegramFakeProcess(chats: number): Promise<TelegramFakeProcess> {
  // forkFakeProcess's number argument is a broker fake's fill price; here it carries the number of chats.
  const fake = await forkFakeProcess<{ url: string; token: string }>(
    fileURLToPath(import.meta.url),
    'Telegram',
    chats,
  );
  const stats = () => fake.ask<TelegramFakeStats>({ type: 'stats' });
  return {
    url: fake.ready.url,
    token: fake.ready.token,
    stats,
    async waitForSent(count, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const now = await stats();
        if (now.sent >= count || Date.now() > deadline) return now;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    close: () => fake.close(),
  };
}

async function runChild(chats: number): Promise<void> {
  const fake = await startFakeTelegram({ maxPerSecond: 30, minChatIntervalMs: 1000 });
  let last = 0;
  for (let i = 0; i < chats; i += 1) last = fake.sendText({ id: FIRST_CHAT_ID + i }, 'hello');
  // Confirm those messages as a poller would, so the bot under test never sees (and answers) them: its only
  // messages are the notifications.
  await fetch(`${fake.url}/bot${fake.token}/getUpdates`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ offset: last + 1, timeout: 0 }),
  });
  await fake.waitForConfirmed(5_000);
  serveFakeProcess(
    { url: fake.url, token: fake.token },
    (): TelegramFakeStats => {
      const times = fake.sent.map((m) => m.at);
      let busiestSecond = 0;
      for (let i = 0, j = 0; i < times.length; i += 1) {
        while ((times[j] ?? 0) <= (times[i] ?? 0) - 1000) j += 1;
        busiestSecond = Math.max(busiestSecond, i - j + 1);
      }
      return {
        sent: fake.sent.length,
        chats: new Set(fake.sent.map((m) => m.chatId)).size,
        firstAt: times[0] ?? 0,
        lastAt: times[times.length - 1] ?? 0,
        rateLimited: fake.rateLimited,
        busiestSecond,
      };
    },
    () => fake.close(),
  );
}

const chats = fakeChildFillPrice();
if (chats !== undefined) await runChild(chats);
