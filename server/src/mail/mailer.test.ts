import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeSmtp, type FakeSmtp } from '../../../test/fakes/smtp/server';
import { createSmtpMailer } from './mailer';

describe('createSmtpMailer (password resets, renewal reminders)', () => {
  let smtp: FakeSmtp;

  beforeAll(async () => {
    smtp = await startFakeSmtp();
  });

  afterAll(async () => {
    await smtp.close();
  });

  it('sends a plain-text message from MAIL_FROM over SMTP', async () => {
    const mailer = createSmtpMailer(smtp.url, 'OptionPilot <no-reply@app.example.in>');
    try {
      await mailer.send({
        to: 'asha@example.in',
        subject: 'Reset your OptionPilot password',
        text: 'Open https://app.example.in/reset-password?token=t0k3n within 30 minutes.',
      });
      const [mail] = await smtp.waitForMessages(1);
      expect(mail?.envelope).toEqual({ from: 'no-reply@app.example.in', to: ['asha@example.in'] });
      expect(mail?.subject).toBe('Reset your OptionPilot password');
      expect(mail?.text).toContain('https://app.example.in/reset-password?token=t0k3n');
      expect(mail?.html).toBe('');
    } finally {
      mailer.close();
    }
  });
});
