// Loading the configuration: validates the environment against the schema (schema.ts) into the typed Config the
// server is built from, and refuses, with a ConfigError naming each variable, what cannot run: an invalid value,
// half a pair of credentials, a broker feed without its account, or several nodes without what they must share.
import { resolve } from 'node:path';
import type { z } from 'zod';
import type { BrokerEndpoints, BrokerType } from '../brokers/types';
import { brokerEndpointsOf } from '../brokers/env';
import { BROKER_DEFINITIONS } from '../brokers/registry';
import { BROKER_LABELS } from '../contract/dto';
import { REPO_ROOT } from '../repoRoot';
import packageJson from '../../../package.json' with { type: 'json' };
import {
  BROKER_FEEDS,
  DEFAULT_MAX_CONNECTIONS_PER_IP,
  envSchema,
  OPERATOR_PLACEHOLDERS,
  type OperatorVariable,
} from './schema';

export interface Config {
  nodeEnv: 'development' | 'production' | 'test';
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** REDIS_URL: the Socket.IO adapter's and the shared rate limits' Redis; undefined = one process */
  redisUrl: string | undefined;
  /** REDIS_PREFIX: every Redis key, stream and channel starts with it */
  redisPrefix: string;
  /** NODE_ROLE: whether this process may run the engine (cluster/leader.ts) */
  nodeRole: 'all' | 'web' | 'engine';
  publicUrl: string;
  trustProxy: boolean;
  /** METRICS_TOKEN: the bearer token of `GET /metrics`; undefined = loopback scrapes only (none behind a proxy) */
  metricsToken: string | undefined;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  jwtTtlMs: number;
  /** sign-ups per IP address per hour; 0 = unlimited */
  registerLimitPerIp: number;
  jwtSecret: string | undefined;
  encryptionKey: string | undefined;
  adminEmail: string | undefined;
  smtpUrl: string | undefined;
  /** without SMTP, reset links are returned by the API (development/test only; see RESET_LINK_IN_RESPONSE) */
  resetLinkInResponse: boolean;
  mailFrom: string;
  /** SMTP_MAX_CONNECTIONS: the notification e-mail pool's size */
  smtpMaxConnections: number;
  feed: string;
  /** the market-data account of a broker feed (FEED_ACCOUNT) */
  feedAccount: string | undefined;
  simSpeed: number;
  simSeed: number | undefined;
  simSession: 'always' | 'market';
  tickBroadcastMs: number;
  razorpay:
    | {
        keyId: string;
        keySecret: string;
        webhookSecret: string | undefined;
        /** RAZORPAY_API_ROOT, no trailing slash */
        apiRoot: string;
        /** RAZORPAY_CHECKOUT_URL: the checkout.js the browser loads in live mode */
        checkoutUrl: string;
      }
    | undefined;
  algoTag: string;
  bodyLimit: string;
  /** REQUEST_TIMEOUT: the time a client has to send one whole request */
  requestTimeoutMs: number;
  /** MAX_CONNECTIONS_PER_IP: open connections per client address (loopback exempt); 0 = no cap */
  maxConnectionsPerIp: number;
  webDistDir: string;
  version: string;
  /** the operator's business details (invoices, landing page, e-mails) */
  operator: OperatorDetails;
  /** operator variables still unset or at their placeholder value (production refuses to start with any) */
  operatorPlaceholders: readonly OperatorVariable[];
  /**
   * the visitors' demo account: `on`, `off` (DEMO_ACCOUNT=false, or NODE_ENV=test by default) or `live_feed`
   * (hidden because the feed carries the real market)
   */
  demo: 'on' | 'off' | 'live_feed';
  /** where each registered broker is reached (`<BROKER>_*` variables) */
  brokerEndpoints: Partial<Record<BrokerType, BrokerEndpoints>>;
  /** EGRESS_IP: the static IP traders whitelist at their broker; undefined when not configured */
  egressIp: string | undefined;
  /** the Telegram bot (TELEGRAM_BOT_TOKEN, TELEGRAM_API_ROOT without a trailing slash); undefined when not configured */
  telegram: { botToken: string; apiRoot: string } | undefined;
  /** NTP_SERVER: `host` or `host:port`, for `npm run doctor`'s clock check */
  ntpServer: string;
}

