// The Telegram channel end to end: a real server, the real grammY bot (throttler and auto-retry installed) long-
// polling the fake Bot API (test/fakes/telegram), traders linking chats with codes from the REST API, commands
// acting on their own bot only, and notifications delivered, refused and retried as Telegram answers.
import { createScaledScheduler } from '@optionpilot/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeTelegram, type FakeChat, type FakeTelegram } from '../../../../test/fakes/telegram/server';
import { insertTrade, listLogs, type NewTrade } from '../../db';
import { testDialects } from '../../db/testing';
import { registration, startTestServer, type TestServer } from '../../testing/server';
import { PermanentDeliveryError, type NotificationRecipient, type RenderedNotification } from '../types';
import { createTelegramChannel, telegramChannelFromConfig, type TelegramChannel } from './telegram';
import { findLinkByUser, LINK_CODE_TTL_MS } from './telegramLinks';
import {
  LINKED_REPLY,
  LINK_REFUSED_REPLIES,
  NOT_LINKED_REPLY,
  PRIVATE_ONLY_REPLY,
  UNLINKED_REPLY,
} from './telegramReplies';

// 11:30 IST on Tuesday 6 Jan 2026: "today" (IST) started at 18:30 UTC on 5 Jan.
const NOW = Date.UTC(2026, 0, 6, 6, 0);
const HOUR = 3_600_000;

const message = (overrides: Partial<RenderedNotification> = {}): RenderedNotification => ({
  outboxId: 1,
  event: 'trade_closed',
  title: 'Trade closed: NIFTY 24000 CE',
  text: 'Exit at target. P&L +₹1,500.00 <after charges>',
  html: '<p>unused by Telegram</p>',
  path: '/dashboard',
  essential: false,
  ...overrides,
});

