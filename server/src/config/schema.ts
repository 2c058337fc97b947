// The environment's schema: every variable the server reads, declared and documented here, with the small
// parsers that turn raw strings into typed values (durations, keys, ports, flags, URLs) and the message naming the
// variable when one is invalid. Everything has a working default, so `npm start` runs with no configuration at all.
// load.ts turns the parsed values into the Config the rest of the server sees.
import { z } from 'zod';
import { brokerEnvShape } from '../brokers/env';
import { BROKER_DEFINITIONS, brokerFeeds } from '../brokers/registry';
import { decodeKey } from '../crypto';

const DURATION_UNITS_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** Parses `90`, `90s`, `30m`, `12h`, `7d` (a bare number is seconds, as in JWT libraries) into milliseconds. */
export function parseDurationMs(text: string): number | null {
  const match = /^(\d+)\s*(ms|s|m|h|d)?$/.exec(text.trim());
  if (!match) return null;
  const unit = (match[2] ?? 's') as keyof typeof DURATION_UNITS_MS;
  return Number(match[1]) * DURATION_UNITS_MS[unit];
}

const duration = (fallback: string, minMs: number, maxMs: number) =>
  z
    .string()
    .default(fallback)
    .transform((v, ctx) => {
      const ms = parseDurationMs(v);
      if (ms === null || ms < minMs || ms > maxMs) {
        ctx.addIssue({
          code: 'custom',
          message: `must be a duration like 30m, 12h or 7d between ${minMs / 1000}s and ${maxMs / 86_400_000}d (got "${v}")`,
        });
        return z.NEVER;
      }
      return ms;
    });

const base64Key = z.string().refine((v) => {
  try {
    decodeKey(v, 'key');
    return true;
  } catch {
    return false;
  }
}, 'must be 32 random bytes as base64, e.g. the output of `openssl rand -base64 32`');

const port = z.coerce
  .number({ error: 'must be a port number' })
  .int('must be a whole number')
  .min(0, 'must be between 0 and 65535')
  .max(65535, 'must be between 0 and 65535');

const flag = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' })
    .default(fallback ? 'true' : 'false')
    .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** Empty strings in .env files mean "not set". */
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === '' ? undefined : v), schema.optional());

const url = (protocols: RegExp, hint: string) =>
  z.string().refine((v) => {
    try {
      return protocols.test(new URL(v).protocol);
    } catch {
      return false;
    }
  }, `must be a URL like ${hint}`);

/** `FEED` values of the registered brokers' live feeds (`kite`, `upstox`, …) → their broker. */
export const BROKER_FEEDS = brokerFeeds(BROKER_DEFINITIONS);
const FEED_CHOICES = ['sim', 'replay:<file>', ...Object.keys(BROKER_FEEDS)];

/**
 * The operator's details as shipped: placeholders that let `npm start` run for a demo, and that production refuses
 * (`assertProductionReady`). Support hours have no placeholder text of their own (the spec's hours are a plausible
 * real value), so SUPPORT_HOURS counts as a placeholder while it is unset.
 */
export const OPERATOR_PLACEHOLDERS = {
  OPERATOR_LEGAL_NAME: 'OptionPilot Demo (placeholder name)',
  OPERATOR_ADDRESS: 'Placeholder address, 1 Demo Street, Bengaluru 560001, Karnataka',
  OPERATOR_GSTIN: '29AAAAA0000A1Z5',
  SUPPORT_EMAIL: 'support@optionpilot.example',
  SUPPORT_PHONE: '+91 80 0000 0000',
  SUPPORT_HOURS: 'Monday-Friday 9:00 AM-6:00 PM IST',
} as const;

export type OperatorVariable = keyof typeof OPERATOR_PLACEHOLDERS;

/** MAX_CONNECTIONS_PER_IP without a proxy: a household or office behind one NAT with several browsers (about 7
 * connections each) fits; a single client holding a hundred trickling connections does not. */
export const DEFAULT_MAX_CONNECTIONS_PER_IP = 64;

