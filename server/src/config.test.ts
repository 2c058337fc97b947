import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  assertProductionReady,
  ConfigError,
  loadConfig,
  OPERATOR_PLACEHOLDERS,
  parseDurationMs,
  publicConfig,
} from './config';
import { PRODUCTION_OPERATOR_ENV } from './testing/operator';

/** The repository's root, found from this file (server/src/config.test.ts) rather than by the code under test. */
const REPO = join(import.meta.dirname, '../..');

describe('loadConfig', () => {
  it('runs on defaults with no environment at all', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      publicUrl: 'http://127.0.0.1:3000',
      trustProxy: false,
      jwtTtlMs: 12 * 3_600_000,
      feed: 'sim',
      simSpeed: 1,
      simSession: 'always',
      razorpay: undefined,
      smtpUrl: undefined,
      smtpMaxConnections: 5,
      algoTag: 'OPTIONPILOT',
      logLevel: 'info',
      requestTimeoutMs: 30_000,
      maxConnectionsPerIp: 64,
    });
    expect(config.dataDir).toMatch(/data$/);
    expect(config.webDistDir).toBe(join(REPO, 'web', 'dist'));
  });

  it('resolves a relative WEB_DIST_DIR against the repository root, not the working directory', () => {
    expect(loadConfig({ WEB_DIST_DIR: 'build/app' }).webDistDir).toBe(join(REPO, 'build', 'app'));
    expect(loadConfig({ WEB_DIST_DIR: '/srv/optionpilot/web' }).webDistDir).toBe('/srv/optionpilot/web');
  });

  it('treats empty strings as unset', () => {
    expect(loadConfig({ SMTP_URL: '', DATABASE_URL: '', JWT_SECRET: '' })).toMatchObject({
      smtpUrl: undefined,
      databaseUrl: undefined,
      jwtSecret: undefined,
    });
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['JWT_TTL', 'forever'],
    ['JWT_TTL', '10s'],
    ['SIM_SPEED', '0'],
    ['SIM_SESSION', 'sometimes'],
    ['DATABASE_URL', 'mysql://x'],
    ['PUBLIC_URL', 'not a url'],
    ['SMTP_URL', 'http://mail'],
    ['JWT_SECRET', 'too-short'],
    ['ENCRYPTION_KEY', 'AAAA'],
    ['LOG_LEVEL', 'loud'],
    ['TRUST_PROXY', 'maybe'],
    ['RAZORPAY_KEY_ID', 'key'],
    ['ADMIN_EMAIL', 'nope'],
    ['REGISTER_LIMIT_PER_IP', '-1'],
    ['REGISTER_LIMIT_PER_IP', '2.5'],
    ['SMTP_MAX_CONNECTIONS', '0'],
    ['SMTP_MAX_CONNECTIONS', 'many'],
    ['REQUEST_TIMEOUT', '500ms'],
    ['REQUEST_TIMEOUT', 'slow'],
    ['MAX_CONNECTIONS_PER_IP', '-1'],
    ['MAX_CONNECTIONS_PER_IP', 'lots'],
  ])('stops on an invalid %s (%s) with a message naming it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`${name}: `));
  });

  it('caps connections per address only without a proxy, unless told', () => {
    expect(loadConfig({ TRUST_PROXY: 'true' }).maxConnectionsPerIp).toBe(0);
    expect(loadConfig({ TRUST_PROXY: 'true', MAX_CONNECTIONS_PER_IP: '500' }).maxConnectionsPerIp).toBe(500);
    expect(loadConfig({ MAX_CONNECTIONS_PER_IP: '0' }).maxConnectionsPerIp).toBe(0);
    expect(loadConfig({ MAX_CONNECTIONS_PER_IP: '' }).maxConnectionsPerIp).toBe(64);
    expect(loadConfig({ REQUEST_TIMEOUT: '2m' }).requestTimeoutMs).toBe(120_000);
  });

  it('names every invalid variable at once', () => {
    try {
      loadConfig({ PORT: 'x', SIM_SPEED: '-1' });
      expect.unreachable();
    } catch (err) {
      expect((err as Error).message).toMatch(/PORT: /);
      expect((err as Error).message).toMatch(/SIM_SPEED: /);
    }
  });

  it('runs as one process unless told it is one node of several', () => {
    expect(loadConfig({})).toMatchObject({
      nodeRole: 'all',
      redisUrl: undefined,
      redisPrefix: 'optionpilot:',
    });
    expect(() => loadConfig({ NODE_ROLE: 'leader' })).toThrow(/NODE_ROLE: must be all, web or engine/);
    expect(() => loadConfig({ REDIS_URL: 'http://127.0.0.1:6379' })).toThrow(/REDIS_URL: /);
  });

  it('names what several nodes must share: PostgreSQL, Redis and the keys', () => {
    const error = (() => {
      try {
        loadConfig({ NODE_ROLE: 'web' });
      } catch (err) {
        return (err as Error).message;
      }
      return '';
    })();
    for (const name of ['DATABASE_URL', 'REDIS_URL', 'JWT_SECRET', 'ENCRYPTION_KEY']) {
      expect(error).toMatch(new RegExp(`  ${name}: `));
    }
    const key = Buffer.alloc(32, 7).toString('base64');
    const shared = {
      DATABASE_URL: 'postgres://op@db:5432/op',
      JWT_SECRET: key,
      ENCRYPTION_KEY: key,
    };
    expect(() => loadConfig({ ...shared, NODE_ROLE: 'engine' })).toThrow(/REDIS_URL: /);
    expect(loadConfig({ ...shared, REDIS_URL: 'redis://cache:6379', NODE_ROLE: 'engine' })).toMatchObject({
      nodeRole: 'engine',
      redisUrl: 'redis://cache:6379',
    });
    expect(() => loadConfig({ REDIS_URL: 'redis://cache:6379' })).toThrow(/DATABASE_URL: /);
  });

  it('requires both Razorpay keys together', () => {
    expect(() => loadConfig({ RAZORPAY_KEY_ID: 'rzp_test_abc' })).toThrow(/RAZORPAY_KEY_SECRET/);
    expect(loadConfig({ RAZORPAY_KEY_ID: 'rzp_test_abc', RAZORPAY_KEY_SECRET: 'abcdefgh' }).razorpay).toEqual(
      {
        keyId: 'rzp_test_abc',
        keySecret: 'abcdefgh',
        webhookSecret: undefined,
        apiRoot: 'https://api.razorpay.com',
        checkoutUrl: 'https://checkout.razorpay.com/v1/checkout.js',
      },
    );
    expect(
      loadConfig({
        RAZORPAY_KEY_ID: 'rzp_test_abc',
        RAZORPAY_KEY_SECRET: 'abcdefgh',
        RAZORPAY_API_ROOT: 'http://127.0.0.1:4000/',
      }).razorpay?.apiRoot,
    ).toBe('http://127.0.0.1:4000');
    expect(() => loadConfig({ RAZORPAY_CHECKOUT_URL: 'javascript:alert(1)' })).toThrow(
      /RAZORPAY_CHECKOUT_URL/,
    );
  });

  it('accepts a 32-byte base64 JWT_SECRET and parses durations', () => {
    const secret = Buffer.alloc(32, 7).toString('base64');
    expect(loadConfig({ JWT_SECRET: secret, JWT_TTL: '30m' })).toMatchObject({
      jwtSecret: secret,
      jwtTtlMs: 1_800_000,
    });
    expect(parseDurationMs('7d')).toBe(604_800_000);
    expect(parseDurationMs('90')).toBe(90_000);
    expect(parseDurationMs('1w')).toBeNull();
  });
});

