import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeSmtp, type FakeSmtp } from '../../../../test/fakes/smtp/server';
import { loadConfig } from '../../config';
import { createLogger } from '../../logger';
import {
  PermanentDeliveryError,
  type NotificationChannel,
  type NotificationRecipient,
  type RenderedNotification,
} from '../types';
import { createEmailChannel, emailChannelFromConfig, isPermanentSmtpRefusal } from './email';

const logger = createLogger({ level: 'silent' });
const OPERATOR = {
  legalName: 'Pilot & Sons <Trading> LLP',
  address: '12 MG Road, Bengaluru 560001, Karnataka',
};

function recipient(overrides: Partial<NotificationRecipient> = {}): NotificationRecipient {
  return {
    userId: 7,
    email: 'asha@example.in',
    name: 'Asha Rao',
    unsubscribeUrl: 'https://app.example.in/api/notifications/unsubscribe?token=abc.def',
    ...overrides,
  };
}

function notice(overrides: Partial<RenderedNotification> = {}): RenderedNotification {
  return {
    outboxId: 41,
    event: 'trade_closed',
    title: 'Trade closed: NIFTY 24000 CE, +₹1,250.00',
    text: 'Your trade in NIFTY 24000 CE closed at ₹112.50.\nP&L: +₹1,250.00',
    html: '<p>Your trade in <strong>NIFTY 24000 CE</strong> closed at ₹112.50.</p><p>P&amp;L: +₹1,250.00</p>',
    path: '/dashboard',
    essential: false,
    ...overrides,
  };
}

