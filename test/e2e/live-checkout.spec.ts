// Razorpay live mode end to end in Chromium (issue 11): the product runs with Razorpay keys against the fake
// Razorpay in test/fakes/razorpay (its checkout.js, Orders, Payments and Refunds APIs), so the browser loads
// checkout.js on demand, pays in the provider's window, and the server verifies the signature and asks "Razorpay"
// about the payment before activating. Then the trader downloads the GST invoice from Manage Subscription and
// renews with an offer code.
import { readFile } from 'node:fs/promises';
import { startFakeRazorpay, type FakeRazorpay } from '../fakes/razorpay/server';
import { expect, SHARED_PORT, test } from './support/fixtures';
import { newPerson, openSignedIn, registerViaApi, toast } from './support/app';

// A fixed port: the product's configuration names the fake before either starts.
const FAKE_PORT = SHARED_PORT + 29;
const FAKE_URL = `http://127.0.0.1:${FAKE_PORT}`;
const KEY_ID = 'rzp_test_E2eLiveKey01';
const KEY_SECRET = 'e2e_live_key_secret_0123456789';

test.use({
  isolatedProduct: {
    env: {
      // The launcher drops the shell's RAZORPAY_* and takes these explicit ones instead.
      E2E_RAZORPAY_KEY_ID: KEY_ID,
      E2E_RAZORPAY_KEY_SECRET: KEY_SECRET,
      E2E_RAZORPAY_API_ROOT: FAKE_URL,
      E2E_RAZORPAY_CHECKOUT_URL: `${FAKE_URL}/checkout.js`,
    },
  },
});

let fake: FakeRazorpay;
test.beforeAll(async () => {
  fake = await startFakeRazorpay({ keyId: KEY_ID, keySecret: KEY_SECRET, port: FAKE_PORT });
});
test.afterAll(async () => {
  await fake.close();
});

/** Pays the open payment dialog through the fake Razorpay window; resolves when the page has reloaded. */
async function payWithRazorpay(page: import('@playwright/test').Page, total: string) {
  const dialog = page.getByRole('dialog', { name: 'Complete Payment' });
  await expect(dialog.getByText(total, { exact: true })).toBeVisible();
  const reloaded = page.waitForEvent('load');
  await dialog.getByRole('button', { name: `Pay ${total}` }).click();
  const razorpay = page.getByRole('dialog', { name: 'Razorpay Checkout' });
  await expect(razorpay).toContainText(total);
  const verified = page.waitForResponse((r) => r.url().endsWith('/api/payment/verify'));
  await razorpay.getByRole('button', { name: 'Pay', exact: true }).click();
  expect((await verified).status()).toBe(200);
  await reloaded;
  await expect(toast(page, 'Payment Successful')).toBeVisible();
}

test('live checkout through Razorpay activates, the invoice PDF downloads, and renewal takes an offer code', async ({
  page,
  request,
}) => {
  const person = newPerson('Meera');
  const token = await registerViaApi(request, person);

  await test.step('pay the monthly plan in the Razorpay window', async () => {
    await openSignedIn(page, token, '/subscription');
    const plan = page.getByRole('region', { name: 'Your plan' });
    await expect(page.getByText('No payments yet.')).toBeVisible();
    await plan.getByRole('button', { name: 'Subscribe Now' }).click();
    await payWithRazorpay(page, '₹5,898.82');
    await expect(plan.getByText('Active', { exact: true })).toBeVisible();
    // The server's order at Razorpay carried the server's amount.
    expect([...fake.orders.values()].map((o) => o.amount)).toEqual([589_882]);
  });

  await test.step('download the GST invoice from Manage Subscription', async () => {
    const history = page.getByRole('table', { name: 'Payment history' });
    const row = history.getByRole('row').filter({ hasText: 'Razorpay' });
    await expect(row).toContainText('₹5,898.82');
    const downloading = page.waitForEvent('download');
    await row.getByRole('button', { name: /^Download invoice OP\/\d{2}-\d{2}\/\d{5}$/ }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^invoice-OP-\d{2}-\d{2}-\d{5}\.pdf$/);
    const bytes = await readFile(await download.path());
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
  });

  await test.step('renew with an offer code an admin created', async () => {
    const init = await request.post('/api/init-admin');
    const admin = (await init.json()) as { email: string; password: string };
    const login = await request.post('/api/auth/admin-login', {
      data: { email: admin.email, password: admin.password },
    });
    const adminToken = ((await login.json()) as { token: string }).token;
    const offer = await request.post('/api/admin/offers', {
      headers: { Authorization: `Bearer ${adminToken}` },
      data: { name: 'Renewal 10%', code: 'RENEW10', discountPercent: 10 },
    });
    expect(offer.status(), await offer.text()).toBeLessThan(300);

    const plan = page.getByRole('region', { name: 'Your plan' });
    const endBefore = await plan
      .getByText(/\d{4}$/)
      .last()
      .textContent();
    await plan.getByRole('button', { name: 'Renew Subscription' }).click();
    const dialog = page.getByRole('dialog', { name: 'Complete Payment' });
    await dialog.getByLabel('Offer code').fill('RENEW10');
    await dialog.getByRole('button', { name: 'Apply' }).click();
    // 10 % off ₹4,999 = ₹4,499.10, plus 18 % GST ₹809.84 = ₹5,308.94.
    await payWithRazorpay(page, '₹5,308.94');
    const history = page.getByRole('table', { name: 'Payment history' });
    await expect(history.getByRole('row')).toHaveCount(3);
    await expect(history.getByRole('row').nth(1)).toContainText('₹5,308.94');
    await expect(plan.getByText(/\d{4}$/).last()).not.toHaveText(endBefore ?? '');
    expect([...fake.orders.values()].map((o) => o.amount)).toEqual([589_882, 530_894]);
  });
});
