// Structured logs (pino). Redaction is configured once here so no call site can print a credential by accident:
// request headers, bodies and any object carrying the usual secret-bearing keys are printed as [Redacted].
import { pino, type Logger, type DestinationStream } from 'pino';

export type { Logger };

const SECRET_KEYS = [
  'password',
  'newPassword',
  'currentPassword',
  'password_hash',
  'passwordHash',
  'token',
  'token_hash',
  'tokenHash',
  'accessToken',
  'access_token',
  'refreshToken',
  'refresh_token',
  'secret',
  'apiSecret',
  'api_secret',
  'apiKey',
  'api_key',
  'authorization',
  'cookie',
  'hash',
  'jwtSecret',
  'keySecret',
  'webhookSecret',
  'encryptionKey',
  'smtpUrl',
  'razorpay_signature',
  'x-razorpay-signature',
  'signingSecret',
  // sealed broker columns: ciphertext is only as safe as the key file next to the logs
  'api_key_enc',
  'api_secret_enc',
  'access_token_enc',
  'refresh_token_enc',
  // a form login's daily secrets (Angel One's MPIN and TOTP) and a broker's session tokens
  'mpin',
  'totp',
  'fields',
  'jwtToken',
  'feedToken',
  'auth_code',
  'request_token',
  // a browser's push subscription (whoever holds it can write to that browser; web-push errors carry the endpoint)
  // and the server's VAPID private key
  'endpoint',
  'p256dh',
  'privateKey',
  // the same secrets under their environment variable names (a logged env or config dump)
  'JWT_SECRET',
  'ENCRYPTION_KEY',
  'RAZORPAY_KEY_SECRET',
  'RAZORPAY_WEBHOOK_SECRET',
  'SMTP_URL',
  // the Telegram bot's token (config.telegram.botToken); grammY's own errors are never logged raw (they may carry
  // request URLs, which contain the token): see notifications/channels/telegramErrors.ts
  'botToken',
  'TELEGRAM_BOT_TOKEN',
  // Knex puts a query's bound values on timeout errors (`err.bindings`): password hashes, sealed secrets, token
  // hashes. `compileSqlOnError: false` keeps them out of the message only.
  'bindings',
  // issue 21–23's secrets: the /metrics token, a Redis URL (it may carry a password), Dhan's header token and consent
  // secrets, the backup passphrase and bucket key under their variable names
  'metricsToken',
  'METRICS_TOKEN',
  'redisUrl',
  'REDIS_URL',
  'access-token',
  'app_secret',
  'tokenId',
  'BACKUP_PASSPHRASE',
  'BACKUP_S3_SECRET_ACCESS_KEY',
];

// pino's redact paths are exact; list each key at the top level and one or two levels deep (`*.key`, `*.*.key`),
// which covers `{ req: { headers: { authorization } } }`, `{ user: { password_hash } }` and `{ body: { password } }`.
export const REDACT_PATHS = SECRET_KEYS.flatMap((key) => {
  const k = /^[\w$]+$/.test(key) ? key : `["${key}"]`;
  const nested = k.startsWith('[') ? k : `.${k}`;
  return [k, `*${nested}`, `*.*${nested}`];
}).concat([
  'req.headers["set-cookie"]',
  'res.headers["set-cookie"]',
  // PostgreSQL errors carry the offending row values in clear (`Key (token_hash)=(…) already exists.`).
  'err.detail',
  'err.cause.detail',
  '*.err.detail',
]);

export interface LoggerOptions {
  level: string;
  /** tests pass a stream to capture output */
  destination?: DestinationStream;
}

/**
 * Creates the process logger with redaction of credentials. Without a destination it writes to stdout
 * asynchronously (pino flushes what is buffered when the process exits), so a request never waits on `write(2)`.
 */
export function createLogger(options: LoggerOptions): Logger {
  return pino(
    {
      level: options.level,
      redact: { paths: REDACT_PATHS, censor: '[Redacted]' },
      base: undefined,
    },
    options.destination ?? pino.destination({ dest: 1, sync: false }),
  );
}

/**
 * The logger of the per-request access line: the same level and destination, without redaction. Evaluating the
 * ~120 redaction paths (most of them wildcards) on every access line cost 200–400 µs per request in the
 * bench:live profile, and that line only ever carries fixed, secret-free fields (request id, method, path without
 * the query string, status, duration, user id). Log nothing else through it.
 */
export function createAccessLogger(logger: Logger): Logger {
  return logger.child({}, { redact: [] });
}
