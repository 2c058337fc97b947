// End-to-end tests of the production build in Debian's Chromium (see test/e2e/README.md). Playwright never
// downloads a browser here: it drives /usr/bin/chromium (CI installs it with apt), headless, and the app's traffic
// stays on 127.0.0.1. `npm run test:e2e` builds first, then runs this.
import { existsSync } from 'node:fs';
import { defineConfig, devices } from '@playwright/test';
import { SHARED_BASE_URL, SHARED_PORT } from './test/e2e/support/fixtures';

const CHROMIUM = '/usr/bin/chromium';

if (!existsSync(CHROMIUM)) {
  throw new Error(
    `${CHROMIUM} is missing: the end-to-end tests run in Debian's Chromium. Install it with ` +
      '`sudo apt-get install -y chromium` (do not run `playwright install`).',
  );
}

export default defineConfig({
  testDir: './test/e2e',
  testMatch: '**/*.spec.ts',
  // Two cores on the test machine: one server per isolated spec plus a browser per worker is the most it takes.
  workers: 2,
  fullyParallel: false,
  // Deterministic tests: a failure is a finding, not something to retry away.
  retries: 0,
  forbidOnly: !!process.env.CI,
  timeout: 120_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list'], ['html', { open: 'never' }]] : [['list']],
  outputDir: 'test-results',
  use: {
    ...devices['Desktop Chrome'],
    baseURL: SHARED_BASE_URL,
    headless: true,
    locale: 'en-IN',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    actionTimeout: 15_000,
    navigationTimeout: 30_000,
    launchOptions: {
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [{ name: 'chromium' }],
  webServer: {
    // A small launcher: fresh temporary DATA_DIR, fixed SIM_SEED, SIM_SPEED 300, then the built server.
    command: 'node test/e2e/support/launch-product.mjs',
    url: `${SHARED_BASE_URL}/api/health`,
    env: { PORT: String(SHARED_PORT) },
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'pipe',
    stderr: 'pipe',
    // SIGTERM lets the launcher stop the server gracefully and delete its temporary DATA_DIR.
    gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
  },
});
