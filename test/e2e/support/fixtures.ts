// The `test` every spec imports. It points `baseURL` at the product under test and keeps the browser's traffic on
// 127.0.0.1.
//
// By default a spec uses the shared server that playwright.config.ts starts (`webServer`, port 3917). A spec that
// needs a database nobody else touches sets `test.use({ isolatedProduct: {} })` at its top level: the worker
// option's value differs from the default, so Playwright runs that file in its own worker, whose `product` fixture
// starts a private server (support/product.ts) and stops it when the worker ends.
import { test as base, expect } from '@playwright/test';
import { startProduct, type ProductOptions } from './product';

/** Port of the shared server started by playwright.config.ts. */
// E2E_PORT moves it, so that several checkouts on one machine can run their end-to-end tests side by side.
export const SHARED_PORT = Number(process.env.E2E_PORT ?? 3917);
export const SHARED_BASE_URL = `http://127.0.0.1:${SHARED_PORT}`;

export interface ProductUnderTest {
  baseURL: string;
  /** the server's recent output (only for a private server; the shared one prints to Playwright's console) */
  logs: () => string;
}

interface WorkerFixtures {
  /** null: the shared server; an object: a private server with these options for this spec file */
  isolatedProduct: ProductOptions | null;
  product: ProductUnderTest;
}

interface TestFixtures {
  /** aborts any request that leaves 127.0.0.1 and fails the test if there was one */
  localTrafficOnly: void;
  /** attaches the private server's output to a failed test */
  productLogsOnFailure: void;
}

// Every http(s) URL whose host is not 127.0.0.1. A pattern (not a predicate) lets the browser itself skip the
// local requests instead of pausing each one for the test process to decide.
const NOT_LOCAL = /^https?:\/\/(?!127\.0\.0\.1[:/])/;

export const test = base.extend<TestFixtures, WorkerFixtures>({
  isolatedProduct: [null, { scope: 'worker', option: true }],

  product: [
    async ({ isolatedProduct }, use) => {
      if (!isolatedProduct) {
        await use({ baseURL: SHARED_BASE_URL, logs: () => '' });
        return;
      }
      const product = await startProduct(isolatedProduct);
      try {
        await use({ baseURL: product.baseURL, logs: product.logs });
      } finally {
        await product.stop();
      }
    },
    // Start-up includes migrating a new SQLite database.
    { scope: 'worker', timeout: 90_000 },
  ],

  baseURL: async ({ product }, use) => {
    await use(product.baseURL);
  },

  localTrafficOnly: [
    async ({ context }, use) => {
      const blocked: string[] = [];
      await context.route(NOT_LOCAL, (route) => {
        blocked.push(route.request().url());
        return route.abort('blockedbyclient');
      });
      await use();
      expect(blocked, 'the app must not reach outside 127.0.0.1 during tests').toEqual([]);
    },
    { auto: true },
  ],

  productLogsOnFailure: [
    async ({ product }, use, testInfo) => {
      await use();
      const logs = product.logs();
      if (testInfo.status !== testInfo.expectedStatus && logs) {
        await testInfo.attach('server-output.txt', { body: logs, contentType: 'text/plain' });
      }
    },
    { auto: true },
  ],
});

export { expect };