describe('broker feeds', () => {
  it('takes a registered broker feed (kite, upstox, angelone) with the FEED_ACCOUNT whose session streams the market', () => {
    const config = loadConfig({ FEED: 'kite', FEED_ACCOUNT: 'Operator@Example.com' });
    expect(config).toMatchObject({ feed: 'kite', feedAccount: 'operator@example.com' });
    expect(loadConfig({ FEED: 'upstox', FEED_ACCOUNT: 'op@example.com' }).feed).toBe('upstox');
    expect(loadConfig({ FEED: 'angelone', FEED_ACCOUNT: 'op@example.com' }).feed).toBe('angelone');
    expect(loadConfig({ FEED: 'fyers', FEED_ACCOUNT: 'op@example.com' }).feed).toBe('fyers');
  });

  it('names FEED_ACCOUNT when a broker feed has none, and FEED for an unknown feed', () => {
    expect(() => loadConfig({ FEED: 'kite' })).toThrow(/FEED_ACCOUNT: FEED=kite needs/);
    // The registered brokers' feeds, listed from the registry (more are added broker by broker).
    expect(() => loadConfig({ FEED: 'nokia', FEED_ACCOUNT: 'op@example.com' })).toThrow(
      /FEED: must be sim, replay:<file>, kite, upstox\b.* or \w+$/m,
    );
    expect(() => loadConfig({ FEED: 'kite', FEED_ACCOUNT: 'not-an-email' })).toThrow(/FEED_ACCOUNT/);
  });
});

