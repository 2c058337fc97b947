// Accessibility (issue 18 item 14): an axe-core scan (WCAG 2.1 AA) of every page a visitor, a trader and an admin
// reach — landing and its dialogs, the sign-in and reset pages, terms, privacy and the visitors' demo, the dashboard
// with the broker setup steps, each tab and dialog (desktop and a 390 px phone), Manage Subscription with the
// payment dialog, the broker callback, every admin page — finds no serious or critical violation. The dashboard is scanned with a trade in Recent Trades, so the trade tables' badges
// and P&L colours are checked too. Own server: the first admin can be created only once per database.
import type { Browser, Page } from '@playwright/test';
import { expect as baseExpect, test } from './support/fixtures';
import { openSignedIn } from './support/app';
import { createAdmin, newTrader, quickSignals, type Admin } from './support/admin';
import { expectNoSeriousA11yViolations } from './support/axe';

test.use({ isolatedProduct: {}, actionTimeout: 45_000, navigationTimeout: 60_000 });
// Two busy cores run this server, its simulated market and the browser: allow for slow answers.
const expect = baseExpect.configure({ timeout: 45_000 });
test.describe.configure({ mode: 'serial', timeout: 300_000 });

/** A phone's viewport (iPhone 12–15 class). */
const PHONE = { width: 390, height: 844 };
/** How long the first trade may take on quick signals (normally a second or two) on a loaded machine. */
const FIRST_TRADE_TIMEOUT_MS = 90_000;

let admin: Admin;
let traderToken: string;

test.beforeAll(async ({ playwright, baseURL }) => {
  const request = await playwright.request.newContext({ baseURL });
  admin = await createAdmin(request);
  // The scan wants a trade row, not a particular strategy: quick signals trade within seconds (support/admin.ts).
  await quickSignals(request, admin);
  traderToken = (await newTrader(request, 'Kavya', true)).token;
  await request.dispose();
});

async function signedInPage(browser: Browser, baseURL: string | undefined, token: string, path: string) {
  const context = await browser.newContext({ baseURL, locale: 'en-IN' });
  const page = await context.newPage();
  await openSignedIn(page, token, path);
  return page;
}

async function scanDialog(page: Page, name: string) {
  const dialog = page.getByRole('dialog', { name });
  await expect(dialog).toBeVisible();
  await expectNoSeriousA11yViolations(page, `${name} dialog`);
  await dialog.getByRole('button', { name: 'Close' }).first().click();
  await expect(dialog).toBeHidden();
}

