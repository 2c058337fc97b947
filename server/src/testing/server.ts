// Test harness: a real server on an ephemeral port over a fresh migrated database (SQLite in a temporary
// DATA_DIR, or a fresh PostgreSQL schema when TEST_DATABASE_URL is set), a manual clock, captured logs and a
// small JSON client. Used by every API test of the server.
import { Writable } from 'node:stream';
import { startServer, type RunningServer, type StartOverrides } from '../app';
import { createManualClock, type ManualClock } from '../clock';
import { loadConfig, type Config } from '../config';
import { brokerEnvNames } from '../brokers/env';
import { BROKER_DEFINITIONS } from '../brokers/registry';
import { createLogger } from '../logger';
import type { Dialect } from '../db';
import { openTestDatabase } from '../db/testing';

export interface TestServer {
  server: RunningServer;
  url: string;
  clock: ManualClock;
  config: Config;
  /** every log line written so far, raw JSON text */
  logs: string[];
  request(method: string, path: string, options?: RequestOptions): Promise<TestResponse>;
  close(): Promise<void>;
}

export interface RequestOptions {
  body?: unknown;
  /** sent verbatim instead of JSON.stringify(body) */
  rawBody?: string;
  token?: string;
  headers?: Record<string, string>;
}

export interface TestResponse {
  status: number;
  headers: Headers;
  text: string;
  /** parsed JSON body (undefined when not JSON) */
  json: Record<string, unknown>;
}

/**
 * Every registered broker's endpoints on a closed loopback port unless a test names its fake: a test server never
 * calls a broker's real hosts (an admin's connection test, a session check), whatever broker is added next.
 */
const CLOSED_BROKER_ENDPOINTS: Readonly<Record<string, string>> = Object.fromEntries(
  brokerEnvNames(BROKER_DEFINITIONS).map((name) => [
    name,
    name.endsWith('_LOGIN_URL') ? 'http://127.0.0.1:9/login' : 'http://127.0.0.1:9',
  ]),
);

/** Starts a server for tests; `env` adds environment variables on top of test defaults. */
export async function startTestServer(
  options: {
    dialect?: Dialect;
    env?: Record<string, string>;
    overrides?: Omit<StartOverrides, 'db' | 'logger' | 'clock'>;
  } = {},
): Promise<TestServer> {
  const database = await openTestDatabase(options.dialect ?? 'sqlite');
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: database.dataDir,
    WEB_DIST_DIR: `${database.dataDir}/no-web-build`,
    LOG_LEVEL: 'info',
    ...CLOSED_BROKER_ENDPOINTS,
    ...options.env,
  });
  const logs: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      logs.push(chunk.toString());
      callback();
    },
  });
  const clock = createManualClock(Date.now());
  const server = await startServer(config, {
    ...options.overrides,
    db: database.db,
    clock,
    logger: createLogger({ level: 'info', destination }),
  });

  return {
    server,
    url: server.url,
    clock,
    config,
    logs,
    request: jsonClient(server.url),
    async close() {
      await server.close();
      await database.cleanup();
    },
  };
}

/** A small JSON client of a server at `url`: the bearer token, a JSON or raw body, the parsed reply. */
export function jsonClient(url: string): TestServer['request'] {
  return async (method, path, req = {}) => {
    const headers: Record<string, string> = { ...req.headers };
    if (req.token) headers.authorization = `Bearer ${req.token}`;
    let body: string | undefined;
    if (req.rawBody !== undefined) body = req.rawBody;
    else if (req.body !== undefined) body = JSON.stringify(req.body);
    if (body !== undefined) headers['content-type'] ??= 'application/json';
    const res = await fetch(`${url}${path}`, { method, headers, body });
    const text = await res.text();
    let json: Record<string, unknown> = {};
    try {
      json = JSON.parse(text) as Record<string, unknown>;
    } catch {
      // not JSON (static files, HTML fallback)
    }
    return { status: res.status, headers: res.headers, text, json };
  };
}

/** A valid registration body; `n` makes the e-mail unique. */
export function registration(n: number | string = 1) {
  return {
    firstName: 'Asha',
    lastName: 'Rao',
    email: `asha${n}@example.com`,
    phone: '+91 98765 43210',
    password: 'Secret123',
  };
}

/** Fails when any response text could carry a secret. */
export function assertNoSecrets(text: string): void {
  for (const marker of ['password_hash', '$argon2', 'token_hash', 'passwordHash']) {
    if (text.includes(marker)) throw new Error(`response leaks "${marker}": ${text.slice(0, 300)}`);
  }
}