describe('publicConfig', () => {
  it('exposes only the explicit list, never secrets', () => {
    const config = loadConfig({
      RAZORPAY_KEY_ID: 'rzp_live_abc',
      RAZORPAY_KEY_SECRET: 'supersecretvalue',
      RAZORPAY_WEBHOOK_SECRET: 'webhooksecret',
      SMTP_URL: 'smtps://u:mailpass@smtp.example.com',
      JWT_SECRET: Buffer.alloc(32, 1).toString('base64'),
      FEED: 'replay:/tmp/day.csv',
    });
    const pub = publicConfig(config);
    expect(Object.keys(pub).sort()).toEqual([
      'demoAvailable',
      'feed',
      'operator',
      'paymentTestMode',
      'razorpayKeyId',
      'sessionMode',
      'version',
    ]);
    expect(pub).toMatchObject({
      paymentTestMode: false,
      razorpayKeyId: 'rzp_live_abc',
      feed: { kind: 'replay', simulated: false },
    });
    const text = JSON.stringify(pub);
    for (const secret of [
      'supersecretvalue',
      'webhooksecret',
      'mailpass',
      config.jwtSecret ?? '-',
      '/tmp/day.csv',
    ]) {
      expect(text).not.toContain(secret);
    }
  });
});

describe('operator details', () => {
  it('have working placeholder defaults and come from the environment when set', () => {
    expect(loadConfig({}).operator.legalName).toMatch(/placeholder/i);
    const config = loadConfig({
      OPERATOR_LEGAL_NAME: 'Acme Algo Pvt Ltd',
      OPERATOR_ADDRESS: '12 MG Road, Pune 411001, Maharashtra',
      OPERATOR_STATE_CODE: '27',
      OPERATOR_GSTIN: '27abcde1234f1z5',
      SUPPORT_EMAIL: 'Help@Acme.example',
      SUPPORT_PHONE: '+91 20 1234 5678',
    });
    expect(publicConfig(config).operator).toEqual({
      legalName: 'Acme Algo Pvt Ltd',
      address: '12 MG Road, Pune 411001, Maharashtra',
      stateCode: '27',
      gstin: '27ABCDE1234F1Z5',
      supportEmail: 'help@acme.example',
      supportPhone: '+91 20 1234 5678',
      supportHours: 'Monday-Friday 9:00 AM-6:00 PM IST',
    });
    expect(loadConfig({ SUPPORT_HOURS: ' Mon-Sat 10 AM-7 PM IST ' }).operator.supportHours).toBe(
      'Mon-Sat 10 AM-7 PM IST',
    );
  });

  it('names the variable when a value is invalid', () => {
    expect(() => loadConfig({ OPERATOR_GSTIN: 'nope' })).toThrow(/OPERATOR_GSTIN/);
    expect(() => loadConfig({ OPERATOR_STATE_CODE: 'KA' })).toThrow(/OPERATOR_STATE_CODE/);
    expect(() => loadConfig({ SUPPORT_HOURS: 'x' })).toThrow(/SUPPORT_HOURS: /);
  });
});

