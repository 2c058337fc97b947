// SMTP reachability: connect to SMTP_URL's host (TLS for smtps://), read the 220 greeting and say EHLO, as the
// mail transport will. Credentials are not sent and never printed: the report names host and port only.
import { connect as tcpConnect, type Socket } from 'node:net';
import { hostname } from 'node:os';
import { connect as tlsConnect } from 'node:tls';
import { ok, warn, type DoctorCheck } from './types';

/** Reads SMTP replies (multi-line `250-…` until `250 …`) and resolves each complete reply's code and last line. */
function replyReader(socket: Socket): () => Promise<{ code: number; line: string }> {
  let buffered = '';
  const waiting: Array<(reply: { code: number; line: string }) => void> = [];
  const complete: Array<{ code: number; line: string }> = [];
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    buffered += chunk;
    let end: number;
    while ((end = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, end).replace(/\r$/, '');
      buffered = buffered.slice(end + 1);
      if (!/^\d{3}(?: |$)/.test(line)) continue; // a continuation line (`250-SIZE …`)
      const reply = { code: Number(line.slice(0, 3)), line };
      const next = waiting.shift();
      if (next) next(reply);
      else complete.push(reply);
    }
  });
  return () => {
    const ready = complete.shift();
    return ready ? Promise.resolve(ready) : new Promise((resolve) => waiting.push(resolve));
  };
}

/** Greets `url`'s server and says EHLO; resolves with the EHLO reply's first line or rejects with why not. */
export async function smtpEhlo(url: URL, timeoutMs: number): Promise<string> {
  const secure = url.protocol === 'smtps:';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const port = Number(url.port || (secure ? 465 : 587));
  const socket: Socket = secure ? tlsConnect({ host, port, servername: host }) : tcpConnect({ host, port });
  socket.setTimeout(timeoutMs);
  const failure = new Promise<never>((_, reject) => {
    socket.on('error', reject);
    socket.on('timeout', () => reject(new Error(`no answer within ${timeoutMs} ms`)));
    socket.on('close', () => reject(new Error('the server closed the connection')));
  });
  const next = replyReader(socket);
  try {
    const greeting = await Promise.race([next(), failure]);
    if (greeting.code !== 220) throw new Error(`greeting was "${greeting.line}"`);
    socket.write(`EHLO ${hostname() || 'localhost'}\r\n`);
    const ehlo = await Promise.race([next(), failure]);
    if (ehlo.code !== 250) throw new Error(`EHLO answered "${ehlo.line}"`);
    socket.write('QUIT\r\n');
    return ehlo.line;
  } finally {
    failure.catch(() => undefined);
    socket.destroy();
  }
}

export const smtpCheck: DoctorCheck = {
  name: 'smtp',
  async run({ config, timeoutMs }) {
    if (config.smtpUrl === undefined) {
      return warn(
        'SMTP_URL is not set: no password-reset or notification e-mails',
        'set SMTP_URL=smtps://user:password@smtp.example.com:465 and MAIL_FROM',
      );
    }
    const url = new URL(config.smtpUrl);
    const where = `${url.hostname}:${url.port || (url.protocol === 'smtps:' ? 465 : 587)}`;
    try {
      await smtpEhlo(url, timeoutMs);
      return ok(`${where} greets and answers EHLO${url.protocol === 'smtps:' ? ' over TLS' : ''}`);
    } catch (err) {
      return warn(
        `${where} not reachable: ${err instanceof Error ? err.message : String(err)}`,
        'check SMTP_URL, your provider, and that outbound connections to that port are allowed',
      );
    }
  },
};