test('visitor pages: landing, login and sign-up dialogs, admin sign-in and setup, reset pages, 404', async ({
  page,
}) => {
  await page.goto('/');
  await expect(page.getByRole('button', { name: 'Get Started', exact: true })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'landing page');

  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await scanDialog(page, 'Welcome Back');
  await page.getByRole('button', { name: 'Get Started', exact: true }).click();
  await scanDialog(page, 'Get Started');

  await page.goto('/admin-login');
  await expect(page.getByRole('form', { name: 'Admin sign-in' })).toBeVisible();
  await expectNoSeriousA11yViolations(page, '/admin-login');

  await page.goto('/create-admin');
  await expect(page.getByRole('button', { name: 'Create admin' })).toBeVisible();
  await expectNoSeriousA11yViolations(page, '/create-admin');

  await page.goto('/forgot-password');
  await page.getByLabel('Email').fill('nobody@example.com');
  await expectNoSeriousA11yViolations(page, '/forgot-password');
  await page.getByRole('button', { name: /reset link/i }).click();
  await expect(page.getByRole('button', { name: 'Try Again' })).toBeVisible();
  await expectNoSeriousA11yViolations(page, '/forgot-password confirmation');

  await page.goto('/reset-password?token=not-a-real-token');
  await expect(page.getByLabel('New Password', { exact: true })).toBeVisible();
  await expectNoSeriousA11yViolations(page, '/reset-password');

  await page.goto('/no-such-page');
  await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
  await expectNoSeriousA11yViolations(page, '404 page');

  for (const [path, title] of [
    ['/terms', 'Terms of Service'],
    ['/privacy', 'Privacy Policy'],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
    await expectNoSeriousA11yViolations(page, path);
  }

  await page.goto('/test-dashboard');
  await expect(page.getByLabel('NIFTY 50 price')).toBeVisible();
  await expectNoSeriousA11yViolations(page, '/test-dashboard (demo)');
});

test('trader pages: the dashboard and its tabs (desktop and phone), subscription and payment, broker callback', async ({
  browser,
  baseURL,
}) => {
  const page = await signedInPage(browser, baseURL, traderToken, '/');
  // A trade in Recent Trades, so its row (type badge, P&L colour) is part of the scan.
  const recent = page.getByRole('table', { name: 'Recent trades' });
  await expect(recent.getByRole('row').nth(1)).toBeVisible({ timeout: FIRST_TRADE_TIMEOUT_MS });
  await expectNoSeriousA11yViolations(page, 'dashboard');

  await page.getByRole('button', { name: 'Trading Settings' }).click();
  await scanDialog(page, 'Trading Settings');

  // The Broker Connection card's setup steps for a chosen broker (redirect URL with Copy, static IP).
  await page.getByRole('combobox', { name: 'Broker' }).click();
  await page.getByRole('option', { name: /Zerodha/ }).click();
  await expect(page.getByLabel('Zerodha setup')).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'broker setup steps');

  await page.getByRole('tab', { name: 'Trades' }).click();
  await expect(page.getByRole('table', { name: 'Trading history' })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'dashboard Trades tab');

  await page.getByRole('tab', { name: 'Settings' }).click();
  await expect(page.getByRole('tabpanel', { name: 'Settings' })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'dashboard Settings tab');

  await page.setViewportSize(PHONE);
  await page.getByRole('tab', { name: 'Dashboard' }).click();
  await expect(page.getByRole('region', { name: 'Recent Trades' })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'dashboard at 390 px');
  await page.getByRole('tab', { name: 'Trades' }).click();
  await expect(page.getByRole('tabpanel', { name: 'Trades' })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'dashboard Trades tab at 390 px');
  await page.setViewportSize({ width: 1280, height: 720 });

  await page.goto('/subscription');
  await expect(page.getByRole('region', { name: 'Your plan' })).toBeVisible();
  await expectNoSeriousA11yViolations(page, '/subscription');
  await page.getByRole('button', { name: 'Renew Subscription' }).click();
  await scanDialog(page, 'Complete Payment');

  // Without a state from the broker's redirect the callback shows its error: the page a failed login lands on.
  await page.goto('/broker/zerodha/callback');
  await expect(page.getByRole('alert').filter({ hasText: 'Authentication Failed' })).toBeVisible();
  await expectNoSeriousA11yViolations(page, '/broker/zerodha/callback');
  await page.context().close();
});

test('admin pages: the panel with each tab, every admin section and the user dialog', async ({
  browser,
  baseURL,
}) => {
  const page = await signedInPage(browser, baseURL, admin.token, '/admin');
  await expect(page.getByRole('region', { name: 'Bot Control' })).toBeVisible();
  await expectNoSeriousA11yViolations(page, '/admin overview');
  for (const tab of ['Strategy', 'Trades', 'Signals', 'Logs']) {
    await page.getByRole('tab', { name: tab }).click();
    await expect(page.getByRole('tabpanel', { name: tab })).toBeVisible();
    await expectNoSeriousA11yViolations(page, `/admin ${tab} tab`);
  }
  const sections = [
    'users',
    'revenue',
    'trades',
    'payments',
    'brokers',
    'subscriptions',
    'strategies',
    'messages',
  ];
  for (const section of sections) {
    await page.goto(`/admin/${section}`);
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
    await page.waitForLoadState('networkidle');
    await expectNoSeriousA11yViolations(page, `/admin/${section}`);
  }
  await page.goto('/admin/users');
  await page.getByRole('button', { name: 'View' }).first().click();
  const view = page.getByRole('dialog');
  await expect(view).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'user View dialog');
  await page.context().close();
});