describe('e-mail channel', () => {
  let smtp: FakeSmtp;
  let channel: NotificationChannel;

  beforeAll(async () => {
    smtp = await startFakeSmtp();
    channel = createEmailChannel({
      smtpUrl: smtp.url,
      from: 'OptionPilot <no-reply@app.example.in>',
      publicUrl: 'https://app.example.in/',
      operator: OPERATOR,
      maxConnections: 4,
      // no connection is replaced during these tests, so every session the fake counts is one the pool opened
      maxMessagesPerConnection: 10_000,
      logger,
    });
  });

  afterEach(() => {
    smtp.clearFaults();
    smtp.reset();
  });

  afterAll(async () => {
    await channel.close();
    await smtp.close();
  });

  it('sends a non-essential notice as text + HTML with the footer and one-click unsubscribe', async () => {
    const outcome = await channel.deliver(recipient(), notice());
    const [mail] = await smtp.waitForMessages(1);

    expect(outcome).toEqual({ status: 'sent', detail: '<notice-41-u7-trade_closed@app.example.in>' });
    expect(mail?.envelope).toEqual({ from: 'no-reply@app.example.in', to: ['asha@example.in'] });
    expect(mail?.to).toEqual(['asha@example.in']);
    expect(mail?.headers.get('to')).toContain('Asha Rao');
    expect(mail?.subject).toBe('Trade closed: NIFTY 24000 CE, +₹1,250.00');
    expect(mail?.messageId).toBe('<notice-41-u7-trade_closed@app.example.in>');
    expect(mail?.headers.get('auto-submitted')).toBe('auto-generated');

    const text = mail?.text ?? '';
    expect(text).toContain('Your trade in NIFTY 24000 CE closed at ₹112.50.\nP&L: +₹1,250.00');
    expect(text).toContain('Open OptionPilot: https://app.example.in/dashboard');
    expect(text).toContain(OPERATOR.legalName);
    expect(text).toContain(OPERATOR.address);
    expect(text).toContain('Unsubscribe: https://app.example.in/api/notifications/unsubscribe?token=abc.def');

    const html = mail?.html ?? '';
    expect(html).toContain('<strong>NIFTY 24000 CE</strong>');
    expect(html).toContain('href="https://app.example.in/dashboard"');
    // the operator's name is escaped into the layout, not injected as markup
    expect(html).toContain('Pilot &amp; Sons &lt;Trading&gt; LLP');
    expect(html).not.toContain('<Trading>');
    expect(html).toContain(OPERATOR.address);
    expect(html).toContain('href="https://app.example.in/api/notifications/unsubscribe?token=abc.def"');

    expect(mail?.headers.get('list-unsubscribe')).toBe(
      '<https://app.example.in/api/notifications/unsubscribe?token=abc.def>',
    );
    expect(mail?.headers.get('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
  });

  it('sends essential mail without any unsubscribe link or header, and its PDF byte for byte', async () => {
    const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(64 * 1024), Buffer.from('\n%%EOF\n')]);
    const outcome = await channel.deliver(
      recipient(),
      notice({
        outboxId: 42,
        event: 'payment_received',
        title: 'Payment received: ₹5,898.82',
        text: 'Thank you. Your GST invoice OP/26-27/00001 is attached.',
        html: '<p>Thank you. Your GST invoice OP/26-27/00001 is attached.</p>',
        path: '/billing',
        essential: true,
        attachments: [{ filename: 'OP-26-27-00001.pdf', contentType: 'application/pdf', content: pdf }],
      }),
    );
    const [mail] = await smtp.waitForMessages(1);

    expect(outcome.status).toBe('sent');
    expect(mail?.headers.has('list-unsubscribe')).toBe(false);
    expect(mail?.headers.has('list-unsubscribe-post')).toBe(false);
    expect(mail?.text).not.toMatch(/unsubscribe/i);
    expect(mail?.html).not.toMatch(/unsubscribe/i);
    expect(mail?.text).toContain(OPERATOR.address);
    expect(mail?.html).toContain(OPERATOR.address);
    expect(mail?.attachments).toHaveLength(1);
    expect(mail?.attachments[0]?.filename).toBe('OP-26-27-00001.pdf');
    expect(mail?.attachments[0]?.contentType).toBe('application/pdf');
    expect(mail?.attachments[0]?.content.equals(pdf)).toBe(true);
  });

  it('leaves out the unsubscribe header and link when the recipient has no unsubscribe URL', async () => {
    await channel.deliver(recipient({ unsubscribeUrl: '' }), notice({ outboxId: 46 }));
    const [mail] = await smtp.waitForMessages(1);
    expect(mail?.headers.has('list-unsubscribe')).toBe(false);
    expect(mail?.headers.has('list-unsubscribe-post')).toBe(false);
    expect(mail?.text).not.toMatch(/unsubscribe/i);
    expect(mail?.text).toContain(OPERATOR.address);
  });

  it('reports no_address for a recipient without an e-mail and sends nothing', async () => {
    const outcome = await channel.deliver(recipient({ email: '' }), notice());
    expect(outcome).toEqual({ status: 'no_address' });
    // a later message is the first one the server sees
    await channel.deliver(recipient({ email: 'next@example.in' }), notice({ outboxId: 43 }));
    const [first] = await smtp.waitForMessages(1);
    expect(first?.envelope.to).toEqual(['next@example.in']);
    expect(smtp.messages).toHaveLength(1);
  });

  it('turns a 550 for the recipient into a PermanentDeliveryError and keeps delivering to others', async () => {
    smtp.rejectRecipient('gone@example.in', 550);

    const refused = channel.deliver(recipient({ email: 'gone@example.in' }), notice({ outboxId: 44 }));
    await expect(refused).rejects.toBeInstanceOf(PermanentDeliveryError);
    await expect(refused).rejects.toThrow(/550/);

    await expect(channel.deliver(recipient(), notice({ outboxId: 45 }))).resolves.toMatchObject({
      status: 'sent',
    });
    const [mail] = await smtp.waitForMessages(1);
    expect(mail?.messageId).toBe('<notice-45-u7-trade_closed@app.example.in>');
  });

  it('pools connections: 200 notices sent at once all arrive over at most 4 connections', async () => {
    const connectionsBefore = smtp.connections;
    const outcomes = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        channel.deliver(
          recipient({ userId: 1000 + i, email: `trader${i}@example.in` }),
          notice({ outboxId: 1000 + i, title: `Trade opened #${i}` }),
        ),
      ),
    );
    const mails = await smtp.waitForMessages(200);

    expect(outcomes.every((o) => o.status === 'sent')).toBe(true);
    expect(mails).toHaveLength(200);
    expect(smtp.connections - connectionsBefore).toBeLessThanOrEqual(4);
    const bySubject = new Map(mails.map((m) => [m.subject, m.envelope.to]));
    for (let i = 0; i < 200; i += 1)
      expect(bySubject.get(`Trade opened #${i}`)).toEqual([`trader${i}@example.in`]);
  });
});