export interface OperatorDetails {
  legalName: string;
  address: string;
  /** GST state code, two digits */
  stateCode: string;
  gstin: string;
  supportEmail: string;
  supportPhone: string;
  supportHours: string;
  sac: string;
  invoicePrefix: string;
}

/** Raised for an invalid environment; `message` names every offending variable. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/**
 * Several nodes (REDIS_URL or a NODE_ROLE other than `all`) need what they share outside any one machine: one
 * PostgreSQL database (a SQLite file cannot be shared) and Redis, and the same JWT and encryption keys (generated
 * keys live in each node's own DATA_DIR, so a token signed by one node would be refused by the next).
 */
function assertClusterReady(e: z.output<typeof envSchema>): void {
  if (e.REDIS_URL === undefined && e.NODE_ROLE === 'all') return;
  const why = e.REDIS_URL === undefined ? `NODE_ROLE=${e.NODE_ROLE}` : 'REDIS_URL';
  const missing = [
    ...(e.DATABASE_URL === undefined
      ? ['DATABASE_URL: several nodes share one PostgreSQL database (postgres://…)']
      : []),
    ...(e.REDIS_URL === undefined
      ? ['REDIS_URL: several nodes share Socket.IO rooms and limits through Redis']
      : []),
    ...(e.JWT_SECRET === undefined
      ? ['JWT_SECRET: every node must sign and check tokens with the same key']
      : []),
    ...(e.ENCRYPTION_KEY === undefined
      ? ['ENCRYPTION_KEY: every node must read the same stored broker secrets']
      : []),
  ];
  if (missing.length > 0) {
    throw new ConfigError(
      `Invalid configuration (${why} means several nodes):\n${missing.map((line) => `  ${line}`).join('\n')}`,
    );
  }
}

