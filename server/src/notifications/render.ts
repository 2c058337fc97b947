// Turns one outbox row into the words every channel sends: a title, plain text, escaped HTML for e-mail, the app
// path it links to, and whether the user may turn it off. Figures come from the payload recorded with the fact
// (paise, epoch ms), so a notice sent late still says what happened then; rupees use Indian grouping and times
// are shown in IST. Only a payment receipt reads the database again: for its GST invoice PDF.
import { istMidnight, isValidDate, toIstParts } from '@optionpilot/engine';
import { formatPaise } from '@optionpilot/engine/money';
import type { Config } from '../config';
import { BROKER_LABELS } from '../contract';
import { findInvoice, findInvoiceByPayment, type Database } from '../db';
import { renderInvoicePdf } from '../invoices/pdf';
import type { NotificationPayload } from './outbox';
import type { NotificationAttachment, NotificationEvent, RenderedNotification } from './types';

export interface NoticeRow {
  id: number;
  event: NotificationEvent;
  userId: number;
  payload: NotificationPayload;
  createdAt: number;
}

export interface RenderContext {
  db: Database;
  config: Config;
}

/**
 * Essential notices cannot be turned off: they are records of money (a payment receipt with its tax invoice, a
 * refund with its credit note). Everything else, including a broker session that expired, is the user's choice.
 */
export const ESSENTIAL_EVENTS: ReadonlySet<NotificationEvent> = new Set([
  'payment_received',
  'refund_issued',
]);

/** Renders one outbox row for every channel. */
export async function renderNotice(ctx: RenderContext, row: NoticeRow): Promise<RenderedNotification> {
  const body = RENDERERS[row.event](new PayloadReader(row.payload), row);
  const attachments = row.event === 'payment_received' ? await invoiceAttachment(ctx, row.payload) : [];
  return {
    outboxId: row.id,
    event: row.event,
    title: body.title,
    text: [...body.lines.map(lineText), '', `${ctx.config.publicUrl}${body.path}`].join('\n'),
    html: layout(body, `${ctx.config.publicUrl}${body.path}`),
    path: body.path,
    essential: ESSENTIAL_EVENTS.has(row.event),
    ...(attachments.length > 0 ? { attachments } : {}),
  };
}

/** A line of the message: a sentence, or a label with its value (a table row in HTML). */
type Line = string | readonly [label: string, value: string];

interface Body {
  title: string;
  lines: readonly Line[];
  path: string;
  /** the button's words in the e-mail */
  action: string;
}

const lineText = (line: Line): string => (typeof line === 'string' ? line : `${line[0]}: ${line[1]}`);

const IST_DATE_TIME = new Intl.DateTimeFormat('en-IN', {
  timeZone: 'Asia/Kolkata',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  hour12: true,
});
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** An IST calendar date as "Wed 7 Jan 2026" (built by hand: ICU versions differ in their commas). */
function istDay(ms: number): string {
  const p = toIstParts(ms);
  return `${WEEKDAYS[p.weekday]} ${p.day} ${MONTHS[p.month - 1]} ${p.year}`;
}

/** An instant as IST wall-clock time: "25 Nov 2026, 3:35 pm IST". */
export function istTime(ms: number): string {
  return `${IST_DATE_TIME.format(ms)} IST`;
}

/** Reads the recorded payload; a missing figure shows as a dash rather than failing the whole notice. */
class PayloadReader {
  constructor(private readonly payload: NotificationPayload) {}
  text(key: string, fallback = '—'): string {
    const value = this.payload[key];
    return value === null || value === undefined || value === '' ? fallback : String(value);
  }
  number(key: string): number | null {
    const value = this.payload[key];
    return typeof value === 'number' && Number.isFinite(value) ? value : null;
  }
  /** a broker type as its display name ("angelone" → "Angel One"); anything else (paper) as stored */
  broker(key: string): string {
    const value = this.text(key);
    return (BROKER_LABELS as Readonly<Record<string, string>>)[value] ?? value;
  }
  flag(key: string): boolean {
    return this.payload[key] === true;
  }
  rupees(key: string): string {
    const value = this.number(key);
    return value !== null && Number.isSafeInteger(value) ? formatPaise(value) : '—';
  }
  /** a signed amount, "+₹1,234.50" or "-₹1,234.50" */
  signedRupees(key: string): string {
    const value = this.number(key);
    if (value === null || !Number.isSafeInteger(value)) return '—';
    return value > 0 ? `+${formatPaise(value)}` : formatPaise(value);
  }
  time(key: string): string {
    const value = this.number(key);
    return value === null ? '—' : istTime(value);
  }
  date(key: string): string {
    const value = this.payload[key];
    if (typeof value === 'number') return istDay(value);
    // A trading date as recorded (YYYY-MM-DD, IST): noon IST keeps it on that date.
    if (typeof value === 'string' && isValidDate(value)) return istDay(istMidnight(value));
    return '—';
  }
}

