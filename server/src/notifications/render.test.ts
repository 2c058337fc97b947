// The renderers: figures in rupees with Indian grouping from paise, instants in IST, HTML escaped, the right app
// path, and only money records essential.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import type { Database } from '../db';
import type { NotificationPayload } from './outbox';
import { escapeHtml, renderNotice } from './render';
import { ADMIN_EVENTS, TRADER_EVENTS, type NotificationEvent } from './types';

const config = loadConfig({ PUBLIC_URL: 'https://trade.example.in' });
// No renderer but the payment receipt's invoice reads the database; that one is tested with a database (sources).
const db = {
  knex: () => {
    throw new Error('no database here');
  },
} as unknown as Database;
// Wed 7 Jan 2026, 15:20 IST.
const AT = Date.UTC(2026, 0, 7, 9, 50);

function render(event: NotificationEvent, payload: NotificationPayload) {
  return renderNotice({ db, config }, { id: 7, event, userId: 3, payload, createdAt: AT });
}

describe('renderNotice', () => {
  it('trade closed: instrument, entry and exit, quantity, reason and P&L after charges in ₹ and IST', async () => {
    const message = await render('trade_closed', {
      tradeId: 42,
      symbol: 'NIFTY13JAN2624000CE',
      quantity: 1_950,
      entryPaise: 10_005,
      exitPaise: 14_095,
      chargesPaise: 12_345,
      netPaise: 12_345_678,
      reason: 'trailing_stop',
      paper: false,
      openedAt: AT - 3_600_000,
      closedAt: AT,
    });
    expect(message).toMatchObject({
      outboxId: 7,
      event: 'trade_closed',
      title: 'Live trade closed: NIFTY13JAN2624000CE, +₹1,23,456.78',
      path: '/dashboard',
      essential: false,
    });
    expect(message.text.split('\n')).toEqual([
      'Live trade #42 closed (trailing stop).',
      'Instrument: NIFTY13JAN2624000CE',
      'Quantity: 1950',
      'Entry price: ₹100.05',
      'Exit price: ₹140.95',
      'Charges: ₹123.45',
      'P&L after charges: +₹1,23,456.78',
      expect.stringMatching(/^Closed at: 7 Jan 2026, 3:20\s?pm IST$/i) as string,
      '',
      'https://trade.example.in/dashboard',
    ]);
    expect(message.html).toContain('P&amp;L after charges');
    expect(message.html).toContain('+₹1,23,456.78');
    expect(message.html).toContain('href="https://trade.example.in/dashboard"');
  });

  it('a loss shows its sign, and a paper trade says so', async () => {
    const message = await render('trade_closed', {
      tradeId: 1,
      symbol: 'X',
      netPaise: -250_050,
      paper: true,
      reason: 'stop_loss',
    });
    expect(message.title).toBe('Paper trade closed: X, -₹2,500.50');
    expect(message.text).toContain('(stop loss)');
  });

  it('escapes HTML from any payload text, in the e-mail only', async () => {
    const message = await render('contact_message', {
      messageId: 1,
      name: '<script>alert(1)</script>',
      email: 'a@b.in',
      excerpt: 'Hi "there" & <b>bye</b>',
    });
    expect(message.html).not.toContain('<script>');
    expect(message.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(message.html).toContain('Hi &quot;there&quot; &amp; &lt;b&gt;bye&lt;/b&gt;');
    expect(message.text).toContain('Hi "there" & <b>bye</b>');
    expect(escapeHtml(`<a href='x'>&</a>`)).toBe('&lt;a href=&#39;x&#39;&gt;&amp;&lt;/a&gt;');
  });

  it('daily summary: the trading date in IST and the figures of the day', async () => {
    const message = await render('daily_summary', {
      date: '2026-01-07',
      trades: 3,
      wins: 2,
      losses: 1,
      netPaise: 1_00_000_00,
      chargesPaise: 18_000,
    });
    expect(message.title).toBe("Today's trading: +₹1,00,000.00 after charges");
    expect(message.text).toContain('Your trading on Wed 7 Jan 2026.');
    expect(message.text).toContain('Winners: 2');
    expect(message.text).toContain('Charges: ₹180.00');
  });

  it('links each event where the app shows it, and only payment receipts and refunds are essential', async () => {
    const paths: Record<string, string> = {};
    const essential: string[] = [];
    for (const event of [...TRADER_EVENTS, ...ADMIN_EVENTS]) {
      // payment_received with no invoice id reads no database.
      const message = await render(event, {});
      expect(message.title.length).toBeGreaterThan(0);
      expect(message.html.startsWith('<div')).toBe(true);
      paths[event] = message.path;
      if (message.essential) essential.push(event);
    }
    expect(essential).toEqual(['payment_received', 'refund_issued']);
    expect(paths).toMatchObject({
      trade_opened: '/dashboard',
      broker_session_expired: '/dashboard',
      renewal_reminder: '/subscription',
      payment_received: '/subscription',
      refund_issued: '/subscription',
      feed_down: '/admin',
      upi_review: '/admin',
    });
  });

  it('names brokers by their display names in the reconnect, IP and rejection notices', async () => {
    const session = await render('broker_session_expired', {
      broker: 'angelone',
      accountName: 'Asha R',
      expiresAt: Date.UTC(2026, 0, 7, 0, 30),
      date: '2026-01-07',
    });
    expect(session.title).toBe('Reconnect Angel One before the market opens');
    expect(session.text).toMatch(/Session valid until: 7 Jan 2026, 6:00\s?am IST/i);
    const ip = await render('order_rejected', { kind: 'ip_not_allowed', broker: 'zerodha', at: AT });
    expect(ip.title).toBe("Zerodha refused orders from this server's IP address");
    const rejected = await render('order_rejected', {
      kind: 'rejected',
      broker: 'paper',
      side: 'SELL',
      quantity: 75,
      symbol: 'NIFTY13JAN2624000PE',
      reason: 'Insufficient margin',
      at: AT,
    });
    expect(rejected.title).toBe('Order rejected: SELL 75 NIFTY13JAN2624000PE');
    expect(rejected.text).toContain('Reason: Insufficient margin');
  });

  it('a figure missing from the payload shows a dash instead of failing the notice', async () => {
    const message = await render('refund_issued', { amountPaise: 1.5, paymentId: 9 });
    expect(message.title).toBe('Refund issued: —');
    expect(message.text).toContain('Credit note: —');
  });
});
