// Live trading through Zerodha end to end in Chromium (issue 10): the product runs with FEED=kite against the Kite
// fake (test/fakes/kite), the trader being the market-data account (a solo operator's own). The trader saves their
// Kite app's key and secret, connects through the fake's login redirect, sees live NIFTY from the Kite Ticker,
// switches to Live after the risk disclosure, and the next signal places a real adapter order at the fake whose fill
// shows on the dashboard with its P&L. Then Kite's nightly logout ends the session, and the next morning (the
// browser's clock moved to 08:45 IST) the dashboard offers the one-click Reconnect.
import { istDate, istDateTime } from '../../engine/src/calendar/ist';
import { currentExpiry } from '../fakes/kite/currentExpiry';
import { startRisingMarket } from '../fakes/kite/marketWalk';
import { startKiteFake, type KiteFake } from '../fakes/kite/server';
import { bearer, brokerSessionOf, createAdmin, newTrader, setBotSwitch } from './support/admin';
import { newPerson, openSignedIn, toast } from './support/app';
import { expect, test as base } from './support/fixtures';

// A fixed account: the product's configuration names the market-data account before it starts.
const TRADER = { ...newPerson('Kiran'), email: 'kiran.feed@example.com' };
const APP = { apiKey: 'kiteapp0e2e', apiSecret: 'kitesecret0e2e', userId: 'KR4321', userName: 'Kiran Rao' };
const START_INDEX = 23_990;

interface KiteWorld {
  /** the Kite fake with a rising market on its ticker; started before the product, which downloads its master */
  kite: KiteFake;
}

const test = base.extend<object, KiteWorld>({
  kite: [
    // eslint-disable-next-line no-empty-pattern -- a worker fixture that needs no other fixture
    async ({}, use) => {
      // The contracts the server trades today: the current weekly expiry on the exchange calendar.
      const fake = await startKiteFake({
        expiry: currentExpiry(),
        baseStrike: 24_000,
        autoFillPrice: 100,
      });
      // A steadily rising market, one tick a second: every one-minute candle is bullish.
      const stopMarket = startRisingMarket(fake, START_INDEX);
      await use(fake);
      stopMarket();
      await fake.close();
    },
    { scope: 'worker' },
  ],
  // The product depends on the fake, so the fake is listening before the product starts.
  isolatedProduct: [
    async ({ kite }, use) => {
      await use({
        env: {
          E2E_FEED: 'kite',
          E2E_FEED_ACCOUNT: TRADER.email,
          E2E_KITE_API_ROOT: kite.url,
          E2E_KITE_LOGIN_URL: `${kite.url}/connect/login`,
          E2E_KITE_WS_ROOT: kite.wsUrl,
        },
      });
    },
    { scope: 'worker' },
  ],
});

test('a trader connects Zerodha, goes Live, a signal trades at the broker, and the next morning offers Reconnect', async ({
  page,
  request,
  baseURL,
  kite: fake,
}) => {
  test.setTimeout(240_000);
  fake.addApp({ ...APP, redirectUrl: `${baseURL}/broker/zerodha/callback` });

  await test.step('set-up: quick signals (one bullish minute), a subscribed trader with the bot on', async () => {
    const admin = await createAdmin(request);
    for (const [name, value] of [
      ['consecutiveCandles', '1'],
      ['minMovement', '1'],
      ['entryOffset', '1'],
    ] as const) {
      const saved = await request.put(`/api/admin/control/${name}`, {
        headers: bearer(admin.token),
        data: { value },
      });
      expect(saved.status(), await saved.text()).toBe(200);
    }
  });
  const { token } = await newTrader(request, TRADER.firstName, true, TRADER, false);

  await test.step('save the Kite app and connect through the login redirect', async () => {
    await openSignedIn(page, token, '/dashboard');
    await page.getByRole('combobox', { name: 'Broker' }).click();
    await page.getByRole('option', { name: /Zerodha/ }).click();
    await page.getByLabel('API Key').fill(APP.apiKey);
    await page.getByLabel('API Secret').fill(APP.apiSecret);
    await page.getByRole('button', { name: 'Save API Key' }).click();
    await expect(page.getByLabel('Broker session', { exact: true })).toHaveText('Not connected');
    // Connect leaves for the broker's login (the fake's), which sends the browser back to the callback page.
    const back = page.waitForURL(/\/broker\/zerodha\/callback\?/);
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await back;
    await expect(toast(page, 'Broker Connected')).toBeVisible();
    await page.waitForURL(/\/dashboard$/);
    await expect(page.getByLabel('Broker session', { exact: true })).toHaveText('Connected');
    await expect(page.getByText(APP.userName)).toBeVisible();
  });

  await test.step('live NIFTY from the Kite Ticker, not simulated', async () => {
    const price = page.getByLabel('NIFTY 50 price');
    await expect(price).toHaveText(/^2[34],\d{3}\.\d{2}$/, { timeout: 30_000 });
    const first = await price.textContent();
    await expect(price).not.toHaveText(first ?? '', { timeout: 10_000 });
    await expect(page.getByText('SIMULATED DATA')).toHaveCount(0);
  });

  await test.step('switch to Live after the risk disclosure', async () => {
    await page.getByRole('button', { name: 'Switch to Live' }).click();
    const dialog = page.getByRole('dialog', { name: 'Switch to Live trading' });
    await expect(dialog.getByText('Risk disclosure', { exact: true })).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Go Live' })).toBeDisabled();
    await dialog.getByRole('checkbox').check();
    await dialog.getByRole('button', { name: 'Go Live' }).click();
    await expect(page.getByLabel('Trading mode').first()).toHaveText(/LIVE/i);
    // The bot goes on only now: on a slow machine a signal before the switch would otherwise trade on paper.
    await setBotSwitch(request, token, true);
  });

  await test.step('the next signal is a real order at the broker; its fill shows with its P&L', async () => {
    const recent = page.locator('table').filter({ hasText: 'CALL' }).first();
    // A minute for the candle to close, seconds for the trigger: well inside two minutes.
    await expect(recent).toBeVisible({ timeout: 150_000 });
    const buy = fake.book.ordersOf(APP.userId).find((o) => o.transaction_type === 'BUY');
    expect(buy).toMatchObject({ status: 'COMPLETE', exchange: 'NFO' });
    expect(buy?.tag).toBeTruthy();
    // The stop rests at the broker from the moment the entry filled.
    expect(fake.book.ordersOf(APP.userId).some((o) => o.status === 'TRIGGER PENDING')).toBe(true);
    await expect(recent.getByText(/^[+-]₹[\d,]+\.\d{2}/).first()).toBeVisible({ timeout: 15_000 });
  });

  await test.step('Kite logs everyone out overnight; the next morning the dashboard offers Reconnect', async () => {
    fake.expireSessions();
    // The adapter's next call to Kite is refused: the server marks the session expired with the fixed message…
    await expect.poll(() => brokerSessionOf(request, token), { timeout: 60_000 }).toBe('expired');
    // …and pushes it (`user:broker`) to the open dashboard, whose card says so without a reload.
    await expect(page.getByLabel('Broker session', { exact: true })).toHaveText('Session expired');
    const now = Date.now();
    const tomorrow = istDate(now + 24 * 3_600_000);
    await page.clock.setFixedTime(new Date(istDateTime(tomorrow, '08:45')));
    await page.reload();
    const banner = page.getByRole('status').filter({ hasText: 'Broker session expired' });
    await expect(banner).toBeVisible();
    await expect(banner.getByRole('button', { name: 'Reconnect' })).toBeVisible();
  });
});