const EXIT_REASONS: Record<string, string> = {
  stop_loss: 'stop loss',
  trailing_stop: 'trailing stop',
  target: 'target',
  square_off: 'square-off',
  daily_loss: 'daily loss limit',
  flatten_all: 'flatten all',
  manual: 'closed by hand',
  end_of_data: 'end of data',
  broker: 'closed at the broker',
};

const mode = (p: PayloadReader) => (p.flag('paper') ? 'Paper' : 'Live');

const RENDERERS: Record<NotificationEvent, (p: PayloadReader, row: NoticeRow) => Body> = {
  trade_opened: (p) => ({
    title: `${mode(p)} trade opened: ${p.text('symbol')}`,
    lines: [
      `${mode(p)} trade #${p.text('tradeId')} opened.`,
      ['Instrument', p.text('symbol')],
      ['Quantity', p.text('quantity')],
      ['Entry price', p.rupees('entryPaise')],
      ['Stop loss', p.rupees('stopPaise')],
      ['Target', p.rupees('targetPaise')],
      ['Opened at', p.time('openedAt')],
    ],
    path: '/dashboard',
    action: 'Open the dashboard',
  }),
  trade_closed: (p) => {
    const reason = p.text('reason').toLowerCase();
    return {
      title: `${mode(p)} trade closed: ${p.text('symbol')}, ${p.signedRupees('netPaise')}`,
      lines: [
        `${mode(p)} trade #${p.text('tradeId')} closed (${EXIT_REASONS[reason] ?? reason}).`,
        ['Instrument', p.text('symbol')],
        ['Quantity', p.text('quantity')],
        ['Entry price', p.rupees('entryPaise')],
        ['Exit price', p.rupees('exitPaise')],
        ['Charges', p.rupees('chargesPaise')],
        ['P&L after charges', p.signedRupees('netPaise')],
        ['Closed at', p.time('closedAt')],
      ],
      path: '/dashboard',
      action: 'Open the dashboard',
    };
  },
  daily_summary: (p) => ({
    title: `Today's trading: ${p.signedRupees('netPaise')} after charges`,
    lines: [
      `Your trading on ${p.date('date')}.`,
      ['Trades closed', p.text('trades')],
      ['Winners', p.text('wins')],
      ['Losers', p.text('losses')],
      ['Charges', p.rupees('chargesPaise')],
      ['Net P&L after charges', p.signedRupees('netPaise')],
    ],
    path: '/dashboard',
    action: 'See the trades',
  }),
  daily_loss_limit: (p) => ({
    title: 'Daily loss limit reached: no new trades today',
    lines: [
      `Your account reached its daily loss limit on ${p.date('date')}. The bot opens no new trades until the next trading day.`,
      ['Loss today', p.rupees('lossPaise')],
      ['Limit', p.rupees('limitPaise')],
      ['Reached at', p.time('at')],
    ],
    path: '/dashboard',
    action: 'Open the dashboard',
  }),
  broker_session_expired: (p) => ({
    title: `Reconnect ${p.broker('broker')} before the market opens`,
    lines: [
      `Your ${p.broker('broker')} session has expired or ends before today's open (${p.date('date')}). Live trades cannot be placed until you log in to the broker again.`,
      ['Account', p.text('accountName')],
      ['Session valid until', p.time('expiresAt')],
    ],
    path: '/dashboard',
    action: 'Reconnect the broker',
  }),
  order_rejected: (p) =>
    p.text('kind') === 'ip_not_allowed'
      ? {
          title: `${p.broker('broker')} refused orders from this server's IP address`,
          lines: [
            `${p.broker('broker')} answered that this server's IP address is not allowed for your account. Live orders cannot be placed until the address is registered with the broker.`,
            ['Since', p.time('at')],
          ],
          path: '/dashboard',
          action: 'Open broker settings',
        }
      : {
          title: `Order rejected: ${p.text('side')} ${p.text('quantity')} ${p.text('symbol')}`,
          lines: [
            `${p.broker('broker')} rejected an order.`,
            ['Order', `${p.text('side')} ${p.text('quantity')} ${p.text('symbol')}`],
            ['Reason', p.text('reason')],
            ['At', p.time('at')],
          ],
          path: '/dashboard',
          action: 'Open the dashboard',
        },
  renewal_reminder: (p) => ({
    title:
      p.text('kind') === '1d'
        ? 'Your OptionPilot subscription ends tomorrow'
        : 'Your OptionPilot subscription ends in 3 days',
    lines: [
      `Your OptionPilot subscription ends on ${p.time('endAt')}.`,
      'A renewal adds the new period to the current end date, so no day is lost.',
      'When a subscription has ended the bot opens no new trades; positions already open are still managed to their exits.',
    ],
    path: '/subscription',
    action: 'Renew from Manage Subscription',
  }),
  payment_received: (p) => ({
    title: `Payment received: ${p.rupees('amountPaise')}`,
    lines: [
      `Thank you. We received your payment for ${p.text('planName')}.`,
      ['Amount', p.rupees('amountPaise')],
      ['Paid at', p.time('paidAt')],
      ['Subscription until', p.time('endsAt')],
      ['Invoice', p.text('invoiceNumber')],
    ],
    path: '/subscription',
    action: 'Manage subscription',
  }),
  refund_issued: (p) => ({
    title: `Refund issued: ${p.rupees('amountPaise')}`,
    lines: [
      `We refunded ${p.rupees('amountPaise')} of payment #${p.text('paymentId')}.`,
      ['Amount', p.rupees('amountPaise')],
      ['Credit note', p.text('creditNoteNumber')],
      ...(p.number('endAt') !== null ? [['Subscription now ends', p.time('endAt')] as const] : []),
      'A refund to a card or UPI account usually arrives within 5–7 working days.',
    ],
    path: '/subscription',
    action: 'Manage subscription',
  }),
  feed_down: (p) => ({
    title: 'Market feed down during the session',
    lines: [
      'The market data feed has sent nothing for more than 30 seconds while the market is open.',
      ['Silent since', p.time('since')],
      ['Noticed at', p.time('at')],
    ],
    path: '/admin',
    action: 'Open the admin page',
  }),
  restart_with_open_positions: (p) => ({
    title: `Engine restarted with ${p.text('openTrades')} open position(s)`,
    lines: [
      'The trading engine started while positions were open; they were restored and are managed again.',
      ['Open positions', p.text('openTrades')],
      ['Started at', p.time('at')],
    ],
    path: '/admin',
    action: 'Open the admin page',
  }),
  broker_errors: (p) => ({
    title: `${p.broker('broker')}: ${p.text('count')} errors in ${p.text('windowMinutes')} minutes`,
    lines: [
      `${p.broker('broker')} returned ${p.text('count')} errors within ${p.text('windowMinutes')} minutes.`,
      ['From', p.time('windowStart')],
      ['Last error', p.text('lastError')],
    ],
    path: '/admin',
    action: 'Open the admin page',
  }),
  upi_review: (p) => ({
    title: `UPI payment to review: ${p.rupees('amountPaise')}`,
    lines: [
      `${p.text('userEmail')} reports a UPI payment waiting for review.`,
      ['Amount', p.rupees('amountPaise')],
      ['UTR', p.text('utr')],
      ['Request', `#${p.text('requestId')}`],
    ],
    path: '/admin',
    action: 'Review it',
  }),
  contact_message: (p) => ({
    title: `Contact message from ${p.text('name')}`,
    lines: [['From', `${p.text('name')} <${p.text('email')}>`], p.text('excerpt', '')],
    path: '/admin',
    action: 'Read it',
  }),
};

