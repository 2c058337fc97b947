// A run that submits known secrets — passwords (at sign-up, sign-in, change and reset), a broker API secret, a
// reset token and session tokens — and then looks for each in everything an attacker or a curious operator could
// read: the server's log lines, every HTTP response, every socket frame, and the raw bytes of the SQLite database
// and its WAL. None may appear (session tokens are expected only in the responses that issue them).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SQLITE_FILE_NAME } from '../../server/src/db';
import type { MailMessage } from '../../server/src/mail/mailer';
import { connected, openSocket, type TestSocket } from '../../server/src/testing/socket';
import {
  registration,
  startTestServer,
  type TestServer,
  type RequestOptions,
} from '../../server/src/testing/server';

const PASSWORDS = ['Leak1Sign-up', 'Leak2Changed', 'Leak3Reset'] as const;
const BROKER_SECRET = 'brokerSECRET-9f8e7d6c5b4a';

describe('secrets never leak', () => {
  let t: TestServer;
  const mails: MailMessage[] = [];
  const responses: string[] = [];
  const frames: string[] = [];
  const sessionTokens: string[] = [];
  let resetToken = '';
  let socket: TestSocket | undefined;

  const send = async (method: string, path: string, options: RequestOptions = {}) => {
    const res = await t.request(method, path, options);
    responses.push(res.text);
    if (typeof res.json.token === 'string') sessionTokens.push(res.json.token);
    return res;
  };

  beforeAll(async () => {
    t = await startTestServer({
      overrides: { mailer: { send: async (m) => void mails.push(m), close: () => {} } },
    });
    const email = 'ashaleak@example.com';
    const reg = await send('POST', '/api/auth/register', {
      body: { ...registration('leak'), password: PASSWORDS[0] },
    });
    expect(reg.status).toBe(201);
    await send('POST', '/api/auth/login', { body: { email, password: 'Wrong-guess-1' } });
    const login = await send('POST', '/api/auth/login', { body: { email, password: PASSWORDS[0] } });
    expect(login.status).toBe(200);

    socket = await connected(openSocket(t.url, login.json.token as string));
    socket.onAny((event: string, ...args: unknown[]) => frames.push(JSON.stringify([event, args])));
    await new Promise((resolve) =>
      socket?.emit('sync:request', { topics: ['bot', 'stats', 'market'] }, resolve),
    );

    const saved = await send('POST', '/api/user/broker', {
      token: login.json.token as string,
      body: { brokerType: 'zerodha', apiKey: 'kiteKEY12345678', apiSecret: BROKER_SECRET },
    });
    expect(saved.status).toBe(200);
    await send('GET', '/api/user/broker', { token: login.json.token as string });
    const changed = await send('POST', '/api/auth/change-password', {
      token: login.json.token as string,
      body: { currentPassword: PASSWORDS[0], newPassword: PASSWORDS[1] },
    });
    expect(changed.status).toBe(200);

    await send('POST', '/api/auth/request-password-reset', { body: { email } });
    resetToken = /token=([\w-]+)/.exec(mails[0]?.text ?? '')?.[1] ?? '';
    expect(resetToken).not.toBe('');
    const reset = await send('POST', '/api/auth/reset-password', {
      body: { token: resetToken, newPassword: PASSWORDS[2] },
    });
    expect(reset.status).toBe(200);
    const last = await send('POST', '/api/auth/login', { body: { email, password: PASSWORDS[2] } });
    expect(last.status).toBe(200);
    await send('GET', '/api/auth/me', { token: last.json.token as string });
  });
  afterAll(async () => {
    socket?.disconnect();
    await t.close();
  });

  const secrets = () => [...PASSWORDS, BROKER_SECRET, resetToken];

  it('not in any log line', () => {
    const logs = t.logs.join('\n');
    expect(logs.length).toBeGreaterThan(0);
    for (const secret of [...secrets(), ...sessionTokens]) expect(logs).not.toContain(secret);
  });

  it('not in any response (session tokens only where they are issued)', () => {
    const all = responses.join('\n');
    for (const secret of secrets()) expect(all).not.toContain(secret);
    expect(all).not.toContain('$argon2');
  });

  it('not in any socket frame', () => {
    expect(frames.length).toBeGreaterThan(0);
    const all = frames.join('\n');
    for (const secret of [...secrets(), ...sessionTokens]) expect(all).not.toContain(secret);
  });

  it('not in the raw bytes of the SQLite database or its WAL (the broker secret is sealed)', () => {
    const file = join(t.config.dataDir, SQLITE_FILE_NAME);
    const bytes = Buffer.concat(
      [file, `${file}-wal`].filter((p) => existsSync(p)).map((p) => readFileSync(p)),
    );
    expect(bytes.length).toBeGreaterThan(0);
    expect(bytes.includes('ashaleak@example.com'), 'the search reaches the stored rows').toBe(true);
    for (const secret of [...secrets(), ...sessionTokens]) {
      expect(bytes.includes(secret), secret.slice(0, 12)).toBe(false);
      expect(bytes.includes(Buffer.from(secret, 'utf16le'))).toBe(false);
    }
  });
});
