// A phone (issue 18 item 4): at 390 px a trader's and an admin's Logout is on screen, reads "Logout" in full and
// signs out; the admin side menu has Logout too; Recent Trades shows each trade's side in full and its P&L on
// screen. Own server: the first admin can be created only once per database.
import type { Locator, Page } from '@playwright/test';
import { expect as baseExpect, test } from './support/fixtures';
import { animationsSettled, openSignedIn } from './support/app';
import { bearer, createAdmin, newTrader, quickSignals, type Admin } from './support/admin';

const PHONE = { width: 390, height: 844 };

test.use({ isolatedProduct: {}, viewport: PHONE, actionTimeout: 45_000, navigationTimeout: 60_000 });
// Two busy cores run this server, its simulated market and the browser: allow for slow answers.
const expect = baseExpect.configure({ timeout: 45_000 });
test.describe.configure({ mode: 'serial', timeout: 240_000 });
/** How long the first trade may take on quick signals (normally a second or two) on a loaded machine. */
const FIRST_TRADE_TIMEOUT_MS = 90_000;
/** A signed rupee P&L, e.g. "+₹52.00" or "-₹1,451.21". */
const SIGNED_PNL = /[+-]₹[\d,]+\.\d{2}/;

let admin: Admin;

test.beforeAll(async ({ playwright, baseURL }) => {
  const request = await playwright.request.newContext({ baseURL });
  admin = await createAdmin(request);
  // The cards want trades, not a particular strategy: quick signals trade within seconds (support/admin.ts).
  await quickSignals(request, admin);
  await request.dispose();
});

/**
 * `target` is visible, lies wholly inside the phone's width, and neither it nor anything inside it cuts its text
 * (no content wider than its box: "Lo" for "Logout" and "CA…" for "CALL" are exactly that).
 */
async function expectReadable(page: Page, target: Locator): Promise<void> {
  await expect(target).toBeVisible();
  await animationsSettled(page);
  const box = await target.boundingBox();
  expect(box, 'the element has a box').not.toBeNull();
  if (box === null) return;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(page.viewportSize()?.width ?? 0);
  const cut = await target.evaluate((el) =>
    [el, ...Array.from(el.querySelectorAll('*'))]
      .filter((e) => e.scrollWidth > e.clientWidth + 1)
      .map((e) => `${e.className}: ${e.textContent ?? ''}`),
  );
  expect(cut, 'elements whose text is wider than their box').toEqual([]);
}

async function expectSignedOut(page: Page): Promise<void> {
  await expect(page).toHaveURL('/');
  await expect(page.getByRole('button', { name: 'Start Trading Now' }).first()).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
}

test('a trader on a phone sees each recent trade with its full side and P&L, and logs out from the header', async ({
  page,
}) => {
  const { token, person } = await newTrader(page.request, 'Diya', true);
  await openSignedIn(page, token, '/');

  const header = page.getByRole('banner');
  await expect(header.getByText(`Welcome, ${person.firstName}`)).toBeVisible();
  const logout = header.getByRole('button', { name: 'Logout' });
  await expectReadable(page, logout);
  await expect(logout).toHaveText('Logout');

  // At 390 px Recent Trades is a list of cards, each with the side, the time and the P&L.
  const recent = page.getByRole('list', { name: 'Recent trades' });
  const first = recent.getByRole('listitem').first();
  await expect(first).toBeVisible({ timeout: FIRST_TRADE_TIMEOUT_MS });
  await first.scrollIntoViewIfNeeded();
  await expectReadable(page, first);
  await expect(first.getByText(/^(CALL|PUT)$/)).toBeVisible();
  await expect(first).toContainText(SIGNED_PNL);
  await expectReadable(page, first.getByText(SIGNED_PNL));

  await logout.click();
  await expectSignedOut(page);
});

test('an admin on a phone finds a readable Logout in the header and in the side menu', async ({ page }) => {
  await openSignedIn(page, admin.token, '/admin');
  const header = page.getByRole('banner');
  const logout = header.getByRole('button', { name: 'Logout' });
  await expectReadable(page, logout);
  await expect(logout).toHaveText('Logout');

  // The side menu is folded away on a phone; the burger opens it, and it ends with Logout.
  const menuLogout = page.getByRole('navigation', { name: 'Admin' }).getByRole('button', { name: 'Logout' });
  const folded = await menuLogout.boundingBox();
  expect((folded?.x ?? 0) + (folded?.width ?? 0), 'the folded menu is off screen').toBeLessThanOrEqual(0);
  await header.getByRole('button', { name: 'Toggle navigation' }).click();
  await expectReadable(page, menuLogout);
  await menuLogout.click();
  await expectSignedOut(page);
});

test.describe('on a desktop', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test("an admin's trade list shows each trade's option symbol and its P&L, as the trader sees them", async ({
    page,
  }) => {
    // A weekly NIFTY option as the paper broker names it, e.g. NIFTY01DEC2623950PE.
    const optionSymbol = /NIFTY\d{2}[A-Z]{3}\d{2}\d{5}(CE|PE)/;
    const { person } = await newTrader(page.request, 'Ira', true);
    // The admin signed out in the test above (the token is revoked): sign in again.
    const login = await page.request.post('/api/auth/admin-login', {
      data: { email: admin.email, password: admin.password },
    });
    expect(login.status(), await login.text()).toBe(200);
    const { token } = (await login.json()) as { token: string };
    // On quick signals the trader's first trade comes within seconds.
    await expect
      .poll(
        async () => {
          const res = await page.request.get(`/api/admin/trades?search=${encodeURIComponent(person.email)}`, {
            headers: bearer(token),
          });
          return ((await res.json()) as { total: number }).total;
        },
        { timeout: FIRST_TRADE_TIMEOUT_MS },
      )
      .toBeGreaterThan(0);
    await openSignedIn(page, token, '/admin/trades');
    await page.getByLabel('Search').fill(person.email);
    const rows = page
      .getByRole('table', { name: 'Trades' })
      .getByRole('row')
      .filter({ hasText: person.email });
    const row = rows.first();
    await expect(row).toContainText(optionSymbol);
    // Closed: its realised P&L; open: its mark at the last quote ("live"), never a bare "Running" once quoted.
    await expect(row).toContainText(SIGNED_PNL);
  });
});
