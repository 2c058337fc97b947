// The visitors' demo and the legal pages (issue 18, item 12): a signed-out visitor opens View Demo and watches the
// demo account trade on paper on the simulated market, while the page makes nothing but GETs to the demo's two
// endpoints; the sign-up checkbox links the Terms of Service and Privacy Policy, which name the operator the
// launcher configured.
import type { Request } from '@playwright/test';
import { quickSignals } from './support/admin';
import { expect, test } from './support/fixtures';

// Its own server: the admin made here (init-admin works once per database) sets quick signal parameters, so the
// demo account's first paper trade comes within seconds instead of whenever the seeded market allows.
test.use({ isolatedProduct: {} });

const FIRST_TRADE_TIMEOUT_MS = 60_000;

test('View Demo opens a read-only demo dashboard that works signed out and makes no write call', async ({
  page,
  request,
}) => {
  await test.step('set-up: quick signals (one bullish or bearish minute), as an admin over the API', async () => {
    await quickSignals(request);
  });

  const requests: Request[] = [];
  page.on('request', (r) => requests.push(r));

  await page.goto('/');
  const viewDemo = page.getByRole('link', { name: 'View Demo' });
  await expect(viewDemo).toBeVisible();
  // Only what the demo page itself asks for from here on.
  requests.length = 0;
  await viewDemo.click();
  await expect(page).toHaveURL(/\/test-dashboard$/);

  await expect(page.getByRole('heading', { name: 'Demo dashboard' })).toBeVisible();
  await expect(page.getByText('DEMO', { exact: true })).toBeVisible();
  await expect(page.getByText('SIMULATED DATA', { exact: true })).toBeVisible();
  await expect(page.getByText(/No order reaches a broker and no money is involved/)).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();

  // The demo account really trades: its paper trades show up in its table.
  const history = page.getByRole('table', { name: 'Trading history' });
  await expect(history.getByText('paper').first()).toBeVisible({ timeout: FIRST_TRADE_TIMEOUT_MS });
  await expect(page.getByLabel('NIFTY 50 price')).toHaveText(
    /^\d{1,2},\d{2},\d{3}\.\d{2}$|^\d{2},\d{3}\.\d{2}$/,
  );
  await expect(page.getByRole('region', { name: 'Bot Status' }).getByText(/Running|Stopped/)).toBeVisible();

  // It keeps reading: several snapshots, each a GET.
  const demoReads = () => requests.filter((r) => new URL(r.url()).pathname === '/api/demo').length;
  await expect.poll(demoReads, { timeout: 20_000 }).toBeGreaterThanOrEqual(3);

  const api = requests.filter((r) => new URL(r.url()).pathname.startsWith('/api/'));
  expect(requests.filter((r) => r.method() !== 'GET').map((r) => `${r.method()} ${r.url()}`)).toEqual([]);
  expect(new Set(api.map((r) => new URL(r.url()).pathname))).toEqual(
    new Set(['/api/demo', '/api/demo/candles']),
  );
  expect(requests.filter((r) => r.url().includes('/socket.io/'))).toEqual([]);

  // And the server takes no write on the demo's endpoints either.
  for (const path of ['/api/demo', '/api/demo/candles']) {
    expect((await request.post(path, { data: {} })).status()).toBe(404);
    expect((await request.delete(path)).status()).toBe(404);
  }
});

test('the sign-up checkbox links the Terms of Service and Privacy Policy, naming the operator', async ({
  page,
}) => {
  await page.goto('/');
  await expect(page.getByRole('contentinfo').getByText(/Monday-Saturday 9:00 AM-7:00 PM IST/)).toBeVisible();
  await page.getByRole('button', { name: 'Get Started', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Get Started' });
  await expect(dialog).toBeVisible();
  const checkbox = dialog.getByLabel('I agree to the Terms of Service and Privacy Policy');

  for (const [name, path] of [
    ['Terms of Service', '/terms'],
    ['Privacy Policy', '/privacy'],
  ] as const) {
    const link = dialog.getByRole('link', { name });
    await expect(link).toHaveAttribute('href', path);
    const [tab] = await Promise.all([page.waitForEvent('popup'), link.click()]);
    await expect(tab).toHaveURL(new RegExp(`${path}$`));
    const article = tab.getByRole('article', { name });
    await expect(article.getByRole('heading', { level: 1, name })).toBeVisible();
    // The launcher's operator (test/e2e/support/launch-product.mjs), filled into the built-in text.
    await expect(article.getByText(/Acme Algo Technologies Pvt Ltd/).first()).toBeVisible();
    await expect(article.getByText(/help@acme-algo\.example/).first()).toBeVisible();
    await tab.close();
  }
  // Following a link neither ticks the box nor closes the form.
  await expect(checkbox).not.toBeChecked();
  await expect(dialog).toBeVisible();
});
