// The e-mail channel: a notification becomes one MIME message (text + HTML, the operator's name and address in the
// footer, attachments such as the GST invoice PDF) sent through a pooled nodemailer SMTP transport, so a burst of
// trade notices reuses a few open connections instead of one handshake per message. Non-essential mail carries a
// one-click unsubscribe link and the RFC 8058 List-Unsubscribe headers; essential mail (receipts, refunds,
// security) never does, since the user cannot opt out of it.
import nodemailer from 'nodemailer';
import type { Config } from '../../config';
import type { Logger } from '../../logger';
import {
  PermanentDeliveryError,
  type DeliveryOutcome,
  type NotificationChannel,
  type NotificationRecipient,
  type RenderedNotification,
} from '../types';

export interface EmailChannelOptions {
  /** smtp(s)://user:pass@host:port */
  readonly smtpUrl: string;
  /** the From header, e.g. `OptionPilot <no-reply@example.com>` */
  readonly from: string;
  /** the app's address: the "Open OptionPilot" link and the host part of Message-IDs */
  readonly publicUrl: string;
  /** printed in every footer (the law wants a sender that can be identified and written to) */
  readonly operator: { readonly legalName: string; readonly address: string };
  /** SMTP connections kept open at once (nodemailer's default is 5) */
  readonly maxConnections?: number;
  /** messages sent over one connection before it is replaced (nodemailer's default is 100) */
  readonly maxMessagesPerConnection?: number;
  readonly logger: Logger;
}

/** The SMTP failure as nodemailer reports it: `code` is its own (EENVELOPE, EAUTH…), `responseCode` the server's. */
interface SmtpError extends Error {
  code?: string;
  responseCode?: number;
  permanent?: boolean;
  command?: string;
}

/** The Message-ID of a notice: the same on every attempt, so a retry after a lost reply is recognisable as one. */
export function noticeMessageId(
  message: RenderedNotification,
  recipient: NotificationRecipient,
  host: string,
) {
  // The user id and event are there too: restoring a backup reuses outbox ids, and some receivers silently drop
  // a message whose Message-ID they have seen before.
  return `<notice-${message.outboxId}-u${recipient.userId}-${message.event}@${host}>`;
}

/**
 * A refusal of this message or this recipient that the server says is final (5xx to RCPT TO, MAIL FROM or the
 * message itself): retrying would be refused again. A 5xx to AUTH, or a connection error, is about our side or
 * the network and is retried, so a wrong password does not fail every queued mail for good.
 */
export function isPermanentSmtpRefusal(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const { code, permanent } = err as SmtpError;
  return permanent === true && (code === 'EENVELOPE' || code === 'EMESSAGE');
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);

interface Footer {
  readonly appUrl: string;
  readonly legalName: string;
  readonly address: string;
  readonly unsubscribeUrl: string | undefined;
}

function textBody(message: RenderedNotification, footer: Footer): string {
  const lines = [
    message.text.trimEnd(),
    '',
    `Open OptionPilot: ${footer.appUrl}`,
    '',
    '--',
    footer.legalName,
  ];
  lines.push(footer.address);
  if (footer.unsubscribeUrl !== undefined) lines.push(`Unsubscribe: ${footer.unsubscribeUrl}`);
  return `${lines.join('\n')}\n`;
}