describe.each(testDialects())('Telegram channel (%s)', (dialect) => {
  let fake: FakeTelegram;
  let t: TestServer;
  let channel: TelegramChannel;
  let alice: { token: string; id: number };
  let bob: { token: string; id: number };
  const aliceChat: FakeChat = { id: 5001, username: 'alice_tg' };
  const bobChat: FakeChat = { id: 5002, username: 'bob_tg' };
  let nextChat = 6000;
  const freshChat = (): FakeChat => ({ id: nextChat++ });

  const signUp = async (n: string) => {
    const res = await t.request('POST', '/api/auth/register', { body: registration(`tg-${n}`) });
    expect(res.status).toBe(201);
    return { token: res.json.token as string, id: (res.json.user as { id: number }).id };
  };
  const recipient = (user: { id: number }): NotificationRecipient => ({
    userId: user.id,
    email: 'x@example.com',
    name: 'Asha',
    unsubscribeUrl: 'http://127.0.0.1/unsubscribe',
  });

  /** The chat sends `text`; resolves with the bot's reply to it. */
  const ask = async (chat: FakeChat, text: string): Promise<string> => {
    const before = fake.messagesTo(chat.id).length;
    fake.sendText(chat, text);
    const replies = await fake.waitForMessages(chat.id, before + 1);
    return replies[before]?.text ?? '';
  };
  const linkCode = async (user: { token: string }) => {
    const res = await t.request('POST', '/api/user/telegram/link-code', { token: user.token, body: {} });
    expect(res.status).toBe(201);
    return res.json as { code: string; deepLink: string; botUsername: string; expiresAt: string };
  };
  const link = async (user: { token: string }, chat: FakeChat) => {
    const { code } = await linkCode(user);
    expect(await ask(chat, `/start ${code}`)).toBe(LINKED_REPLY);
  };
  const linkState = async (user: { token: string }) =>
    (await t.request('GET', '/api/user/telegram', { token: user.token })).json;
  const botStatus = async (user: { token: string }) =>
    (await t.request('GET', '/api/user/bot-status', { token: user.token })).json as {
      enabled: boolean;
      isRunning: boolean;
    };
  const switchBot = async (user: { token: string }, enabled: boolean) => {
    const res = await t.request('PUT', '/api/user/bot', { token: user.token, body: { enabled } });
    expect(res.status).toBe(200);
  };

  beforeAll(async () => {
    fake = await startFakeTelegram();
    t = await startTestServer({
      dialect,
      env: { TELEGRAM_BOT_TOKEN: fake.token, TELEGRAM_API_ROOT: fake.url },
      overrides: { trading: { scheduler: createScaledScheduler({ speed: 1, startAt: NOW }) } },
    });
    t.clock.set(NOW);
    alice = await signUp('alice');
    bob = await signUp('bob');
    const made = telegramChannelFromConfig(t.config, t.server.deps);
    if (made === null) throw new Error('TELEGRAM_BOT_TOKEN is set: a channel was expected');
    channel = made;
    await channel.listen();
  });
  afterAll(async () => {
    await channel.close();
    await t.close();
    await fake.close();
  });

  it('is not made without TELEGRAM_BOT_TOKEN', () => {
    expect(telegramChannelFromConfig({ ...t.config, telegram: undefined }, t.server.deps)).toBeNull();
  });

  describe('linking with a one-time code', () => {
    it('links the chat that sends /start <code>, once; the code and deep link come from Settings', async () => {
      const code = await linkCode(alice);
      expect(code.code).toMatch(/^[A-Z2-9]{10}$/);
      expect(code.botUsername).toBe(fake.botUsername);
      expect(code.deepLink).toBe(`https://t.me/${fake.botUsername}?start=${code.code}`);
      expect(Date.parse(code.expiresAt)).toBe(NOW + LINK_CODE_TTL_MS);
      expect(await linkState(alice)).toMatchObject({ available: true, linked: false });

      expect(await ask(aliceChat, `/start ${code.code}`)).toBe(LINKED_REPLY);
      expect(await linkState(alice)).toMatchObject({
        available: true,
        linked: true,
        username: 'alice_tg',
        linkedAt: new Date(NOW).toISOString(),
      });
      // The same code from another chat links nothing.
      const intruder = freshChat();
      expect(await ask(intruder, `/start ${code.code}`)).toBe(LINK_REFUSED_REPLIES.used);
      expect((await findLinkByUser(t.server.deps.db.knex, alice.id))?.chat_id).toBe(String(aliceChat.id));
      expect(await ask(intruder, '/status')).toBe(NOT_LINKED_REPLY);
      const audit = await listLogs(t.server.deps.db.knex, { userId: alice.id });
      expect(audit.map((l) => l.description)).toContain('Telegram chat linked');
    });

    it('refuses an expired code and an unknown one, and only the newest code of a trader links', async () => {
      const chat = freshChat();
      const stale = await linkCode(bob);
      t.clock.set(NOW + LINK_CODE_TTL_MS + 1);
      try {
        expect(await ask(chat, `/start ${stale.code}`)).toBe(LINK_REFUSED_REPLIES.expired);
      } finally {
        t.clock.set(NOW);
      }
      expect(await ask(chat, '/start ABCDEFGHJK')).toBe(LINK_REFUSED_REPLIES.unknown);
      const first = await linkCode(bob);
      await linkCode(bob);
      expect(await ask(chat, `/start ${first.code}`)).toBe(LINK_REFUSED_REPLIES.unknown);
      expect(await linkState(bob)).toMatchObject({ linked: false });
      await link(bob, bobChat);
      expect(await linkState(bob)).toMatchObject({ linked: true, username: 'bob_tg' });
    });
  });

  describe('commands act on the linked trader only', () => {
    it('/pause from a linked chat stops that trader’s bot and no other; /resume starts it again', async () => {
      await switchBot(alice, true);
      await switchBot(bob, true);
      const bobBefore = await botStatus(bob);

      expect(await ask(aliceChat, '/pause')).toMatch(/^Paused: your bot takes no new trades/);
      expect(await botStatus(alice)).toMatchObject({ enabled: false, isRunning: false });
      expect(await botStatus(bob)).toEqual(bobBefore);
      // The dashboard's own command ran: its audit entry, by the trader.
      const [latest] = await listLogs(t.server.deps.db.knex, { userId: alice.id, eventType: 'trade' });
      expect(latest).toMatchObject({
        description: 'Algo trading switched off by the user',
        actor_id: alice.id,
      });

      expect(await ask(aliceChat, '/resume')).toMatch(/switch is on|Resumed/);
      expect(await botStatus(alice)).toMatchObject({ enabled: true });
      expect(await botStatus(bob)).toEqual(bobBefore);
    });

    it('a chat that is not linked is told to link first and acts on nothing', async () => {
      const before = [await botStatus(alice), await botStatus(bob)];
      // One chat each: replies to one chat are a second apart.
      const replies = await Promise.all(
        ['/pause', '/resume', '/status', '/positions', '/pnl', '/unlink'].map((command) =>
          ask(freshChat(), command),
        ),
      );
      expect(replies).toEqual(replies.map(() => NOT_LINKED_REPLY));
      expect([await botStatus(alice), await botStatus(bob)]).toEqual(before);
    });

    it('a group chat gets no command answered, even one whose id matches a linked trader’s chat', async () => {
      const group: FakeChat = { id: -aliceChat.id, type: 'group' };
      const before = await botStatus(alice);
      expect(await ask(group, '/pause')).toBe(PRIVATE_ONLY_REPLY);
      expect(await ask(group, `/start ${(await linkCode(bob)).code}`)).toBe(PRIVATE_ONLY_REPLY);
      expect(await botStatus(alice)).toEqual(before);
      expect(await findLinkByUser(t.server.deps.db.knex, bob.id)).toMatchObject({
        chat_id: String(bobChat.id),
      });
    });

    it('/status, /positions and /pnl show the trader’s own figures', async () => {
      const db = t.server.deps.db.knex;
      const trade = (userId: number, overrides: Partial<NewTrade> = {}): NewTrade => ({
        user_id: userId,
        signal_id: null,
        symbol: 'NIFTY06JAN2624000CE',
        instrument: 'NIFTY 24000 CE',
        trade_type: 'CALL',
        option_type: 'CE',
        strike_x100: 2_400_000,
        expiry_at: NOW + 6 * HOUR,
        lots: 1,
        quantity: 65,
        entry_price_paise: 12_050,
        stop_loss_paise: 10_050,
        target_paise: 16_050,
        paper: true,
        risk_state: null,
        opened_at: NOW - HOUR,
        ...overrides,
      });
      await insertTrade(db, trade(alice.id));
      const closed = await insertTrade(db, trade(alice.id, { opened_at: NOW - 2 * HOUR }), NOW - 2 * HOUR);
      await db('trades')
        .where({ id: closed.id })
        .update({ status: 'closed', exit_price_paise: 16_050, pnl_paise: 150_000, closed_at: NOW - HOUR });
      await t.server.deps.trading.onUserChanged(alice.id);

      const status = await ask(aliceChat, '/status');
      expect(status).toContain('Mode: paper trading');
      expect(status).toContain('Broker: none saved');
      expect(status).toContain('Your switch: on');

      const positions = await ask(aliceChat, '/positions');
      expect(positions).toContain('Open positions (1):');
      expect(positions).toContain('NIFTY 24000 CE (CALL), 65 qty, paper');
      expect(positions).toContain('Entry ₹120.50 · Stop ₹100.50 · Target ₹160.50');
      expect(await ask(bobChat, '/positions')).toBe('No open positions.');

      const pnl = await ask(aliceChat, '/pnl');
      expect(pnl).toContain('Closed today: +₹1,500.00 after charges');
      expect(await ask(bobChat, '/pnl')).toContain('Closed today: ₹0.00 after charges');
    });
  });

  describe('delivering notifications', () => {
    it('sends the title and escaped text to the linked chat; no chat is no_address', async () => {
      const outcome = await channel.deliver(recipient(alice), message());
      expect(outcome.status).toBe('sent');
      const [last] = fake.messagesTo(aliceChat.id).slice(-1);
      expect(last?.parseMode).toBe('HTML');
      expect(last?.text).toBe(
        `<b>Trade closed: NIFTY 24000 CE</b>\nExit at target. P&amp;L +₹1,500.00 &lt;after charges&gt;\n\n${t.config.publicUrl}/dashboard`,
      );
      const nobody = await signUp('nobody');
      expect(await channel.deliver(recipient(nobody), message())).toEqual({ status: 'no_address' });
    });

    it('a 429 is waited out as Telegram asks and the message goes once', async () => {
      const sentBefore = fake.messagesTo(bobChat.id).length;
      const limitedBefore = fake.rateLimited;
      fake.rateLimitNext(1, 1);
      expect((await channel.deliver(recipient(bob), message())).status).toBe('sent');
      expect(fake.rateLimited).toBe(limitedBefore + 1);
      expect(fake.messagesTo(bobChat.id)).toHaveLength(sentBefore + 1);
    });

    it('a server error is thrown for the sender to retry, and the chat stays linked', async () => {
      fake.failNext(502);
      const error = await channel.deliver(recipient(bob), message()).catch((err: unknown) => err);
      expect(error).toBeInstanceOf(Error);
      expect(error).not.toBeInstanceOf(PermanentDeliveryError);
      expect((error as Error).message).toContain('502');
      expect(await linkState(bob)).toMatchObject({ linked: true });
    });

    it('keeps one chat to one message a second (the throttler’s per-chat queue)', async () => {
      const before = fake.messagesTo(bobChat.id).length;
      await Promise.all([1, 2, 3].map((n) => channel.deliver(recipient(bob), message({ outboxId: n }))));
      const times = fake
        .messagesTo(bobChat.id)
        .slice(before)
        .map((m) => m.at);
      expect(times).toHaveLength(3);
      for (let i = 1; i < times.length; i += 1) {
        expect((times[i] ?? 0) - (times[i - 1] ?? 0)).toBeGreaterThanOrEqual(950);
      }
    });

    it('a chat that blocked the bot is unlinked and the failure is permanent', async () => {
      fake.block(bobChat.id);
      const error = await channel.deliver(recipient(bob), message()).catch((err: unknown) => err);
      expect(error).toBeInstanceOf(PermanentDeliveryError);
      expect((error as Error).message).toContain('403');
      expect(await linkState(bob)).toMatchObject({ linked: false });
      expect(await channel.deliver(recipient(bob), message())).toEqual({ status: 'no_address' });
      const audit = await listLogs(t.server.deps.db.knex, { userId: bob.id });
      expect(audit.map((l) => l.description)).toContain('Telegram chat unlinked: the user blocked the bot');
    });

    it('a chat that no longer exists is unlinked and the failure is permanent', async () => {
      const chat = freshChat();
      const carol = await signUp('carol');
      await link(carol, chat);
      fake.forget(chat.id);
      const error = await channel.deliver(recipient(carol), message()).catch((err: unknown) => err);
      expect(error).toBeInstanceOf(PermanentDeliveryError);
      expect(await linkState(carol)).toMatchObject({ linked: false });
    });
  });

  describe('unlinking from either side', () => {
    it('/unlink in the chat ends the link; its commands then act on nothing', async () => {
      const chat = freshChat();
      const dev = await signUp('dev');
      await link(dev, chat);
      expect(await ask(chat, '/unlink')).toBe(UNLINKED_REPLY);
      expect(await linkState(dev)).toMatchObject({ linked: false });
      expect(await ask(chat, '/pause')).toBe(NOT_LINKED_REPLY);
    });

    it('Unlink in Settings ends the link; the chat is no longer an address', async () => {
      expect(await linkState(alice)).toMatchObject({ linked: true });
      const res = await t.request('DELETE', '/api/user/telegram/link', { token: alice.token });
      expect(res.status).toBe(200);
      expect(res.json).toMatchObject({ linked: false, username: null });
      expect(await channel.deliver(recipient(alice), message())).toEqual({ status: 'no_address' });
      expect(await ask(aliceChat, '/pnl')).toBe(NOT_LINKED_REPLY);
    });
  });

  it('polls only while listening: a command sent while stopped is answered once it listens again', async () => {
    // A bot of its own (a second fake): the server's channel polls the first, and one token takes one poller.
    const own = await startFakeTelegram();
    const bot = createTelegramChannel({
      settings: { botToken: own.token, apiRoot: own.url },
      deps: t.server.deps,
      pollTimeoutSeconds: 1,
    });
    try {
      await bot.listen();
      const chat = freshChat();
      own.sendText(chat, '/status');
      expect((await own.waitForMessages(chat.id, 1))[0]?.text).toBe(NOT_LINKED_REPLY);

      // Leadership moved elsewhere: no poll, so the next command waits for whoever listens next.
      await bot.stopListening();
      own.sendText(chat, '/pnl');
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(own.messagesTo(chat.id)).toHaveLength(1);

      await bot.listen();
      expect((await own.waitForMessages(chat.id, 2))[1]?.text).toBe(NOT_LINKED_REPLY);
    } finally {
      await bot.close();
      await own.close();
    }
  });

  it('never writes the bot token to the logs', async () => {
    await fake.waitForConfirmed();
    expect(t.logs.join('\n')).not.toContain(fake.token.split(':')[1]);
  });
});
