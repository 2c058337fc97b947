import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createAccessLogger, createLogger } from './logger';

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
        config: {
          jwtSecret: 'jwtsecretvalue',
          keySecret: 'rzpsecret',
          metricsToken: 'metricstokenvalue',
          redisUrl: 'redis://:redispw@h:6379',
        },
        dhan: { headers: { 'access-token': 'dhantokenvalue' } },
        reset: { token_hash: 'deadbeef' },
      },
      'something happened',
    );
    const line = lines.join('');
    for (const secret of [
      'metricstokenvalue',
      'redispw',
      'dhantokenvalue',
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

describe('logger redaction of errors and sealed columns', () => {
  it("hides a Knex error's bound values (a hash, a sealed secret) and a PostgreSQL error's detail", () => {
    const { lines, logger } = capture();
    // What Knex attaches to a KnexTimeoutError when the (single SQLite) connection cannot be acquired.
    const knexTimeout = Object.assign(new Error('Knex: Timeout acquiring a connection.'), {
      sql: 'update "users" set "password_hash" = ? where "id" = ?',
      bindings: ['$argon2id$v=19$m=19456$bindinghash', 7],
    });
    // What pg attaches to a unique violation: the offending value in clear.
    const pgUnique = Object.assign(new Error('duplicate key value violates unique constraint'), {
      code: '23505',
      detail: 'Key (token_hash)=(5e3cdetailhash) already exists.',
    });
    logger.error({ err: knexTimeout, requestId: 'r1' }, 'unexpected error');
    logger.error({ err: new Error('wrapped', { cause: knexTimeout }) }, 'wrapped');
    logger.error({ err: pgUnique }, 'insert failed');
    const text = lines.join('');
    expect(text).not.toContain('bindinghash');
    expect(text).not.toContain('detailhash');
    // The SQL text (placeholders only) stays, it is what makes the error useful.
    expect(text).toContain('update \\"users\\" set');
  });

  it('hides sealed broker columns, the payment signing secret and secrets logged under their variable names', () => {
    const { lines, logger } = capture();
    logger.warn(
      {
        account: {
          api_key_enc: 'v1:iv:tag:sealedkey',
          api_secret_enc: 'v1:iv:tag:sealedsecret',
          access_token_enc: 'v1:iv:tag:sealedaccess',
          refresh_token_enc: 'v1:iv:tag:sealedrefresh',
        },
        gateway: { provider: 'test', signingSecret: 'paymenttestsecret' },
        env: {
          JWT_SECRET: 'envjwtsecret',
          ENCRYPTION_KEY: 'envencryptionkey',
          RAZORPAY_KEY_SECRET: 'envrzpsecret',
          RAZORPAY_WEBHOOK_SECRET: 'envwebhooksecret',
          SMTP_URL: 'smtps://u:envsmtppass@mail',
          TELEGRAM_BOT_TOKEN: '123:envtelegramtoken',
        },
        config: { telegram: { botToken: '123:configtelegramtoken', apiRoot: 'https://api.telegram.org' } },
        headers: { 'x-razorpay-signature': 'webhooksignature' },
      },
      'dump',
    );
    const text = lines.join('');
    for (const secret of [
      'sealedkey',
      'sealedsecret',
      'sealedaccess',
      'sealedrefresh',
      'paymenttestsecret',
      'envjwtsecret',
      'envencryptionkey',
      'envrzpsecret',
      'envwebhooksecret',
      'envsmtppass',
      'webhooksignature',
      'envtelegramtoken',
      'configtelegramtoken',
    ]) {
      expect(text).not.toContain(secret);
    }
    expect(text).toContain('"provider":"test"');
  });
});

describe('access logger', () => {
  it('writes to the same destination at the same level, while the process logger keeps redacting', () => {
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        lines.push(chunk.toString());
        callback();
      },
    });
    const logger = createLogger({ level: 'warn', destination });
    const access = createAccessLogger(logger);
    access.info({ path: '/api/ping' }, 'request'); // below warn: dropped like any other info line
    access.warn(
      { requestId: 'r1', method: 'GET', path: '/api/user/stats', status: 200, ms: 1, userId: 7 },
      'request',
    );
    logger.warn({ token: 'eyJsecret' }, 'after the child was made');
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      requestId: 'r1',
      path: '/api/user/stats',
      status: 200,
      userId: 7,
    });
    expect(lines[1]).not.toContain('eyJsecret');
    expect(JSON.parse(lines[1]!)).toMatchObject({ token: '[Redacted]' });
  });
});