/** The renderer's HTML (already escaped) inside a small layout: one column, inline styles, the footer. */
function htmlBody(message: RenderedNotification, footer: Footer): string {
  const muted = 'color:#6b7280;font-size:12px;line-height:18px';
  const unsubscribe =
    footer.unsubscribeUrl === undefined
      ? ''
      : `<p style="${muted};margin:8px 0 0"><a href="${escapeHtml(footer.unsubscribeUrl)}" style="color:#6b7280">Unsubscribe</a> from these e-mails.</p>`;
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(message.title)}</title></head>
<body style="margin:0;padding:0;background:#f3f4f6">
<div style="max-width:560px;margin:0 auto;padding:24px 16px;font-family:Arial,Helvetica,sans-serif;color:#111827;font-size:15px;line-height:22px">
<div style="background:#ffffff;border-radius:8px;padding:24px">
${message.html}
<p style="margin:24px 0 0"><a href="${escapeHtml(footer.appUrl)}" style="display:inline-block;background:#1c7ed6;color:#ffffff;text-decoration:none;padding:10px 18px;border-radius:6px">Open OptionPilot</a></p>
</div>
<p style="${muted};margin:16px 0 0">${escapeHtml(footer.legalName)}<br>${escapeHtml(footer.address)}</p>
${unsubscribe}
</div>
</body>
</html>
`;
}

/** The e-mail channel over a pooled SMTP transport; `close()` ends the pool once in-flight messages are done. */
export function createEmailChannel(options: EmailChannelOptions): NotificationChannel {
  const publicUrl = options.publicUrl.replace(/\/+$/, '');
  const host = new URL(publicUrl).hostname;
  const transport = nodemailer.createTransport({
    url: options.smtpUrl,
    pool: true,
    maxConnections: options.maxConnections ?? 5,
    maxMessages: options.maxMessagesPerConnection ?? 100,
  });
  const inFlight = new Set<Promise<unknown>>();

  async function deliver(
    recipient: NotificationRecipient,
    message: RenderedNotification,
  ): Promise<DeliveryOutcome> {
    if (recipient.email.trim() === '') return { status: 'no_address' };
    // An empty URL would make an empty `List-Unsubscribe: <>`, which providers treat as a malformed header.
    const unsubscribeUrl =
      message.essential || recipient.unsubscribeUrl === '' ? undefined : recipient.unsubscribeUrl;
    const footer: Footer = {
      appUrl: `${publicUrl}${message.path.startsWith('/') ? '' : '/'}${message.path}`,
      legalName: options.operator.legalName,
      address: options.operator.address,
      unsubscribeUrl,
    };
    const messageId = noticeMessageId(message, recipient, host);
    const sending = transport.sendMail({
      from: options.from,
      to: recipient.name.trim() === '' ? recipient.email : { name: recipient.name, address: recipient.email },
      subject: message.title,
      text: textBody(message, footer),
      html: htmlBody(message, footer),
      messageId,
      headers: {
        // RFC 3834: an automatic message, so out-of-office replies are not sent back to it
        'Auto-Submitted': 'auto-generated',
        ...(unsubscribeUrl === undefined
          ? {}
          : {
              // RFC 2369 + RFC 8058: mail clients show an unsubscribe button that POSTs to the URL
              'List-Unsubscribe': `<${unsubscribeUrl}>`,
              'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
            }),
      },
      attachments: (message.attachments ?? []).map((a) => ({
        filename: a.filename,
        contentType: a.contentType,
        content: a.content,
      })),
    });
    inFlight.add(sending);
    try {
      const info = await sending;
      options.logger.debug(
        { outboxId: message.outboxId, event: message.event, messageId, response: info.response },
        'notification e-mail accepted by SMTP',
      );
      return { status: 'sent', detail: messageId };
    } catch (err) {
      if (isPermanentSmtpRefusal(err)) {
        const { responseCode, command } = err as SmtpError;
        throw new PermanentDeliveryError(
          `SMTP refused the message for good (${responseCode ?? '5xx'} to ${command ?? 'SMTP'}): ${(err as Error).message}`,
        );
      }
      throw err;
    } finally {
      inFlight.delete(sending);
    }
  }

  return {
    name: 'email',
    deliver,
    async close() {
      // Idle connections close at once; one in the middle of a message finishes it first.
      transport.close();
      await Promise.allSettled([...inFlight]);
    },
  };
}

/** The e-mail channel as configured (SMTP_URL, MAIL_FROM, SMTP_MAX_CONNECTIONS, OPERATOR_*), or null without SMTP_URL. */
export function emailChannelFromConfig(config: Config, logger: Logger): NotificationChannel | null {
  if (config.smtpUrl === undefined) return null;
  return createEmailChannel({
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    publicUrl: config.publicUrl,
    operator: { legalName: config.operator.legalName, address: config.operator.address },
    maxConnections: config.smtpMaxConnections,
    logger,
  });
}
