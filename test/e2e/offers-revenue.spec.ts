// Offers and net revenue end to end (issue 18 items 2, 3 and 13): an admin creates an offer in the admin panel, a
// trader redeems its code at checkout (test mode) and pays the discounted price, the invoice PDF shows the discount in
// rupees (₹, read back from the PDF's text), the offer counts the redemption; then the admin refunds ₹1,000 and the
// Revenue page and the Overview show gross, refunds and net. One private server: the first admin is made once.
import { readFile } from 'node:fs/promises';
import type { Browser, Page } from '@playwright/test';
import { pdfText } from '../../server/src/testing/pdfText';
import { expect as baseExpect, test } from './support/fixtures';
import { dismissToasts, newPerson, openSignedIn, registerViaApi, toast } from './support/app';
import { createAdmin, type Admin } from './support/admin';

test.use({ isolatedProduct: {}, actionTimeout: 30_000, navigationTimeout: 60_000 });
// Two busy cores run this server, its simulated market and two browsers: allow for slow answers.
const expect = baseExpect.configure({ timeout: 30_000 });
test.describe.configure({ timeout: 240_000 });

let admin: Admin;

test.beforeAll(async ({ playwright, baseURL }) => {
  const request = await playwright.request.newContext({ baseURL });
  admin = await createAdmin(request);
  await request.dispose();
});

async function pageSignedIn(browser: Browser, baseURL: string | undefined, token: string, path: string) {
  const context = await browser.newContext({ baseURL, acceptDownloads: true });
  const page = await context.newPage();
  await openSignedIn(page, token, path);
  return page;
}

/** The text a reader sees in the PDF the click on `button` downloads. */
async function downloadedPdfText(page: Page, button: ReturnType<Page['getByRole']>): Promise<string> {
  const downloading = page.waitForEvent('download');
  await button.click();
  const download = await downloading;
  const bytes = await readFile(await download.path());
  expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
  return pdfText(bytes);
}

test('an offer made in the admin panel is redeemed at checkout, the invoice shows it, revenue after a refund is net', async ({
  page,
  browser,
  baseURL,
}) => {
  const person = newPerson('Diya');
  const traderToken = await registerViaApi(page.request, person);

  await test.step('the admin adds DIWALI10: 10 % off, at most 5 redemptions', async () => {
    await openSignedIn(page, admin.token, '/admin/subscriptions');
    const form = page.getByRole('form', { name: 'New offer' });
    await form.getByLabel('Offer name').fill('Diwali 2026');
    await form.getByLabel('Code', { exact: true }).fill('diwali10');
    await form.getByLabel('Discount %').fill('10');
    await form.getByLabel('Max redemptions', { exact: true }).fill('5');
    await form.getByRole('button', { name: 'Add offer' }).click();
    await expect(toast(page, 'Offer created')).toBeVisible();
    const row = page
      .getByRole('table', { name: 'Offers table' })
      .getByRole('row')
      .filter({ hasText: 'DIWALI10' });
    await expect(row).toContainText('10%');
    await expect(row).toContainText('0 / 5');
    await dismissToasts(page);
  });

  const trader = await pageSignedIn(browser, baseURL, traderToken, '/subscription');
  await test.step('the trader applies diwali10 at checkout and pays the discounted price', async () => {
    await trader
      .getByRole('region', { name: 'Your plan' })
      .getByRole('button', { name: 'Subscribe Now' })
      .click();
    const dialog = trader.getByRole('dialog', { name: 'Complete Payment' });
    await dialog.getByLabel('Offer code').fill('diwali10');
    await dialog.getByRole('button', { name: 'Apply' }).click();
    // 4,999.00 − 10 % = 4,499.10; GST 18 % of it = 809.84; total 5,308.94.
    await expect(dialog.getByText('Offer DIWALI10 (10% off)')).toBeVisible();
    await expect(dialog.getByText('−₹499.90')).toBeVisible();
    await expect(dialog.getByText('₹809.84')).toBeVisible();
    const verified = trader.waitForResponse((r) => r.url().endsWith('/api/payment/verify'));
    const reloaded = trader.waitForEvent('load');
    await dialog.getByRole('button', { name: 'Pay ₹5,308.94' }).click();
    expect((await verified).status()).toBe(200);
    await reloaded;
    await expect(toast(trader, 'Payment Successful')).toBeVisible();
  });

  await test.step('the invoice PDF shows list price, the discount and GST on the discounted value, in ₹', async () => {
    const history = trader.getByRole('table', { name: 'Payment history' });
    const paid = history.getByRole('row').filter({ hasText: '₹5,308.94' });
    await expect(paid).toBeVisible();
    const text = await downloadedPdfText(
      trader,
      paid.getByRole('button', { name: /^Download invoice OP\/\d{2}-\d{2}\/\d{5}$/ }),
    );
    for (const line of [
      'TAX INVOICE',
      'List price ₹4,999.00',
      'Discount (offer DIWALI10) −₹499.90',
      'Taxable value ₹4,499.10',
      'Total ₹5,308.94',
    ]) {
      expect(text, text).toContain(line);
    }
    expect(text).toMatch(/CGST @ 9% ₹404\.92|IGST @ 18% ₹809\.84/);
    expect(text).not.toContain('Rs.');
  });

  await test.step('the admin sees the redemption with its invoice', async () => {
    await page.reload();
    const row = page
      .getByRole('table', { name: 'Offers table' })
      .getByRole('row')
      .filter({ hasText: 'DIWALI10' });
    await expect(row).toContainText('1 / 5');
    await row.getByRole('button', { name: 'Edit DIWALI10' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit offer DIWALI10' });
    const redemption = edit
      .getByRole('table', { name: 'Redemptions' })
      .getByRole('row')
      .filter({ hasText: person.email });
    await expect(redemption).toContainText('₹499.90');
    await expect(redemption).toContainText('₹5,308.94');
    await expect(redemption).toContainText(/OP\/\d{2}-\d{2}\/\d{5}/);
    await edit.getByRole('button', { name: 'Cancel' }).click();
  });

  await test.step('after a ₹1,000 refund, Revenue and the Overview are net', async () => {
    await page.goto('/admin/revenue');
    await expect(page.getByLabel('Gross value')).toHaveText('₹5,308.94');
    const payments = page.getByRole('table', { name: 'Payments' });
    await payments
      .getByRole('row')
      .filter({ hasText: person.email })
      .getByRole('button', { name: 'Refund' })
      .click();
    const refund = page.getByRole('dialog', { name: 'Refund payment' });
    await refund.getByLabel('Amount (₹)').fill('1000');
    await refund.getByLabel('Reason').fill('Goodwill for downtime');
    await refund.getByRole('button', { name: 'Refund' }).click();
    await expect(toast(page, 'Refund made')).toBeVisible();

    await expect(page.getByLabel('Refunded value')).toHaveText('₹1,000.00');
    await expect(page.getByLabel('Net value')).toHaveText('₹4,308.94');
    await expect(page.getByLabel('Gross value')).toHaveText('₹5,308.94');
    const months = page.getByRole('table', { name: 'Revenue by month' });
    const total = months.locator('tfoot tr');
    await expect(total).toContainText('₹5,308.94');
    await expect(total).toContainText('−₹1,000.00');
    await expect(total).toContainText('₹4,308.94');

    await page.goto('/admin');
    await expect(page.getByLabel('Monthly Revenue value')).toHaveText('₹4,308.94');
    await expect(page.getByRole('region', { name: 'Monthly Revenue' })).toContainText(
      'gross ₹5,308.94, refunds ₹1,000.00',
    );
  });
  await trader.context().close();
});
