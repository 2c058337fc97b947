// The fake SMTP server in a process of its own, for benchmarks (IPC: fakeProcess.ts): receiving and parsing the
// e-mails stays off the event loop whose sending is being measured, as a real mail server is on another machine.
// The child does not parse messages (`parse: false`); the parent reads how many arrived and when.
//   parent: const smtp = await startSmtpFakeProcess(); … SMTP_URL = smtp.url … await smtp.waitForAccepted(1000)
import { fileURLToPath } from 'node:url';
import { startFakeSmtp } from '../fakes/smtp/server';
import { fakeChildFillPrice, forkFakeProcess, serveFakeProcess } from './fakeProcess';

export interface SmtpFakeStats {
  /** messages accepted so far */
  readonly accepted: number;
  /** epoch ms the first and the last message were accepted (0 before any) */
  readonly firstAt: number;
  readonly lastAt: number;
  /** SMTP sessions opened */
  readonly connections: number;
  /** every envelope recipient, in arrival order */
  readonly recipients: readonly string[];
}

export interface SmtpFakeProcess {
  /** a value for SMTP_URL */
  readonly url: string;
  stats(): Promise<SmtpFakeStats>;
  /** polls until `count` messages arrived; rejects after `timeoutMs` (default 60 s) */
  waitForAccepted(count: number, timeoutMs?: number): Promise<SmtpFakeStats>;
  close(): Promise<void>;
}

/** Forks this file as the fake SMTP server's process; resolves once it listens. */
export async function startSmtpFakeProcess(): Promise<SmtpFakeProcess> {
  // forkFakeProcess passes a broker fake's fill price; the SMTP fake has none (0).
  const fake = await forkFakeProcess<{ url: string }>(fileURLToPath(import.meta.url), 'SMTP', 0);
  const stats = () => fake.ask<SmtpFakeStats>({ type: 'stats' });
  return {
    url: fake.ready.url,
    stats,
    async waitForAccepted(count, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const now = await stats();
        if (now.accepted >= count) return now;
        if (Date.now() > deadline)
          throw new Error(`the SMTP fake accepted ${now.accepted} of ${count} messages`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    close: () => fake.close(),
  };
}

async function runChild(): Promise<void> {
  const smtp = await startFakeSmtp({ parse: false });
  serveFakeProcess(
    { url: smtp.url },
    (): SmtpFakeStats => ({
      accepted: smtp.accepted.length,
      firstAt: smtp.accepted[0]?.acceptedAt ?? 0,
      lastAt: smtp.accepted[smtp.accepted.length - 1]?.acceptedAt ?? 0,
      connections: smtp.connections,
      recipients: smtp.accepted.flatMap((m) => m.envelope.to),
    }),
    () => smtp.close(),
  );
}

if (fakeChildFillPrice() !== undefined) await runChild();
