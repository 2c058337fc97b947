#!/usr/bin/env node
// Starts the production build (server/dist/main.js, which also serves web/dist) for the end-to-end tests, the way an
// operator would, but with a private temporary DATA_DIR and a fast, repeatable simulated market. Used by
// playwright.config.ts's `webServer` (the shared server on PORT 3917) and by support/product.ts (one server per spec
// that needs a fresh database). It runs the bundle directly instead of `scripts/start.mjs`: that script rebuilds
// whatever is stale, and several launchers rebuilding web/dist at once (while tests load it) would race; the build
// happens once, before Playwright, in `npm run test:e2e`.
//
// Environment (all optional): PORT (3917), DATA_DIR (default: a new temporary directory, removed on exit),
// SIM_SPEED (300: a one-minute candle closes every 0.2 s), SIM_SEED (20240601), SIM_SESSION (always),
// LOG_LEVEL (warn), REGISTER_LIMIT_PER_IP (0 = off), the OPERATOR_* / SUPPORT_* details (a made-up operator, since
// production refuses the placeholders). Payment, mail, database and broker settings are cleared so the
// product runs in its test modes on the simulated market, unless a spec names a fake (E2E_* below).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const SERVER = join(ROOT, 'server/dist/main.js');

if (!existsSync(SERVER) || !existsSync(join(ROOT, 'web/dist/index.html'))) {
  console.error(
    'launch-product: the production build is missing. Run `npm run build` (or `npm run test:e2e`).',
  );
  process.exit(1);
}

const ownDataDir = !process.env.DATA_DIR;
const dataDir = process.env.DATA_DIR || mkdtempSync(join(tmpdir(), 'optionpilot-e2e-'));

const env = {
  ...process.env,
  NODE_ENV: 'production',
  HOST: '127.0.0.1',
  PORT: process.env.PORT || '3917',
  DATA_DIR: dataDir,
  SIM_SPEED: process.env.SIM_SPEED || '300',
  SIM_SEED: process.env.SIM_SEED || '20240601',
  SIM_SESSION: process.env.SIM_SESSION || 'always',
  FEED: 'sim',
  LOG_LEVEL: process.env.LOG_LEVEL || 'warn',
  // Every browser test is a new visitor signing up from 127.0.0.1; the per-IP sign-up limit is tested in Vitest.
  REGISTER_LIMIT_PER_IP: process.env.REGISTER_LIMIT_PER_IP || '0',
  // NODE_ENV=production alone hides reset links when no SMTP is set; the reset pages' tests read the link.
  RESET_LINK_IN_RESPONSE: 'true',
  // Production refuses to start on the placeholder operator details: a made-up operator (reserved example domain).
  OPERATOR_LEGAL_NAME: 'Acme Algo Technologies Pvt Ltd',
  OPERATOR_ADDRESS: '12 MG Road, Pune 411001, Maharashtra',
  OPERATOR_STATE_CODE: '27',
  OPERATOR_GSTIN: '27ABCDE1234F1Z5',
  SUPPORT_EMAIL: 'help@acme-algo.example',
  SUPPORT_PHONE: '+91 20 4000 1234',
  SUPPORT_HOURS: 'Monday-Saturday 9:00 AM-7:00 PM IST',
};
// Test modes: reset links come back in the API response, payments are signed by the server's test secret, and the
// database is SQLite inside DATA_DIR. A developer's shell settings must not leak into the run.
// Every broker's endpoints (`<BROKER>_API_ROOT`, `_LOGIN_URL`, `_WS_ROOT`, `_ORDERS_ROOT`, `_MASTER_ROOT`).
const BROKER_ENDPOINT = /^[A-Z]+_(API_ROOT|LOGIN_URL|WS_ROOT|ORDERS_ROOT|MASTER_ROOT)$/;
for (const name of Object.keys(env)) {
  if (BROKER_ENDPOINT.test(name) && !name.startsWith('RAZORPAY_')) delete env[name];
}
for (const name of [
  'DATABASE_URL',
  'FEED_ACCOUNT',
  'EGRESS_IP',
  'PUBLIC_URL',
  'SMTP_URL',
  'RAZORPAY_KEY_ID',
  'RAZORPAY_KEY_SECRET',
  'RAZORPAY_WEBHOOK_SECRET',
  'ADMIN_EMAIL',
  'JWT_SECRET',
  'ENCRYPTION_KEY',
  'WEB_DIST_DIR',
]) {
  delete env[name];
}
// A spec that means to run against a fake says so explicitly: `E2E_RAZORPAY_*`, a broker's `E2E_<BROKER>_*_ROOT` /
// `_LOGIN_URL`, `E2E_FEED`, `E2E_FEED_ACCOUNT` and `E2E_EGRESS_IP` become the settings without the prefix (only
// names the spec set, never the shell's own ones cleared above).
const SPEC_SETTING =
  /^E2E_(RAZORPAY_\w+|[A-Z]+_(API_ROOT|LOGIN_URL|WS_ROOT|ORDERS_ROOT|MASTER_ROOT)|FEED|FEED_ACCOUNT|EGRESS_IP)$/;
for (const [name, value] of Object.entries(process.env)) {
  if (SPEC_SETTING.test(name) && value) env[name.slice('E2E_'.length)] = value;
}

const child = spawn(process.execPath, ['--enable-source-maps', SERVER], { cwd: ROOT, env, stdio: 'inherit' });

const cleanUp = () => {
  if (ownDataDir) rmSync(dataDir, { recursive: true, force: true });
};
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => child.kill(signal));
}
child.on('exit', (code, signal) => {
  cleanUp();
  process.exit(code ?? (signal === 'SIGINT' || signal === 'SIGTERM' ? 0 : 1));
});
