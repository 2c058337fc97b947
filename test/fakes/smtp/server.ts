// A fake SMTP server on 127.0.0.1 (random port by default) built on smtp-server, the server half of nodemailer's
// project, so the real nodemailer transport speaks real SMTP to it. Every accepted message is parsed with
// mailparser and kept for tests and benches; a recipient can be refused for good (550) and the next messages
// refused for now (421), to exercise the channel's permanent/retryable split.
import type { AddressInfo } from 'node:net';
import { simpleParser, type AddressObject, type ParsedMail } from 'mailparser';
import { SMTPServer, type SMTPServerDataStream } from 'smtp-server';

/** One message as the fake received it: the envelope plus the parsed MIME message. */
export interface ReceivedMail {
  /** SMTP envelope: MAIL FROM and every accepted RCPT TO */
  readonly envelope: { readonly from: string; readonly to: readonly string[] };
  /** the Message-ID header, angle brackets included (`<notice-7@example.com>`) */
  readonly messageId: string | undefined;
  readonly from: string;
  /** addresses of the To header */
  readonly to: readonly string[];
  readonly subject: string;
  readonly text: string;
  /** the HTML part, or '' when the message has none */
  readonly html: string;
  /** every header, names lower-cased, values as raw text (unfolded) */
  readonly headers: ReadonlyMap<string, string>;
  readonly attachments: readonly ReceivedAttachment[];
  /** the message exactly as transmitted */
  readonly raw: Buffer;
}

/** A message as accepted, before parsing. */
export interface AcceptedMail {
  readonly envelope: ReceivedMail['envelope'];
  readonly raw: Buffer;
  /** epoch ms the DATA ended (a bench's "arrived" time) */
  readonly acceptedAt: number;
}

export interface ReceivedAttachment {
  readonly filename: string | undefined;
  readonly contentType: string;
  readonly content: Buffer;
}

export interface FakeSmtpOptions {
  /** fixed port (a bench or a standalone run); default a random free one */
  readonly port?: number;
  /** require AUTH PLAIN/LOGIN with these credentials (535 otherwise); default: AUTH optional, anything accepted */
  readonly auth?: { readonly user: string; readonly pass: string };
  /** parse each message with mailparser into `messages` (default true); a bench turns it off and counts `accepted` */
  readonly parse?: boolean;
}

export interface FakeSmtp {
  /** `smtp://127.0.0.1:<port>` (with the credentials when `auth` was given): a value for SMTP_URL */
  readonly url: string;
  readonly port: number;
  /** every accepted message, parsed, in the order the DATA ended (empty with `parse: false`) */
  readonly messages: ReceivedMail[];
  /** every accepted message as envelope + raw bytes, parsed or not */
  readonly accepted: AcceptedMail[];
  /** SMTP sessions opened since the start (a pooled client opens few, an unpooled one one per message) */
  readonly connections: number;
  /** refuses RCPT TO for this address with `code` (default 550 "mailbox unavailable") until `clearFaults()` */
  rejectRecipient(address: string, code?: number): void;
  /** refuses the next `count` messages at MAIL FROM with `code` (default 421 "try again later") */
  failNext(count: number, code?: number): void;
  clearFaults(): void;
  /** forgets the messages received so far (`messages` and `accepted`) */
  reset(): void;
  /** resolves once `count` messages have been accepted (with the parsed `messages`, empty with `parse: false`);
   * rejects after `timeoutMs` (default 10 s) */
  waitForMessages(count: number, timeoutMs?: number): Promise<readonly ReceivedMail[]>;
  close(): Promise<void>;
}

const REPLY_TEXT: Record<number, string> = {
  421: 'Service not available, try again later',
  450: 'Mailbox busy, try again later',
  451: 'Local error in processing, try again later',
  550: 'Mailbox unavailable',
  552: 'Message exceeds storage allocation',
  553: 'Mailbox name not allowed',
};

/** smtp-server replies with an error's `responseCode` and message. */
function smtpError(code: number): Error & { responseCode: number } {
  return Object.assign(new Error(REPLY_TEXT[code] ?? `Refused (${code})`), { responseCode: code });
}

