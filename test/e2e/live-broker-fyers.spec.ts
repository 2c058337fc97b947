// Live trading through Fyers end to end in Chromium (issue 17): the product runs with FEED=fyers against the Fyers
// fake (test/fakes/fyers), the trader being the market-data account (a solo operator's own). The trader saves their
// Fyers app's id and secret, connects through the fake's generate-authcode redirect, sees live NIFTY from the Fyers
// data socket, switches to Live after the risk disclosure, and the next signal places a real adapter order at the
// fake whose fill (pushed on the order socket) shows on the dashboard with its P&L. Then Fyers' 06:00 IST logout
// ends the session, and the next morning (the browser's clock moved to 08:45 IST) the dashboard offers Reconnect.
import { istDate, istDateTime } from '../../engine/src/calendar/ist';
import { currentExpiry } from '../fakes/kite/currentExpiry';
import { startFyersFake, type FyersFake } from '../fakes/fyers/server';
import { bearer, brokerSessionOf, createAdmin, newTrader, setBotSwitch } from './support/admin';
import { newPerson, openSignedIn, toast } from './support/app';
import { expect, test as base } from './support/fixtures';

// A fixed account: the product's configuration names the market-data account before it starts.
const TRADER = { ...newPerson('Farah'), email: 'farah.fyers.feed@example.com' };
const APP = { appId: 'FYE2E01-100', secret: 'fyerssecret0e2e', fyId: 'XF4321', name: 'Farah Iqbal' };
const START_INDEX = 23_990;

interface FyersWorld {
  /** the Fyers fake with a rising market on its data socket; started before the product, which downloads its master */
  fyers: FyersFake;
}

const test = base.extend<object, FyersWorld>({
  fyers: [
    // eslint-disable-next-line no-empty-pattern -- a worker fixture that needs no other fixture
    async ({}, use) => {
      // The contracts the server trades today: the current weekly expiry on the exchange calendar.
      const fake = await startFyersFake({
        expiry: currentExpiry(),
        baseStrike: 24_000,
        autoFillPrice: 100,
      });
      // A steadily rising market, one tick a second: every one-minute candle is bullish, so a CALL arms at each
      // close and executes on the next tick above its trigger. Calls gain half a point per index point.
      let index = START_INDEX;
      const ticker = setInterval(() => {
        index += 1.5;
        const move = (index - START_INDEX) / 2;
        const quotes: Record<string, number> = {};
        for (const i of fake.instruments) {
          const premium = 100 + (i.optionType === 'CE' ? move : -move);
          quotes[i.fyToken] = Math.max(0.05, Math.round(premium * 20) / 20);
        }
        fake.hsm.push({ index, quotes });
      }, 1_000);
      await use(fake);
      clearInterval(ticker);
      await fake.close();
    },
    { scope: 'worker' },
  ],
  // The product depends on the fake, so the fake is listening before the product starts.
  isolatedProduct: [
    async ({ fyers }, use) => {
      await use({
        env: {
          E2E_FEED: 'fyers',
          E2E_FEED_ACCOUNT: TRADER.email,
          E2E_FYERS_API_ROOT: fyers.url,
          E2E_FYERS_LOGIN_URL: `${fyers.url}/api/v3/generate-authcode`,
          E2E_FYERS_WS_ROOT: fyers.wsUrl,
          E2E_FYERS_MASTER_ROOT: fyers.url,
        },
      });
    },
    { scope: 'worker' },
  ],
});

test('a trader connects Fyers, goes Live, a signal trades at the broker, and the next morning offers Reconnect', async ({
  page,
  request,
  baseURL,
  fyers: fake,
}) => {
  test.setTimeout(240_000);
  fake.addApp({ ...APP, redirectUrl: `${baseURL}/broker/fyers/callback` });

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

  await test.step('save the Fyers app and connect through the generate-authcode redirect', async () => {
    await openSignedIn(page, token, '/dashboard');
    await page.getByRole('combobox', { name: 'Broker' }).click();
    await page.getByRole('option', { name: /Fyers/ }).click();
    await page.getByLabel('API Key').fill(APP.appId);
    await page.getByLabel('API Secret').fill(APP.secret);
    await page.getByRole('button', { name: 'Save API Key' }).click();
    await expect(page.getByLabel('Broker session', { exact: true })).toHaveText('Not connected');
    // Connect leaves for the broker's login (the fake's), which sends the browser back to the callback page.
    const back = page.waitForURL(/\/broker\/fyers\/callback\?/);
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await back;
    await expect(toast(page, 'Broker Connected')).toBeVisible();
    await page.waitForURL(/\/dashboard$/);
    await expect(page.getByLabel('Broker session', { exact: true })).toHaveText('Connected');
    await expect(page.getByText(APP.name)).toBeVisible();
  });

  await test.step('live NIFTY from the Fyers data socket, not simulated', async () => {
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
    const buy = fake.book.ordersOf(APP.fyId).find((o) => o.side === 1);
    // A protected LIMIT (type 1), traded (status 2), carrying the algo tag and the client order id.
    expect(buy).toMatchObject({ status: 2, type: 1, productType: 'INTRADAY' });
    expect(buy?.orderTag).toMatch(/^[A-Za-z0-9]{17,30}$/);
    // The stop rests at the broker as a stop-limit (SL-L, type 4, pending) from the moment the entry filled.
    expect(fake.book.ordersOf(APP.fyId).some((o) => o.side === -1 && o.type === 4 && o.status === 6)).toBe(
      true,
    );
    await expect(recent.getByText(/^[+-]₹[\d,]+\.\d{2}/).first()).toBeVisible({ timeout: 15_000 });
  });

  await test.step('Fyers logs everyone out at 06:00 IST; the next morning the dashboard offers Reconnect', async () => {
    fake.expireSessions();
    // The adapter's next call to Fyers is refused: the server marks the session expired with the fixed message…
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