/** Validates `env` (default `process.env`) into a typed Config, or throws ConfigError naming each bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const razorpayParts = [e.RAZORPAY_KEY_ID, e.RAZORPAY_KEY_SECRET];
  if (razorpayParts.some(Boolean) && !razorpayParts.every(Boolean)) {
    throw new ConfigError(
      'Invalid configuration:\n  RAZORPAY_KEY_SECRET: RAZORPAY_KEY_ID and RAZORPAY_KEY_SECRET must be set together (or both unset for test mode)',
    );
  }
  const feedBroker = Object.hasOwn(BROKER_FEEDS, e.FEED) ? BROKER_FEEDS[e.FEED] : undefined;
  if (feedBroker !== undefined && !e.FEED_ACCOUNT) {
    throw new ConfigError(
      `Invalid configuration:\n  FEED_ACCOUNT: FEED=${e.FEED} needs the e-mail of the account whose ${BROKER_LABELS[feedBroker]} session streams the market`,
    );
  }
  assertClusterReady(e);
  const liveFeed = feedBroker !== undefined;
  const demoWanted =
    e.DEMO_ACCOUNT === undefined ? e.NODE_ENV !== 'test' : ['true', '1', 'yes'].includes(e.DEMO_ACCOUNT);
  const displayHost = e.HOST === '0.0.0.0' || e.HOST === '::' ? 'localhost' : e.HOST;
  return {
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir: resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    redisPrefix: e.REDIS_PREFIX,
    nodeRole: e.NODE_ROLE,
    publicUrl: (e.PUBLIC_URL ?? `http://${displayHost}:${e.PORT}`).replace(/\/+$/, ''),
    trustProxy: e.TRUST_PROXY,
    metricsToken: e.METRICS_TOKEN,
    logLevel: e.LOG_LEVEL,
    jwtTtlMs: e.JWT_TTL,
    registerLimitPerIp: e.REGISTER_LIMIT_PER_IP,
    jwtSecret: e.JWT_SECRET,
    encryptionKey: e.ENCRYPTION_KEY,
    adminEmail: e.ADMIN_EMAIL,
    smtpUrl: e.SMTP_URL,
    resetLinkInResponse:
      e.SMTP_URL === undefined &&
      (e.RESET_LINK_IN_RESPONSE === undefined
        ? e.NODE_ENV !== 'production'
        : ['true', '1', 'yes'].includes(e.RESET_LINK_IN_RESPONSE)),
    mailFrom: e.MAIL_FROM,
    smtpMaxConnections: e.SMTP_MAX_CONNECTIONS,
    feed: e.FEED,
    feedAccount: e.FEED_ACCOUNT?.toLowerCase(),
    simSpeed: e.SIM_SPEED,
    simSeed: e.SIM_SEED,
    simSession: e.SIM_SESSION,
    tickBroadcastMs: e.TICK_BROADCAST_MS,
    razorpay:
      e.RAZORPAY_KEY_ID && e.RAZORPAY_KEY_SECRET
        ? {
            keyId: e.RAZORPAY_KEY_ID,
            keySecret: e.RAZORPAY_KEY_SECRET,
            webhookSecret: e.RAZORPAY_WEBHOOK_SECRET,
            apiRoot: e.RAZORPAY_API_ROOT.replace(/\/+$/, ''),
            checkoutUrl: e.RAZORPAY_CHECKOUT_URL,
          }
        : undefined,
    algoTag: e.ALGO_TAG,
    bodyLimit: e.BODY_LIMIT,
    requestTimeoutMs: e.REQUEST_TIMEOUT,
    maxConnectionsPerIp: e.MAX_CONNECTIONS_PER_IP ?? (e.TRUST_PROXY ? 0 : DEFAULT_MAX_CONNECTIONS_PER_IP),
    webDistDir: resolve(REPO_ROOT, e.WEB_DIST_DIR),
    version: packageJson.version,
    operator: {
      legalName: e.OPERATOR_LEGAL_NAME,
      address: e.OPERATOR_ADDRESS,
      stateCode: e.OPERATOR_STATE_CODE,
      gstin: e.OPERATOR_GSTIN,
      supportEmail: e.SUPPORT_EMAIL,
      supportPhone: e.SUPPORT_PHONE,
      supportHours: e.SUPPORT_HOURS,
      sac: e.INVOICE_SAC,
      invoicePrefix: e.INVOICE_PREFIX,
    },
    operatorPlaceholders: operatorPlaceholdersOf(env, e),
    demo: !demoWanted ? 'off' : liveFeed ? 'live_feed' : 'on',
    brokerEndpoints: brokerEndpointsOf(BROKER_DEFINITIONS, e),
    egressIp: e.EGRESS_IP,
    telegram:
      e.TELEGRAM_BOT_TOKEN === undefined
        ? undefined
        : { botToken: e.TELEGRAM_BOT_TOKEN, apiRoot: e.TELEGRAM_API_ROOT.replace(/\/+$/, '') },
    ntpServer: e.NTP_SERVER,
  };
}

/** The operator variables that are unset, or set to the placeholder they ship with (compared once normalised). */
function operatorPlaceholdersOf(
  env: Record<string, string | undefined>,
  parsed: z.output<typeof envSchema>,
): OperatorVariable[] {
  const unset = (name: OperatorVariable) => (env[name] ?? '').trim() === '';
  const placeholder = (name: Exclude<OperatorVariable, 'SUPPORT_HOURS'>) =>
    unset(name) || parsed[name] === OPERATOR_PLACEHOLDERS[name];
  return [
    ...(
      ['OPERATOR_LEGAL_NAME', 'OPERATOR_ADDRESS', 'OPERATOR_GSTIN', 'SUPPORT_EMAIL', 'SUPPORT_PHONE'] as const
    ).filter(placeholder),
    ...(unset('SUPPORT_HOURS') ? (['SUPPORT_HOURS'] as const) : []),
  ];
}
