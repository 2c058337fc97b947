import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from './logger';

function capture() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(chunk.toString());
      callback();
    },
  });
  return { lines, logger: createLogger({ level: 'info', destination }) };
}

describe('logger redaction', () => {
  it('prints [Redacted] for credentials at the top level and nested', () => {
    const { lines, logger } = capture();
    logger.info(
      {
        password: 'Hunter22pw',
        token: 'eyJtoken',
        req: {
          headers: { authorization: 'Bearer eyJabc', cookie: 'sid=s3cr3t', accept: 'application/json' },
        },
        user: { email: 'a@b.co', password_hash: '$argon2id$v=19$xyz', apiKey: 'KEY123', apiSecret: 'SEC456' },
        body: { newPassword: 'NewPw1234', currentPassword: 'OldPw1234' },
        broker: { access_token: 'brokertok', secret: 'brokersecret' },
        config: { jwtSecret: 'jwtsecretvalue', keySecret: 'rzpsecret' },
        reset: { token_hash: 'deadbeef' },
      },
      'something happened',
    );
    const line = lines.join('');
    for (const secret of [
      'Hunter22pw',
      'eyJtoken',
      'eyJabc',
      's3cr3t',
      '$argon2id',
      'KEY123',
      'SEC456',
      'NewPw1234',
      'OldPw1234',
      'brokertok',
      'brokersecret',
      'jwtsecretvalue',
      'rzpsecret',
      'deadbeef',
    ]) {
      expect(line).not.toContain(secret);
    }
    const parsed = JSON.parse(line) as {
      password: string;
      req: { headers: { authorization: string; accept: string } };
      user: { email: string; password_hash: string };
    };
    expect(parsed.password).toBe('[Redacted]');
    expect(parsed.req.headers.authorization).toBe('[Redacted]');
    expect(parsed.user.password_hash).toBe('[Redacted]');
    // Non-secret fields stay readable.
    expect(parsed.req.headers.accept).toBe('application/json');
    expect(parsed.user.email).toBe('a@b.co');
  });
});