/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** A plain e-mail layout with inline styles (mail clients drop style sheets). */
function layout(body: Body, url: string): string {
  const sentences = body.lines
    .filter((line): line is string => typeof line === 'string' && line !== '')
    .map((line) => `<p style="margin:0 0 12px">${escapeHtml(line)}</p>`);
  const rows = body.lines
    .filter((line): line is readonly [string, string] => typeof line !== 'string')
    .map(
      ([label, value]) =>
        `<tr><td style="padding:4px 16px 4px 0;color:#555">${escapeHtml(label)}</td>` +
        `<td style="padding:4px 0;font-weight:600">${escapeHtml(value)}</td></tr>`,
    );
  return [
    '<div style="font-family:Arial,Helvetica,sans-serif;font-size:15px;color:#222;max-width:560px">',
    `<h2 style="font-size:18px;margin:0 0 16px">${escapeHtml(body.title)}</h2>`,
    ...sentences,
    rows.length > 0 ? `<table style="border-collapse:collapse;margin:0 0 16px">${rows.join('')}</table>` : '',
    `<p style="margin:16px 0"><a href="${escapeHtml(url)}" style="background:#1c7ed6;color:#fff;padding:10px 16px;border-radius:4px;text-decoration:none">${escapeHtml(body.action)}</a></p>`,
    '<p style="color:#888;font-size:12px;margin:24px 0 0">OptionPilot</p>',
    '</div>',
  ].join('');
}

/** The GST invoice of the payment, as a PDF; none when the payment has no invoice. */
async function invoiceAttachment(
  ctx: RenderContext,
  payload: NotificationPayload,
): Promise<NotificationAttachment[]> {
  const invoiceId = payload.invoiceId;
  const paymentId = payload.paymentId;
  const invoice =
    typeof invoiceId === 'number'
      ? await findInvoice(ctx.db.knex, invoiceId)
      : typeof paymentId === 'number'
        ? await findInvoiceByPayment(ctx.db.knex, paymentId)
        : undefined;
  if (!invoice) return [];
  return [
    {
      filename: `invoice-${invoice.number.replaceAll('/', '-')}.pdf`,
      contentType: 'application/pdf',
      content: await renderInvoicePdf(invoice),
    },
  ];
}
