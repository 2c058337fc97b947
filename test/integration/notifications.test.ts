// Issue 20 end to end: notices that arrive. A real server (real SQLite, real HTTP, the scripted market of
// scriptedServer.ts) with its configured channels pointed at the three fakes — SMTP (test/fakes/smtp), the Telegram
// Bot API (test/fakes/telegram) and a Web Push service (test/fakes/push) — so the e-mail, the Telegram message and
// the encrypted push are what a trader would really get. The trader is set up the way the product does it: a
// Telegram chat linked with a code from POST /api/user/telegram/link-code and `/start <code>` from the chat, a push
// subscription POSTed as a browser would. Expected figures come from the trade row in the database.
//
// Trading wakes the sender after a trade's commit, so the tests wait for the notices (well inside the sender's
// 10 s poll) until the outbox has nothing pending for the trader; a `notifications.drainOnce()` after that (the
// lanes' own claim-and-send path) shows nothing more was due: counts are exact, not "at least".
import type { Agent } from 'node:https';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { listTrades, saveTradingSettings, updateUser, type TradeRow } from '@optionpilot/server/db/index';
import { jsonClient, registration } from '@optionpilot/server/testing/server';
import { startFakePushService, type FakePushService } from '../fakes/push/server';
import { startFakeSmtp, type FakeSmtp } from '../fakes/smtp/server';
import { startFakeTelegram, type FakeTelegram } from '../fakes/telegram/server';
import {
  callSetup,
  closeHarnesses,
  dataDir,
  MINUTE,
  startHarness,
  SYMBOL,
  T0,
  type Harness,
} from './scriptedServer';

let smtp: FakeSmtp;
let telegram: FakeTelegram;
let push: FakePushService;
let agent: Agent;
let nextChat = 91_001;

beforeAll(async () => {
  [smtp, telegram, push] = await Promise.all([startFakeSmtp(), startFakeTelegram(), startFakePushService()]);
  agent = push.agent();
});
afterAll(async () => {
  agent.destroy();
  await Promise.all([smtp.close(), telegram.close(), push.close()]);
});
afterEach(async () => {
  await closeHarnesses();
  smtp.reset();
});

const start = (dir: string, startAt: number, premium: number) =>
  startHarness(
    dir,
    startAt,
    premium,
    { SMTP_URL: smtp.url, TELEGRAM_BOT_TOKEN: telegram.token, TELEGRAM_API_ROOT: telegram.url },
    false,
    { pushAgent: agent },
  );

interface Trader {
  id: number;
  email: string;
  token: string;
  chatId: number;
  /** the fake push service's id of the trader's browser subscription */
  pushId: string;
}

/** Signs up over HTTP, with an active subscription and the bot switch as given (as scriptedServer's addUser). */
async function signUp(h: Harness, name: string, bot: boolean) {
  const api = jsonClient(h.server.url);
  const body = registration(`-notify-${name}`);
  const res = await api('POST', '/api/auth/register', { body });
  expect(res.status).toBe(201);
  const id = (res.json.user as { id: number }).id;
  const knex = h.server.deps.db.knex;
  await updateUser(knex, id, {
    subscription_status: 'active',
    subscription_start_at: T0 - 86_400_000,
    subscription_end_at: Date.UTC(2099, 0, 1),
  });
  await saveTradingSettings(knex, id, { bot_enabled: bot, target_points: 40, trade_quantity: 1 });
  await h.server.deps.trading.onUserChanged(id);
  return { id, email: body.email, token: res.json.token as string };
}

/** A trader with all three channels: e-mail (the sign-up address), a linked Telegram chat, a push subscription. */
async function traderWithChannels(h: Harness, name: string): Promise<Trader> {
  const user = await signUp(h, name, true);
  const api = jsonClient(h.server.url);
  const code = await api('POST', '/api/user/telegram/link-code', { token: user.token, body: {} });
  expect(code.status).toBe(201);
  const chatId = nextChat++;
  telegram.sendText({ id: chatId, username: `${name}_tg` }, `/start ${code.json.code as string}`);
  const [linked] = await telegram.waitForMessages(chatId, 1);
  expect(linked?.text).toMatch(/linked/i);
  const subscription = push.subscribe();
  const saved = await api('POST', '/api/user/push/subscriptions', { token: user.token, body: subscription });
  expect(saved.status).toBeLessThan(300);
  return { ...user, chatId, pushId: subscription.endpoint.split('/').at(-1) as string };
}

