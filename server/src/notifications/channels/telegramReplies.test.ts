import { describe, expect, it } from 'vitest';
import type { BotStatusDetailDto, BrokerConnectionDto } from '../../contract';
import { newLinkCode, normaliseLinkCode } from './telegramLinks';
import { escapeHtml, notificationMessage, pnlReply, signedPaise, statusReply } from './telegramReplies';

const status = (overrides: Partial<BotStatusDetailDto> = {}): BotStatusDetailDto => ({
  isRunning: true,
  enabled: true,
  globalTradingEnabled: true,
  mode: 'paper',
  ...overrides,
});

describe('Telegram replies', () => {
  it('shows money as signed rupees with Indian grouping', () => {
    expect(signedPaise(12_345_678)).toBe('+₹1,23,456.78');
    expect(signedPaise(-8_000)).toBe('-₹80.00');
    expect(signedPaise(0)).toBe('₹0.00');
  });

  it('/pnl gives today’s total and its parts', () => {
    const text = pnlReply({
      todayPnl: 1450.5,
      todayRealisedPnl: 1500,
      openPnl: -49.5,
      openTrades: 1,
      totalTrades: 3,
      winRate: 66.67,
      totalPnl: 2000,
      totalRealisedPnl: 2049.5,
    });
    expect(text).toBe(
      "Today's P&L: +₹1,450.50\nClosed today: +₹1,500.00 after charges\nOpen positions (1): -₹49.50 before charges",
    );
  });

  it('/status says why the bot is not trading, the mode, the broker and the admins’ pause', () => {
    const broker = { brokerType: 'zerodha', connected: false } as BrokerConnectionDto;
    const text = statusReply(
      status({
        isRunning: false,
        reason: 'Subscription inactive',
        mode: 'live',
        globalTradingEnabled: false,
      }),
      broker,
    );
    expect(text.split('\n')).toEqual([
      'Bot: not trading (Subscription inactive)',
      'Your switch: on',
      'Mode: live orders',
      'Broker: Zerodha not connected',
      'Trading is paused for everyone by the administrators.',
    ]);
  });

  it('escapes a notification for HTML parse mode and cuts an overlong text', () => {
    expect(escapeHtml('a < b && c > d')).toBe('a &lt; b &amp;&amp; c &gt; d');
    const text = notificationMessage(
      {
        outboxId: 1,
        event: 'feed_down',
        title: '<Feed> down',
        text: 'x'.repeat(5000),
        html: '',
        path: '/admin',
        essential: false,
      },
      'https://op.example',
    );
    expect(text.startsWith('<b>&lt;Feed&gt; down</b>\n')).toBe(true);
    expect(text.endsWith('…\n\nhttps://op.example/admin')).toBe(true);
    expect(text.length).toBeLessThan(4096);
  });

  it('gives a rendered notice’s link once, at the end (render.ts already ends the text with it)', () => {
    const text = notificationMessage(
      {
        outboxId: 2,
        event: 'trade_opened',
        title: 'Paper trade opened',
        text: 'Paper trade #2 opened.\nQuantity: 65\n\nhttps://op.example/dashboard',
        html: '',
        path: '/dashboard',
        essential: false,
      },
      'https://op.example',
    );
    expect(text).toBe(
      '<b>Paper trade opened</b>\nPaper trade #2 opened.\nQuantity: 65\n\nhttps://op.example/dashboard',
    );
  });
});

describe('link codes', () => {
  it('are 10 characters without look-alikes, and typed ones are read leniently', () => {
    const codes = new Set(Array.from({ length: 50 }, () => newLinkCode()));
    expect(codes.size).toBe(50);
    for (const code of codes) expect(code).toMatch(/^[A-HJ-NP-Z2-9]{10}$/);
    expect(normaliseLinkCode(' abcd-efgh jk ')).toBe('ABCDEFGHJK');
  });
});