describe('production and the operator placeholders', () => {
  const EVERY_VARIABLE = [
    'OPERATOR_LEGAL_NAME',
    'OPERATOR_ADDRESS',
    'OPERATOR_GSTIN',
    'SUPPORT_EMAIL',
    'SUPPORT_PHONE',
    'SUPPORT_HOURS',
  ];

  const refusal = (env: Record<string, string>) => {
    try {
      assertProductionReady(loadConfig({ NODE_ENV: 'production', ...env }));
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      return (err as Error).message;
    }
    return null;
  };

  it('refuses to start on the defaults, naming each placeholder variable', () => {
    const message = refusal({});
    expect(message).toMatch(/placeholders/);
    for (const name of EVERY_VARIABLE) expect(message).toMatch(new RegExp(`^  ${name}: `, 'm'));
  });

  it('refuses a variable set to its placeholder value, and names only what is missing', () => {
    const message = refusal({
      ...PRODUCTION_OPERATOR_ENV,
      SUPPORT_EMAIL: OPERATOR_PLACEHOLDERS.SUPPORT_EMAIL.toUpperCase(),
      SUPPORT_HOURS: '',
    });
    expect(message).toMatch(/^ {2}SUPPORT_EMAIL: /m);
    expect(message).toMatch(/^ {2}SUPPORT_HOURS: /m);
    for (const name of EVERY_VARIABLE.filter((n) => n !== 'SUPPORT_EMAIL' && n !== 'SUPPORT_HOURS')) {
      expect(message).not.toContain(name);
    }
  });

  it("names a state code that contradicts the GSTIN's", () => {
    expect(refusal({ ...PRODUCTION_OPERATOR_ENV, OPERATOR_STATE_CODE: '29' })).toMatch(
      /OPERATOR_STATE_CODE: must be the state code of OPERATOR_GSTIN \(27\)/,
    );
  });

  it("starts with the operator's own details, even hours worded like the default", () => {
    expect(
      refusal({ ...PRODUCTION_OPERATOR_ENV, SUPPORT_HOURS: OPERATOR_PLACEHOLDERS.SUPPORT_HOURS }),
    ).toBeNull();
    expect(loadConfig({ NODE_ENV: 'production', ...PRODUCTION_OPERATOR_ENV }).operatorPlaceholders).toEqual(
      [],
    );
  });

  it('lets development and test run on the placeholders', () => {
    expect(() => assertProductionReady(loadConfig({}))).not.toThrow();
    expect(() => assertProductionReady(loadConfig({ NODE_ENV: 'test' }))).not.toThrow();
    expect(loadConfig({}).operatorPlaceholders).toEqual(EVERY_VARIABLE);
  });
});

describe('the visitors demo', () => {
  it('is on by default, off under NODE_ENV=test unless asked for, and never with a live broker feed', () => {
    expect(loadConfig({}).demo).toBe('on');
    expect(loadConfig({ FEED: 'replay:/tmp/day.csv' }).demo).toBe('on');
    expect(loadConfig({ NODE_ENV: 'test' }).demo).toBe('off');
    expect(loadConfig({ NODE_ENV: 'test', DEMO_ACCOUNT: 'true' }).demo).toBe('on');
    expect(loadConfig({ DEMO_ACCOUNT: 'false' }).demo).toBe('off');
    expect(loadConfig({ FEED: 'kite', FEED_ACCOUNT: 'op@example.com' }).demo).toBe('live_feed');
    expect(publicConfig(loadConfig({ FEED: 'kite', FEED_ACCOUNT: 'op@example.com' })).demoAvailable).toBe(
      false,
    );
    expect(() => loadConfig({ DEMO_ACCOUNT: 'sometimes' })).toThrow(/DEMO_ACCOUNT: /);
  });
});

describe('Telegram', () => {
  it('is off without TELEGRAM_BOT_TOKEN, and a bad token is named without being echoed', () => {
    expect(loadConfig({}).telegram).toBeUndefined();
    expect(
      loadConfig({
        TELEGRAM_BOT_TOKEN: '123456789:AAH-good_token_0123456789',
        TELEGRAM_API_ROOT: 'http://127.0.0.1:8081/',
      }).telegram,
    ).toEqual({ botToken: '123456789:AAH-good_token_0123456789', apiRoot: 'http://127.0.0.1:8081' });
    expect(loadConfig({ TELEGRAM_BOT_TOKEN: '123:AAH-good_token_0123456789' }).telegram?.apiRoot).toBe(
      'https://api.telegram.org',
    );
    let message = '';
    try {
      loadConfig({ TELEGRAM_BOT_TOKEN: 'not-a-token-secretvalue' });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/TELEGRAM_BOT_TOKEN: must be a bot token/);
    expect(message).not.toContain('secretvalue');
  });
});