/** What reached each channel for the trader, in arrival order (the Telegram link reply left out). */
function arrived(trader: Trader) {
  return {
    email: smtp.messages
      .filter((m) => m.envelope.to.includes(trader.email))
      .map((m) => `${m.subject}\n${m.text}`),
    telegram: telegram
      .messagesTo(trader.chatId)
      .slice(1)
      // HTML parse mode: read as the chat shows it
      .map((m) => m.text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&')),
    push: push.received
      .filter((p) => p.subscriptionId === trader.pushId)
      .map((p) => {
        const body = JSON.parse(p.payload) as { title: string; body: string };
        return `${body.title}\n${body.body}`;
      }),
  };
}

/**
 * Rupees the way an Indian reader writes them, worked out here rather than with the product's formatter:
 * 1234567.5 → ₹12,34,567.50 (the last three digits, then pairs).
 */
function inr(paise: number): string {
  const abs = Math.abs(paise);
  const whole = String(Math.floor(abs / 100));
  const head = whole.slice(0, -3);
  const grouped = head === '' ? whole : `${head.replace(/\B(?=(\d{2})+$)/g, ',')},${whole.slice(-3)}`;
  return `${paise < 0 ? '-' : ''}₹${grouped}.${String(abs % 100).padStart(2, '0')}`;
}
const signedInr = (paise: number) => (paise > 0 ? `+${inr(paise)}` : inr(paise));

/** The figures a trade_opened / trade_closed notice must carry, from the trade row. */
function openedFigures(row: TradeRow): string[] {
  return [row.symbol, `Quantity: ${row.quantity}`, `Entry price: ${inr(row.entry_price_paise)}`];
}
function closedFigures(row: TradeRow): string[] {
  return [
    ...openedFigures(row),
    `Exit price: ${inr(row.exit_price_paise as number)}`,
    `P&L after charges: ${signedInr(row.pnl_paise as number)}`,
  ];
}
const expectFigures = (text: string | undefined, figures: string[]) => {
  for (const figure of figures) expect(text).toContain(figure);
};

interface DeliveryRow {
  event: string;
  channel: string;
  status: string;
  attempts: number;
}
async function deliveries(h: Harness, userId: number): Promise<DeliveryRow[]> {
  return (await h.server.deps.db
    .knex('notification_deliveries as d')
    .join('notification_outbox as o', 'o.id', 'd.outbox_id')
    .where('o.user_id', userId)
    .orderBy('d.id')
    .select('o.event', 'd.channel', 'd.status', 'd.attempts')) as DeliveryRow[];
}

async function until(what: string, done: () => boolean | Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Every notice of the user settled on every channel (none pending in the outbox). */
async function settled(h: Harness, userId: number): Promise<boolean> {
  const pending = await h.server.deps.db
    .knex('notification_outbox')
    .where({ user_id: userId, status: 'pending' })
    .count({ n: '*' });
  return Number(pending[0]?.n) === 0;
}

describe('notifications end to end (e-mail, Telegram, push)', () => {
  it('a paper trade sends one e-mail, one Telegram message and one push per event, with the trade row’s figures; /pause stops only that trader’s bot', async () => {
    const h = await start(dataDir(), T0 - 1_000, 100);
    const trader = await traderWithChannels(h, 'asha');
    const other = await signUp(h, 'other', true);
    const knex = h.server.deps.db.knex;
    const notifications = h.server.deps.notifications;

    const all = (count: number) => () => {
      const got = arrived(trader);
      return got.email.length >= count && got.telegram.length >= count && got.push.length >= count;
    };
    await callSetup(h);
    await until('the trade_opened notices, woken by the trade', all(1));
    await until('every delivery settled', () => settled(h, trader.id));
    await notifications.drainOnce();
    const [opened] = await listTrades(knex, { userId: trader.id });
    expect(opened).toMatchObject({ status: 'open', symbol: SYMBOL });
    const afterOpen = arrived(trader);
    for (const channel of ['email', 'telegram', 'push'] as const) {
      expect(afterOpen[channel], channel).toHaveLength(1);
      expect(afterOpen[channel][0], channel).toMatch(/trade opened/i);
      expectFigures(afterOpen[channel][0], openedFigures(opened as TradeRow));
    }

    await h.premium(141); // the 40-point target
    await until('the trade_closed notices, woken by the close', all(2));
    await until('every delivery settled', () => settled(h, trader.id));
    await notifications.drainOnce();
    const [closed] = await listTrades(knex, { userId: trader.id });
    expect(closed).toMatchObject({ status: 'closed', exit_reason: 'target' });
    const afterClose = arrived(trader);
    for (const channel of ['email', 'telegram', 'push'] as const) {
      expect(afterClose[channel], channel).toHaveLength(2);
      expect(afterClose[channel][1], channel).toMatch(/trade closed/i);
      expectFigures(afterClose[channel][1], closedFigures(closed as TradeRow));
    }
    // The Telegram message names where to look once (it used to repeat the link render.ts already ends with).
    expect(afterClose.telegram[1]?.split('/dashboard')).toHaveLength(2);
    const rows = await deliveries(h, trader.id);
    expect(rows).toHaveLength(6);
    expect(rows.every((r) => r.status === 'sent' && r.attempts === 1)).toBe(true);
    // The other trader traded the same signal; with no chat or subscription only its e-mails went out.
    expect(smtp.messages.filter((m) => m.envelope.to.includes(other.email))).toHaveLength(2);

    // /pause from the linked chat (here the server's own configured bot, unlike the channel-level test in
    // server/src/notifications/channels/telegram.test.ts) stops this trader's bot and no other.
    expect(await h.server.deps.trading.botStatus(trader.id)).toMatchObject({ isRunning: true });
    const otherBefore = await h.server.deps.trading.botStatus(other.id);
    telegram.sendText({ id: trader.chatId }, '/pause');
    const replies = await telegram.waitForMessages(trader.chatId, 4);
    expect(replies[3]?.text).toMatch(/^Paused/);
    expect(await h.server.deps.trading.botStatus(trader.id)).toMatchObject({ isRunning: false });
    expect(await h.server.deps.trading.botStatus(other.id)).toEqual(otherBefore);
    expect(otherBefore).toMatchObject({ isRunning: true });
  });

  it('an event switched off on one channel is not sent there (delivery row "off") and still goes to the others', async () => {
    const h = await start(dataDir(), T0 - 1_000, 100);
    const trader = await traderWithChannels(h, 'bela');
    const off = await jsonClient(h.server.url)('PUT', '/api/user/notifications', {
      token: trader.token,
      body: { changes: [{ event: 'trade_closed', channel: 'telegram', enabled: false }] },
    });
    expect(off.status).toBe(200);

    await callSetup(h);
    await h.premium(141);
    await h.server.deps.notifications.drainOnce();
    // the trade's wake may hold some attempts the drain left to it
    await until('every delivery settled', () => settled(h, trader.id));
    const [closed] = await listTrades(h.server.deps.db.knex, { userId: trader.id });
    expect(closed).toMatchObject({ status: 'closed' });

    const got = arrived(trader);
    expect(got.telegram).toHaveLength(1);
    expect(got.telegram[0]).toMatch(/trade opened/i);
    for (const channel of ['email', 'push'] as const) {
      expect(
        got[channel].map((text) => /trade closed/i.test(text)),
        channel,
      ).toEqual([false, true]);
      expectFigures(got[channel][1], closedFigures(closed as TradeRow));
    }
    const rows = await deliveries(h, trader.id);
    expect(rows.filter((r) => r.event === 'trade_closed')).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ channel: 'telegram', status: 'off' }),
        expect.objectContaining({ channel: 'email', status: 'sent' }),
        expect.objectContaining({ channel: 'push', status: 'sent' }),
      ]),
    );
    expect(rows.find((r) => r.event === 'trade_opened' && r.channel === 'telegram')?.status).toBe('sent');
  });

  it('a notice recorded when the sender never ran is sent once per channel by the next server on the same DATA_DIR', async () => {
    const dir = dataDir();
    const first = await start(dir, T0 - 1_000, 100);
    const trader = await traderWithChannels(first, 'chitra');
    await callSetup(first);
    await until('the trade_opened notices', () => settled(first, trader.id));
    expect(arrived(trader).email).toHaveLength(1);

    // The sender dies; the trade still closes and its notice is committed with it; then the process goes away.
    // Nothing had been claimed, so the database is what a kill -9 at this point would leave.
    await first.server.deps.notifications.stop();
    await first.premium(141);
    const knex = first.server.deps.db.knex;
    const [closed] = await listTrades(knex, { userId: trader.id });
    expect(closed).toMatchObject({ status: 'closed' });
    const pending = await knex('notification_outbox').where({ user_id: trader.id, event: 'trade_closed' });
    expect(pending).toHaveLength(1);
    expect(pending[0]).toMatchObject({ status: 'pending' });
    expect((await deliveries(first, trader.id)).filter((r) => r.event === 'trade_closed')).toEqual([]);
    await first.server.close();

    const second = await start(dir, T0 + 10 * MINUTE, 141);
    // No drain, no wake: the new server's start sends what the crash left.
    await until('the three trade_closed notices', () => {
      const got = arrived(trader);
      return got.email.length >= 2 && got.telegram.length >= 2 && got.push.length >= 2;
    });
    await until('every delivery settled', () => settled(second, trader.id));
    // Any later pass (a drain, the poll) finds nothing more to send.
    await second.server.deps.notifications.drainOnce();
    const got = arrived(trader);
    for (const channel of ['email', 'telegram', 'push'] as const) {
      expect(got[channel], channel).toHaveLength(2);
      expectFigures(got[channel][1], closedFigures(closed as TradeRow));
    }
    const rows = (await deliveries(second, trader.id)).filter((r) => r.event === 'trade_closed');
    expect(rows.map((r) => [r.channel, r.status, r.attempts]).sort()).toEqual([
      ['email', 'sent', 1],
      ['push', 'sent', 1],
      ['telegram', 'sent', 1],
    ]);
    const [outbox] = await second.server.deps.db
      .knex('notification_outbox')
      .where({ user_id: trader.id, event: 'trade_closed' });
    expect(outbox).toMatchObject({ status: 'done' });
  });
});