export const envSchema = z.object({
  /** `production` turns off developer conveniences; `test` is set by Vitest. */
  NODE_ENV: z
    .enum(['development', 'production', 'test'], { error: 'must be development, production or test' })
    .default('development'),
  /** HTTP + Socket.IO listen port (0 = any free port, used by tests). */
  PORT: port.default(3000),
  /** Listen address; 127.0.0.1 keeps a fresh install private to the machine. */
  HOST: z.string().min(1, 'must not be empty').default('127.0.0.1'),
  /** Where the SQLite file, generated secrets (JWT key, encryption key) and uploads live. */
  DATA_DIR: z.string().min(1, 'must not be empty').default('./data'),
  /** `postgres://…` switches to PostgreSQL; unset means SQLite in DATA_DIR. */
  DATABASE_URL: optional(url(/^postgres(ql)?:$/, 'postgres://user:pass@host:5432/db')),
  /** Scale-out (README "When one machine is not enough"): `redis://…` shares Socket.IO rooms and the login and
   * sign-up limits between nodes; unset means one process with everything in its memory. */
  REDIS_URL: optional(url(/^rediss?:$/, 'redis://127.0.0.1:6379')),
  /** `all` (default): one process serving and trading, as on one VPS. `web`: serves REST and Socket.IO, never runs
   * the engine. `engine`: serves too and competes for the engine lock. With REDIS_URL, `all` competes as well. */
  /** Prefix of every Redis key, stream and channel this install uses (several installs may share one Redis). */
  REDIS_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9:_.-]{1,64}$/, 'must be 1-64 letters, digits or : _ . -')
    .default('optionpilot:'),
  NODE_ROLE: z.enum(['all', 'web', 'engine'], { error: 'must be all, web or engine' }).default('all'),
  /** The address people reach the app at: used in e-mailed links and for the default admin's domain. Defaults to http://HOST:PORT. */
  PUBLIC_URL: optional(url(/^https?:$/, 'https://optionpilot.example.com')),
  /** Trust X-Forwarded-For / X-Forwarded-Proto from a reverse proxy (only when one is in front). */
  TRUST_PROXY: flag(false),
  /** Bearer token Prometheus sends to scrape `GET /metrics` (at least 32 characters, e.g. `openssl rand -hex 32`).
   * Unset: /metrics answers only connections from the machine itself (127.0.0.1 / ::1), and not at all with
   * TRUST_PROXY on, since a reverse proxy on the same machine makes every visitor look local. */
  METRICS_TOKEN: optional(z.string().min(32, 'must be at least 32 characters (openssl rand -hex 32)')),
  /** pino level. */
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
      error: 'must be one of fatal, error, warn, info, debug, trace, silent',
    })
    .default('info'),
  /** Sign-ups accepted from one IP address per hour (each costs an Argon2id hash); 0 = no limit. */
  REGISTER_LIMIT_PER_IP: z.coerce
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .min(0, 'must be between 0 and 100000')
    .max(100_000, 'must be between 0 and 100000')
    .default(20),
  /** Lifetime of a sign-in (JWT `exp` and the session row). Short by design: the token sits in localStorage. */
  JWT_TTL: duration('12h', 60_000, 30 * 86_400_000),
  /** HS256 signing key: 32 random bytes as base64 (`openssl rand -base64 32`). Unset: generated once into DATA_DIR/secrets/jwt.key (0600). */
  JWT_SECRET: optional(base64Key),
  /** AES-256-GCM key for broker secrets at rest, 32 bytes as base64. Unset: generated into DATA_DIR/secrets/encryption.key. */
  ENCRYPTION_KEY: optional(base64Key),
  /** E-mail of the admin that `POST /api/init-admin` creates; default admin@<PUBLIC_URL's domain>. */
  ADMIN_EMAIL: optional(z.string().trim().toLowerCase().email('must be an e-mail address')),
  /** Mail transport for password-reset links, renewal reminders and notification e-mails, e.g.
   * smtps://user:pass@smtp.example.com. Unset: no e-mail at all; reset links are logged (test mode). */
  SMTP_URL: optional(url(/^smtps?:$/, 'smtps://user:pass@smtp.example.com:465')),
  /** Mail test mode: with SMTP_URL unset, return password-reset links in the API response (and log them).
   * Default: on unless NODE_ENV=production. Never turn it on for a server strangers can reach: whoever asks for a
   * reset of any e-mail would get the link. Ignored when SMTP_URL is set (links are then only e-mailed). */
  RESET_LINK_IN_RESPONSE: optional(
    z.enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' }),
  ),
  /** SMTP connections the notification e-mail channel keeps open at once (a pool: a burst of trade notices
   * reuses them rather than opening one connection per message). Ask your provider what it allows. */
  SMTP_MAX_CONNECTIONS: z.coerce
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .min(1, 'must be between 1 and 50')
    .max(50, 'must be between 1 and 50')
    .default(5),
  /** Sender (From header) of every outgoing e-mail: password resets, reminders and notifications. */
  MAIL_FROM: z
    .string()
    .min(3, 'must be an address like "OptionPilot <no-reply@example.com>"')
    .default('OptionPilot <no-reply@optionpilot.local>'),
  /** Market feed: `sim`, `replay:<file>`, or a registered broker's live feed (`kite`, `upstox`, …: the FEED names
   * in server/src/brokers/registry.ts). */
  FEED: z
    .string()
    .refine(
      (v) => v === 'sim' || /^replay:.+$/.test(v) || Object.hasOwn(BROKER_FEEDS, v),
      `must be ${FEED_CHOICES.slice(0, -1).join(', ')} or ${FEED_CHOICES[FEED_CHOICES.length - 1] ?? ''}`,
    )
    .default('sim'),
  /** With a broker feed: the e-mail of the account whose broker session the feed uses (the operator's own). */
  FEED_ACCOUNT: z.email('must be the e-mail address of a user account').optional(),
  /** Speed factor of the simulated market's virtual clock. */
  SIM_SPEED: z.coerce
    .number({ error: 'must be a number' })
    .positive('must be greater than 0')
    .max(10_000, 'must be at most 10000')
    .default(1),
  /** Seed of the simulated market, for repeatable runs; unset = random. */
  SIM_SEED: optional(z.coerce.number({ error: 'must be a whole number' }).int('must be a whole number')),
  /** `always`: every moment counts as in-session (a demo that works at night); `market`: the real IST calendar. */
  SIM_SESSION: z.enum(['always', 'market'], { error: 'must be always or market' }).default('always'),
  /**
   * The visitors' demo at /test-dashboard: a paper-trading demo account the server keeps (bot on, excluded from
   * customer lists, counts and revenue), traded by the engine like any subscriber and shown read-only through
   * `GET /api/demo`. Default: on unless NODE_ENV=test. With a live broker feed (FEED=kite/upstox) the demo is off
   * whatever this says: paper results on the real market would read as a track record.
   */
  DEMO_ACCOUNT: optional(
    z.enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' }),
  ),
  /** Least time between two `market:tick` pushes (each carries the forming chart candle), in real ms; ticks in between are
   * coalesced to the newest. 250 = at most 4 per second, whatever SIM_SPEED makes the feed tick at. */
  TICK_BROADCAST_MS: z.coerce
    .number({ error: 'must be a number of milliseconds' })
    .int('must be a whole number of milliseconds')
    .min(0, 'must be between 0 and 60000')
    .max(60_000, 'must be between 0 and 60000')
    .default(250),
  /** Razorpay credentials; all unset = payment test mode. */
  RAZORPAY_KEY_ID: optional(
    z.string().regex(/^rzp_(test|live)_\w+$/, 'must look like rzp_test_… or rzp_live_…'),
  ),
  RAZORPAY_KEY_SECRET: optional(z.string().min(8, 'is too short')),
  RAZORPAY_WEBHOOK_SECRET: optional(z.string().min(8, 'is too short')),
  /** Razorpay's API and checkout script; changed only to point at the fake in tests (test/fakes/razorpay). */
  RAZORPAY_API_ROOT: url(/^https?:$/, 'https://api.razorpay.com').default('https://api.razorpay.com'),
  RAZORPAY_CHECKOUT_URL: url(/^https?:$/, 'https://checkout.razorpay.com/v1/checkout.js').default(
    'https://checkout.razorpay.com/v1/checkout.js',
  ),
  /** Algo tag put on every broker order (SEBI retail algo framework). */
  ALGO_TAG: z
    .string()
    .regex(/^[A-Za-z0-9]{1,20}$/, 'must be 1-20 letters or digits')
    .default('OPTIONPILOT'),
  /** Longest time a client may take to send one whole request (headers and body); past it the server answers 408
   * and closes the connection, so a client trickling a body cannot hold a connection (and its memory) for Node's
   * 5-minute default. WebSocket connections and responses being streamed out are not affected. */
  REQUEST_TIMEOUT: duration('30s', 1000, 86_400_000),
  /** Open TCP connections one client address may hold at once (an IPv6 address counts as its /64); connections
   * beyond it are closed at once. Loopback is never capped (a reverse proxy on the same machine, tests). Default
   * 64, or 0 (off) with TRUST_PROXY, where every connection comes from the proxy and the proxy must cap clients. */
  MAX_CONNECTIONS_PER_IP: optional(
    z.coerce
      .number({ error: 'must be a whole number' })
      .int('must be a whole number')
      .min(0, 'must be between 0 and 100000')
      .max(100_000, 'must be between 0 and 100000'),
  ),
  /** Largest accepted JSON body; larger requests get 413. */
  BODY_LIMIT: z
    .string()
    .regex(/^\d+(b|kb|mb)$/i, 'must be a size like 100kb or 1mb')
    .default('1mb'),
  /** The operator's registered (legal) name: supplier on GST invoices, shown on the landing page and in e-mails.
   * The default is a placeholder for the demo; a real operator must set it. */
  OPERATOR_LEGAL_NAME: z
    .string()
    .trim()
    .min(2, 'must be the legal name')
    .max(200)
    .default(OPERATOR_PLACEHOLDERS.OPERATOR_LEGAL_NAME),
  /** The operator's registered address, one line (commas separate the parts). Placeholder by default. */
  OPERATOR_ADDRESS: z
    .string()
    .trim()
    .min(5, 'must be a postal address')
    .max(300)
    .default(OPERATOR_PLACEHOLDERS.OPERATOR_ADDRESS),
  /** GST state code (two digits, e.g. 29 Karnataka) of the operator's registration: decides CGST+SGST or IGST. */
  OPERATOR_STATE_CODE: z
    .string()
    .regex(/^\d{2}$/, 'must be a two-digit GST state code such as 29')
    .default('29'),
  /** The operator's GSTIN (15 characters). The default is a syntactically valid placeholder, not a registration. */
  OPERATOR_GSTIN: z.preprocess(
    (v) => (typeof v === 'string' ? v.trim().toUpperCase() : v),
    z
      .string()
      .regex(/^\d{2}[A-Z0-9]{10}[1-9A-Z]Z[0-9A-Z]$/, 'must be a 15-character GSTIN such as 29ABCDE1234F1Z5')
      .default(OPERATOR_PLACEHOLDERS.OPERATOR_GSTIN),
  ),
  /** Support e-mail shown on the landing page, footer, e-mails and invoices. Placeholder by default. */
  SUPPORT_EMAIL: z
    .string()
    .trim()
    .toLowerCase()
    .email('must be an e-mail address')
    .default(OPERATOR_PLACEHOLDERS.SUPPORT_EMAIL),
  /** Support phone shown on the landing page, footer and invoices. Placeholder by default. */
  SUPPORT_PHONE: z
    .string()
    .trim()
    .regex(/^\+?[\d ()-]{6,20}$/, 'must be a phone number such as +91 80 0000 0000')
    .default(OPERATOR_PLACEHOLDERS.SUPPORT_PHONE),
  /** When support answers, one line, shown beside the support contacts on the landing page and footer. The
   * default is the spec's hours; production refuses to start until the operator sets it (even to the same words). */
  SUPPORT_HOURS: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z
      .string()
      .trim()
      .min(5, 'must say when support answers, e.g. "Monday-Friday 9:00 AM-6:00 PM IST"')
      .max(120, 'must be at most 120 characters')
      .default(OPERATOR_PLACEHOLDERS.SUPPORT_HOURS),
  ),
  /** SAC (services accounting code) printed on invoices; 997331 is commonly used for SaaS. */
  INVOICE_SAC: z
    .string()
    .regex(/^\d{6}$/, 'must be a six-digit SAC')
    .default('997331'),
  /** Prefix of invoice numbers (`OP` → OP/26-27/00001); credit notes use it with `C` appended (OPC/26-27/00001). */
  INVOICE_PREFIX: z
    .string()
    .regex(/^[A-Z]{1,4}$/, 'must be 1-4 capital letters')
    .default('OP'),
  /** Built web app served by the server; relative paths are resolved against the repository root. */
  WEB_DIST_DIR: z.string().min(1, 'must not be empty').default('web/dist'),
  /** The Telegram bot's token from @BotFather (a secret: it is the bot). Unset: no Telegram channel, no link codes. */
  TELEGRAM_BOT_TOKEN: optional(
    z.string().regex(/^\d+:[\w-]{20,}$/, 'must be a bot token from @BotFather, like 123456789:AAH…'),
  ),
  /** The Bot API server; changed only to point at the fake in tests (test/fakes/telegram) or a local Bot API server. */
  TELEGRAM_API_ROOT: url(/^https?:$/, 'https://api.telegram.org').default('https://api.telegram.org'),
  /**
   * The static public IP this server's broker calls leave from. SEBI's API rules make brokers accept orders only
   * from an IP the trader whitelisted in their broker app, so the Broker Connection card and the "IP not allowed"
   * message show it. Unset: traders are told to ask the operator.
   */
  EGRESS_IP: optional(z.union([z.ipv4(), z.ipv6()], { error: 'must be an IPv4 or IPv6 address' })),
  /** The NTP server `npm run doctor` measures the clock against: a host name or address, optionally `:port`
   * (IPv6 in brackets); the server itself never calls it. */
  NTP_SERVER: z
    .string()
    .regex(
      /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?$/,
      'must be a host name or address, optionally :port',
    )
    .default('pool.ntp.org'),
  /** Each registered broker's endpoints (`<BROKER>_API_ROOT`, `_LOGIN_URL`, `_WS_ROOT`, …), declared by its folder's
   * definition (server/src/brokers/env.ts has the rule); tests point them at the fakes in test/fakes/. */
  ...brokerEnvShape(BROKER_DEFINITIONS),
});

export type Env = z.input<typeof envSchema>;
