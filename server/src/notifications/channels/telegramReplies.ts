// What the Telegram bot says: replies to the chat commands and the notification message. Plain text for replies
// (nothing to escape); notifications use HTML parse mode for a bold title, so their text is escaped. Money arrives
// in paise (or the dashboard's rupees, converted once here) and is shown as ₹ with Indian digit grouping.
import { formatPaise, rupeesToPaise } from '@optionpilot/engine/money';
import type { BotStatusDetailDto, BrokerConnectionDto, UserStatsDto } from '../../contract';
import { BROKER_LABELS } from '../../contract/dto';
import type { TradeRow } from '../../db';
import type { RenderedNotification } from '../types';

/** The commands the bot answers, as shown by /help and in Telegram's command menu (setMyCommands). */
export const BOT_COMMANDS = [
  { command: 'status', description: 'Is your bot running? Mode and broker' },
  { command: 'positions', description: 'Your open positions' },
  { command: 'pnl', description: "Today's P&L" },
  { command: 'pause', description: 'Stop taking new trades' },
  { command: 'resume', description: 'Take new trades again' },
  { command: 'unlink', description: 'Unlink this chat from OptionPilot' },
  { command: 'help', description: 'What I can do' },
] as const;

export const HELP_REPLY = [
  'OptionPilot commands:',
  ...BOT_COMMANDS.map((c) => `/${c.command} – ${c.description}`),
].join('\n');

export const NOT_LINKED_REPLY =
  'This chat is not linked to an OptionPilot account yet. Link it first: open OptionPilot → Settings → Telegram, ' +
  'press "Link Telegram" and follow the link (or send /start followed by the code shown there).';

export const PRIVATE_ONLY_REPLY = 'Please talk to me in a private chat: I act on one trader’s own bot only.';

export const LINK_REFUSED_REPLIES = {
  unknown: 'That code is not valid. Get a new one in OptionPilot → Settings → Telegram and try again.',
  expired:
    'That code has expired (codes last 10 minutes). Get a new one in OptionPilot → Settings → Telegram.',
  used: 'That code has already been used. Get a new one in OptionPilot → Settings → Telegram.',
} as const;

export const COMMAND_FAILED_REPLY = 'Sorry, that did not work. Please try again in a moment.';

export const LINKED_REPLY = `Linked. You will get your OptionPilot notifications here.\n\n${HELP_REPLY}`;

export const UNLINKED_REPLY =
  'Unlinked. This chat gets no more notifications and its commands act on nothing. Link again from Settings.';

/** `+₹1,234.50`, `-₹80.00`, `₹0.00`: P&L reads better with its sign. */
export function signedPaise(paise: number): string {
  return paise > 0 ? `+${formatPaise(paise)}` : formatPaise(paise);
}

/** /status: would the bot trade now, paper or live, and the broker connection. */
export function statusReply(status: BotStatusDetailDto, broker: BrokerConnectionDto | null): string {
  const running = status.isRunning
    ? 'Bot: running'
    : `Bot: not trading${status.reason === undefined ? '' : ` (${status.reason})`}`;
  const brokerLine =
    broker === null
      ? 'Broker: none saved'
      : `Broker: ${BROKER_LABELS[broker.brokerType]} ${broker.connected ? 'connected' : 'not connected'}`;
  return [
    running,
    `Your switch: ${status.enabled ? 'on' : 'paused'}`,
    `Mode: ${status.mode === 'live' ? 'live orders' : 'paper trading'}`,
    brokerLine,
    ...(status.globalTradingEnabled ? [] : ['Trading is paused for everyone by the administrators.']),
  ].join('\n');
}

/** /positions: each open trade with its premiums and its P&L at the last quote (rupees from the engine). */
export function positionsReply(
  trades: readonly TradeRow[],
  markPnl: (tradeId: number) => number | null,
): string {
  if (trades.length === 0) return 'No open positions.';
  const blocks = trades.map((t) => {
    const mark = markPnl(t.id);
    return [
      `${t.instrument} (${t.trade_type}), ${t.quantity} qty${t.paper ? ', paper' : ''}`,
      `Entry ${formatPaise(t.entry_price_paise)} · Stop ${formatPaise(t.stop_loss_paise)} · Target ${formatPaise(t.target_paise)}`,
      mark === null ? 'P&L: not quoted yet' : `P&L: ${signedPaise(rupeesToPaise(mark))} (before charges)`,
    ].join('\n');
  });
  return [`Open positions (${trades.length}):`, ...blocks].join('\n\n');
}

/** /pnl: today's P&L as the dashboard shows it, with its parts (closed trades are net of charges). */
export function pnlReply(stats: UserStatsDto): string {
  return [
    `Today's P&L: ${signedPaise(rupeesToPaise(stats.todayPnl))}`,
    `Closed today: ${signedPaise(rupeesToPaise(stats.todayRealisedPnl))} after charges`,
    stats.openTrades === 0
      ? 'Open positions: none'
      : `Open positions (${stats.openTrades}): ${signedPaise(rupeesToPaise(stats.openPnl))} before charges`,
  ].join('\n');
}

export function pauseReply(status: BotStatusDetailDto): string {
  return `Paused: your bot takes no new trades.\n\n${statusReply(status, null).split('\n').slice(0, 3).join('\n')}`;
}

export function resumeReply(status: BotStatusDetailDto): string {
  const lines = statusReply(status, null).split('\n').slice(0, 3).join('\n');
  return status.isRunning
    ? `Resumed: your bot takes new trades again.\n\n${lines}`
    : `Your switch is on, but the bot is not trading yet.\n\n${lines}`;
}

const HTML_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

/** Escapes text for Telegram's HTML parse mode (which needs only &, < and >). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>]/g, (ch) => HTML_ESCAPES[ch] ?? ch);
}

/** Telegram refuses messages over 4096 characters (counted after parsing); the body is cut well before. */
const MAX_TEXT = 3500;

/** The notification as one Telegram message (HTML parse mode): bold title, the text, where to look in the app. */
export function notificationMessage(message: RenderedNotification, publicUrl: string): string {
  const link = `${publicUrl}${message.path}`;
  // render.ts ends a notice's text with this link already (a test send's text does not): said once, at the end.
  const body = message.text.endsWith(`\n${link}`)
    ? message.text.slice(0, -link.length).trimEnd()
    : message.text;
  const text = body.length > MAX_TEXT ? `${body.slice(0, MAX_TEXT - 1)}…` : body;
  const title = message.title.slice(0, 200);
  return `<b>${escapeHtml(title)}</b>\n${escapeHtml(text)}\n\n${escapeHtml(link)}`;
}
