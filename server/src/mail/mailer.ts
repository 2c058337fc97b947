// Outgoing e-mail. With SMTP_URL set, mail goes through nodemailer; without it there is no mailer and callers
// fall back to test mode (password-reset links are logged and returned by the API, see services/passwordReset).
import nodemailer from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/** A nodemailer transport from an smtp(s):// URL. */
export function createSmtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async send(message) {
      await transport.sendMail({ from, ...message });
    },
    close: () => transport.close(),
  };
}
