// The admin panel end to end (issue 9): an admin pauses the bot and a trader's open dashboard shows it without a
// reload; the admin approves a trader's UPI payment: Manage Subscription turns Active and lists its invoice; Users and Trades are
// searched and filtered on the server; the QR upload refuses a text file named ".png". One private server: the first
// admin can be created only once per database.
import type { Browser, Page } from '@playwright/test';
import { expect as baseExpect, test } from './support/fixtures';
import { openSignedIn, toast } from './support/app';
import { bearer, createAdmin, newTrader, quickSignals, type Admin } from './support/admin';

test.use({ isolatedProduct: {}, actionTimeout: 45_000, navigationTimeout: 60_000 });
// Two busy cores run this server, its simulated market at SIM_SPEED 300 and two browsers: allow for slow answers.
const expect = baseExpect.configure({ timeout: 45_000 });
test.describe.configure({ mode: 'serial', timeout: 300_000 });

let admin: Admin;

test.beforeAll(async ({ playwright, baseURL }) => {
  const request = await playwright.request.newContext({ baseURL });
  admin = await createAdmin(request);
  await request.dispose();
});

async function pageSignedIn(browser: Browser, baseURL: string | undefined, token: string, path: string) {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await openSignedIn(page, token, path);
  return page;
}

async function choose(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

test('an admin signs in and pauses the bot; the trader sees it live, then resumes', async ({
  page,
  browser,
  baseURL,
}) => {
  const trader = await newTrader(page.request, 'Meera', true);
  const traderPage = await pageSignedIn(browser, baseURL, trader.token, '/');
  const botCard = traderPage.getByRole('region', { name: 'Bot Status', exact: true });
  await expect(botCard.getByText('Running', { exact: true })).toBeVisible();

  await page.goto('/admin-login');
  const form = page.getByRole('form', { name: 'Admin sign-in' });
  await form.getByLabel('Email', { exact: true }).fill(admin.email);
  await form.getByLabel('Password', { exact: true }).fill(admin.password);
  await form.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL('/admin');

  const control = page.getByRole('region', { name: 'Bot Control' });
  await expect(control.getByLabel('Bot state')).toHaveText('Running');
  await control.getByRole('button', { name: 'Pause' }).click();
  await expect(toast(page, 'Trading paused')).toBeVisible();
  await expect(control.getByLabel('Bot state')).toHaveText('Paused');

  // The trader's page was never reloaded: the change arrived over the socket.
  await expect(botCard.getByText('Stopped', { exact: true })).toBeVisible();
  await expect(botCard.getByText('Trading paused by admin')).toBeVisible();

  // Toasts queue one at a time (spec §9), so "Trading resumed" shows once the earlier ones have timed out.
  await control.getByRole('button', { name: 'Resume' }).click();
  await expect(toast(page, 'Trading resumed')).toBeVisible();
  await expect(botCard.getByText('Running', { exact: true })).toBeVisible();
  await traderPage.context().close();
});

test("the admin approves a trader's UPI payment: Manage Subscription turns Active and lists its invoice", async ({
  page,
  browser,
  baseURL,
}) => {
  const upi = await page.request.post('/api/upi-settings', {
    headers: bearer(admin.token),
    data: { upiId: 'optionpilot@okaxis', accountHolderName: 'OptionPilot Technologies' },
  });
  expect(upi.status(), await upi.text()).toBe(200);

  const trader = await newTrader(page.request, 'Kiran', false);
  const traderPage = await pageSignedIn(browser, baseURL, trader.token, '/');
  const subscriptionCard = traderPage.getByRole('region', { name: 'Subscription', exact: true });
  await expect(subscriptionCard.getByText('Pending', { exact: true })).toBeVisible();
  // The trader's page runs the live chart on a loaded machine: a dispatched click needs no scrolling or settling.
  await traderPage.getByRole('link', { name: 'Manage Subscription' }).dispatchEvent('click');
  await expect(traderPage).toHaveURL(/\/subscription$/);
  const plan = traderPage.getByRole('region', { name: 'Your plan' });
  await plan.getByRole('button', { name: 'Subscribe Now' }).click();
  const dialog = traderPage.getByRole('dialog', { name: 'Complete Payment' });
  await dialog.getByRole('button', { name: 'Pay by UPI' }).dispatchEvent('click');
  await expect(dialog.getByLabel('UPI ID')).toHaveText('optionpilot@okaxis');
  await expect(dialog.getByLabel('UPI amount')).toHaveText('₹5,898.82');
  const utr = String(Date.now()).slice(-12).padStart(12, '7');
  await dialog.getByLabel('UTR number').fill(utr);
  await dialog.getByRole('button', { name: 'Submit payment' }).dispatchEvent('click');
  await expect(traderPage.getByText('Payment under review')).toBeVisible();

  await openSignedIn(page, admin.token, '/admin/payments');
  const requests = page.getByRole('table', { name: 'Payment requests' });
  const row = requests.getByRole('row').filter({ hasText: trader.person.email });
  await row.getByRole('button', { name: 'Review' }).click();
  const review = page.getByRole('dialog', { name: 'Review payment request' });
  await review.getByRole('combobox', { name: 'Status' }).click();
  await page.getByRole('option', { name: 'Approve' }).click();
  await review.getByRole('button', { name: 'Update' }).click();
  await expect(toast(page, 'Payment Request Updated')).toBeVisible();

  // No reload on the trader's side: the approval arrives over the socket, and the payment with its GST invoice
  // joins the history.
  await expect(plan.getByText('Active', { exact: true })).toBeVisible();
  await expect(traderPage.getByText('Payment under review')).toBeHidden();
  const history = traderPage.getByRole('table', { name: 'Payment history' });
  const paid = history.getByRole('row').filter({ hasText: 'UPI transfer' });
  await expect(paid).toContainText('₹5,898.82');
  await expect(paid.getByRole('button', { name: /Download invoice OP\/\d{2}-\d{2}\/\d{5}/ })).toBeVisible();
  await traderPage.getByRole('link', { name: 'Back to dashboard' }).click();
  await expect(subscriptionCard.getByText('Active', { exact: true })).toBeVisible();
  await traderPage.context().close();
});

test('Users: search by name or e-mail and filter by status, on the server', async ({ page }) => {
  const pending = await newTrader(page.request, 'Zoravar', false);
  const active = await newTrader(page.request, 'Zubin', true);
  await openSignedIn(page, admin.token, '/admin/users');
  const table = page.getByRole('table', { name: 'Users' });
  await expect(table).toBeVisible();

  await page.getByLabel('Search').fill('Zoravar');
  await expect(table.getByRole('row').filter({ hasText: pending.person.email })).toBeVisible();
  await expect(table.getByRole('row')).toHaveCount(2); // header + the one match

  await page.getByLabel('Search').fill(active.person.email);
  await expect(table.getByRole('row').filter({ hasText: 'Zubin' })).toBeVisible();
  await expect(table.getByRole('row')).toHaveCount(2);

  await choose(page, 'Status', 'Pending');
  await expect(page.getByText('No users match.')).toBeVisible();
  await choose(page, 'Status', 'Active');
  await expect(table.getByRole('row').filter({ hasText: active.person.email })).toBeVisible();
});

test('Trades: search by e-mail and filter by status and type, on the server', async ({ page }) => {
  // The search wants trades, not a particular strategy: on quick signals an eligible account trades within seconds
  // (on the defaults a first trade can take over a minute).
  await quickSignals(page.request, admin);
  const trader = await newTrader(page.request, 'Tara', true);
  await expect
    .poll(
      async () => {
        const res = await page.request.get(
          `/api/admin/trades?search=${encodeURIComponent(trader.person.email)}`,
          {
            headers: bearer(admin.token),
          },
        );
        return ((await res.json()) as { total: number }).total;
      },
      { timeout: 90_000 },
    )
    .toBeGreaterThan(0);

  await openSignedIn(page, admin.token, '/admin/trades');
  const table = page.getByRole('table', { name: 'Trades' });
  await page.getByLabel('Search').fill(trader.person.email);
  const rows = table.getByRole('row').filter({ hasText: trader.person.email });
  await expect(rows.first()).toBeVisible();
  // Every row on the page is the searched trader's: only the header row lacks the e-mail. (Counting the trader's rows
  // first would race the search: the unfiltered first page can already hold some of them.)
  await expect(table.getByRole('row').filter({ hasNotText: trader.person.email })).toHaveCount(1);

  await choose(page, 'Status', 'Cancelled');
  await expect(page.getByText('No trades match.')).toBeVisible();
  await choose(page, 'Status', 'All statuses');
  const type =
    (await rows
      .first()
      .getByText(/^(CALL|PUT)$/)
      .textContent()) ?? 'CALL';
  await choose(page, 'Type', type === 'CALL' ? 'PUT' : 'CALL');
  await choose(page, 'Type', type);
  await expect(rows.first()).toBeVisible();
  await expect(page.getByLabel('Total Trades value')).not.toHaveText('0');
});

test('the QR upload refuses a text file renamed .png, in the browser and on the server', async ({ page }) => {
  await openSignedIn(page, admin.token, '/admin/payments');
  const upiCard = page.getByRole('region', { name: 'UPI Settings' });
  await upiCard.locator('input[type="file"]').setInputFiles({
    name: 'qr.png',
    mimeType: 'image/png',
    buffer: Buffer.from('upi://pay?pa=optionpilot@okaxis — not an image'),
  });
  await expect(upiCard.getByText('The file must be a PNG, JPEG or WebP image.')).toBeVisible();
  await expect(upiCard.getByAltText('UPI QR code preview')).toBeHidden();

  const direct = await page.request.put('/api/upi-settings/qr', {
    headers: { ...bearer(admin.token), 'Content-Type': 'image/png' },
    data: Buffer.from('plain text pretending to be a png'),
  });
  expect(direct.status()).toBeGreaterThanOrEqual(400);
  expect(direct.status()).toBeLessThan(500);
});