function addressesOf(field: AddressObject | AddressObject[] | undefined): string[] {
  if (field === undefined) return [];
  return (Array.isArray(field) ? field : [field]).flatMap((group) =>
    group.value.flatMap((entry) => (entry.address === undefined ? [] : [entry.address])),
  );
}

function toReceived(parsed: ParsedMail, envelope: ReceivedMail['envelope'], raw: Buffer): ReceivedMail {
  const headers = new Map<string, string>();
  for (const line of parsed.headerLines)
    headers.set(line.key, line.line.slice(line.line.indexOf(':') + 1).trim());
  return {
    envelope,
    messageId: parsed.messageId,
    from: addressesOf(parsed.from)[0] ?? '',
    to: addressesOf(parsed.to),
    subject: parsed.subject ?? '',
    text: parsed.text ?? '',
    html: typeof parsed.html === 'string' ? parsed.html : '',
    headers,
    attachments: parsed.attachments.map((a) => ({
      filename: a.filename,
      contentType: a.contentType,
      content: a.content,
    })),
    raw,
  };
}

async function readAll(stream: SMTPServerDataStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Starts the fake SMTP server on 127.0.0.1. */
export async function startFakeSmtp(options: FakeSmtpOptions = {}): Promise<FakeSmtp> {
  const messages: ReceivedMail[] = [];
  const accepted: AcceptedMail[] = [];
  const parse = options.parse ?? true;
  let connections = 0;
  const rejected = new Map<string, number>();
  const pendingFailures: number[] = [];
  const waiters = new Set<() => void>();

  const server = new SMTPServer({
    // Plain SMTP on loopback: no certificate to trust, and nodemailer does not try STARTTLS when it is not offered.
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authOptional: options.auth === undefined,
    logger: false,
    // close() waits this long for clients still connected (an open pool) before cutting them off
    closeTimeout: 1_000,
    banner: 'OptionPilot fake SMTP',
    onConnect(_session, callback) {
      connections += 1;
      callback();
    },
    onAuth(auth, _session, callback) {
      const ok =
        options.auth === undefined ||
        (auth.username === options.auth.user && auth.password === options.auth.pass);
      if (ok) callback(null, { user: auth.username ?? '' });
      else callback(Object.assign(new Error('Authentication credentials invalid'), { responseCode: 535 }));
    },
    onMailFrom(_address, _session, callback) {
      const code = pendingFailures.shift();
      callback(code === undefined ? null : smtpError(code));
    },
    onRcptTo(address, _session, callback) {
      const code = rejected.get(address.address.toLowerCase());
      callback(code === undefined ? null : smtpError(code));
    },
    onData(stream, session, callback) {
      void (async () => {
        try {
          const raw = await readAll(stream);
          const acceptedAt = Date.now();
          const envelope = {
            from: session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address,
            to: session.envelope.rcptTo.map((r) => r.address),
          };
          if (parse) messages.push(toReceived(await simpleParser(raw), envelope, raw));
          accepted.push({ envelope, raw, acceptedAt });
          for (const wake of waiters) wake();
          callback(null);
        } catch (err) {
          callback(err instanceof Error ? err : new Error(String(err)));
        }
      })();
    },
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.server.address() as AddressInfo;
  const credentials =
    options.auth === undefined
      ? ''
      : `${encodeURIComponent(options.auth.user)}:${encodeURIComponent(options.auth.pass)}@`;

  return {
    url: `smtp://${credentials}127.0.0.1:${port}`,
    port,
    messages,
    accepted,
    get connections() {
      return connections;
    },
    rejectRecipient(address, code = 550) {
      rejected.set(address.toLowerCase(), code);
    },
    failNext(count, code = 421) {
      for (let i = 0; i < count; i += 1) pendingFailures.push(code);
    },
    clearFaults() {
      rejected.clear();
      pendingFailures.length = 0;
    },
    reset() {
      messages.length = 0;
      accepted.length = 0;
    },
    waitForMessages(count, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (accepted.length < count) return;
          cleanup();
          resolve(parse ? messages : []);
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`fake SMTP received ${accepted.length} of ${count} messages in ${timeoutMs} ms`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