describe('e-mail channel: retryable failures', () => {
  let smtp: FakeSmtp;

  beforeAll(async () => {
    smtp = await startFakeSmtp({ auth: { user: 'mailer', pass: 'right-pass' } });
  });

  afterAll(async () => {
    await smtp.close();
  });

  const channelTo = (smtpUrl: string) =>
    createEmailChannel({
      smtpUrl,
      from: 'no-reply@app.example.in',
      publicUrl: 'https://app.example.in',
      operator: OPERATOR,
      logger,
    });

  it('throws a retryable error for 421, and the retry goes out with the same Message-ID', async () => {
    const channel = channelTo(smtp.url);
    try {
      smtp.failNext(1, 421);
      const first = channel.deliver(recipient(), notice({ outboxId: 50 }));
      await expect(first).rejects.toMatchObject({ responseCode: 421 });
      await expect(first).rejects.not.toBeInstanceOf(PermanentDeliveryError);
      expect(smtp.messages).toHaveLength(0);

      await expect(channel.deliver(recipient(), notice({ outboxId: 50 }))).resolves.toMatchObject({
        status: 'sent',
      });
      const [mail] = await smtp.waitForMessages(1);
      expect(mail?.messageId).toBe('<notice-50-u7-trade_closed@app.example.in>');
    } finally {
      await channel.close();
    }
  });

  it('throws a retryable error when the credentials are refused (535 is our configuration, not the mail)', async () => {
    const channel = channelTo(smtp.url.replace('right-pass', 'wrong-pass'));
    try {
      const attempt = channel.deliver(recipient(), notice({ outboxId: 51 }));
      await expect(attempt).rejects.toMatchObject({ code: 'EAUTH', responseCode: 535 });
      await expect(attempt).rejects.not.toBeInstanceOf(PermanentDeliveryError);
    } finally {
      await channel.close();
    }
  });

  it('throws a retryable error when the server cannot be reached', async () => {
    const gone = await startFakeSmtp();
    const url = gone.url;
    await gone.close();
    const channel = channelTo(url);
    try {
      const attempt = channel.deliver(recipient(), notice({ outboxId: 52 }));
      await expect(attempt).rejects.toMatchObject({ code: 'ESOCKET', originalCode: 'ECONNREFUSED' });
      await expect(attempt).rejects.not.toBeInstanceOf(PermanentDeliveryError);
    } finally {
      await channel.close();
    }
  });
});

describe('isPermanentSmtpRefusal', () => {
  const smtpError = (fields: object) => Object.assign(new Error('refused'), fields);

  it('is true only for a permanent reply about the envelope or the message', () => {
    expect(isPermanentSmtpRefusal(smtpError({ code: 'EENVELOPE', responseCode: 550, permanent: true }))).toBe(
      true,
    );
    expect(isPermanentSmtpRefusal(smtpError({ code: 'EMESSAGE', responseCode: 552, permanent: true }))).toBe(
      true,
    );
    expect(
      isPermanentSmtpRefusal(smtpError({ code: 'EENVELOPE', responseCode: 450, permanent: false })),
    ).toBe(false);
    expect(isPermanentSmtpRefusal(smtpError({ code: 'EAUTH', responseCode: 535, permanent: true }))).toBe(
      false,
    );
    expect(isPermanentSmtpRefusal(smtpError({ code: 'ECONNECTION' }))).toBe(false);
    expect(isPermanentSmtpRefusal('550')).toBe(false);
  });
});

describe('emailChannelFromConfig', () => {
  it('is null without SMTP_URL', () => {
    expect(emailChannelFromConfig(loadConfig({ NODE_ENV: 'test' }), logger)).toBeNull();
  });

  it('sends from MAIL_FROM with the operator from the configuration', async () => {
    const smtp = await startFakeSmtp();
    const config = loadConfig({
      NODE_ENV: 'test',
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Alerts <alerts@desk.example.in>',
      PUBLIC_URL: 'https://desk.example.in',
      OPERATOR_LEGAL_NAME: 'Desk Analytics Private Limited',
      OPERATOR_ADDRESS: '4 Residency Road, Bengaluru 560025, Karnataka',
      SMTP_MAX_CONNECTIONS: '2',
    });
    const channel = emailChannelFromConfig(config, logger);
    try {
      expect(channel?.name).toBe('email');
      await channel?.deliver(recipient(), notice());
      const [mail] = await smtp.waitForMessages(1);
      expect(mail?.from).toBe('alerts@desk.example.in');
      expect(mail?.messageId).toBe('<notice-41-u7-trade_closed@desk.example.in>');
      expect(mail?.text).toContain('Desk Analytics Private Limited');
      expect(mail?.text).toContain('4 Residency Road, Bengaluru 560025, Karnataka');
      expect(mail?.text).toContain('Open OptionPilot: https://desk.example.in/dashboard');
    } finally {
      await channel?.close();
      await smtp.close();
    }
  });
});
