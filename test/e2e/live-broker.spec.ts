// Live trading through Zerodha end to end in Chromium (issue 10): the product runs with FEED=kite against the Kite
// fake (test/fakes/kite), the trader being the market-data account (a solo operator's own). The trader saves their
// Kite app's key and secret, connects through the fake's login redirect, sees live NIFTY from the Kite Ticker,
// switches to Live after the risk disclosure, and the next signal places a real adapter order at the fake whose fill
// shows on the dashboard with its P&L. Then Kite's nightly logout ends the session, and the next morning (the
// browser's clock moved to 08:45 IST) the dashboard offers the one-click Reconnect.
import { currentExpiry } from '../fakes/kite/currentExpiry';
import { startRisingMarket } from '../fakes/kite/marketWalk';
import { startKiteFake, type KiteFake } from '../fakes/kite/server';
import { newTrader, quickSignals } from './support/admin';
import { newPerson, openSignedIn, toast } from './support/app';
import { expect, test as base } from './support/fixtures';
import {
  expectLiveNifty,
  expectPnl,
  expectReconnectOffered,
  firstTrade,
  switchToLive,
} from './support/liveBroker';

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

  // Set-up: quick signals (one bullish minute arms a CALL); a subscribed trader whose bot goes on once Live is chosen.
  await quickSignals(request);
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
    await expectLiveNifty(page);
  });

  await test.step('switch to Live after the risk disclosure', async () => {
    await switchToLive(page, request, token);
  });

  await test.step('the next signal is a real order at the broker; its fill shows with its P&L', async () => {
    const recent = await firstTrade(page);
    const buy = fake.book.ordersOf(APP.userId).find((o) => o.transaction_type === 'BUY');
    expect(buy).toMatchObject({ status: 'COMPLETE', exchange: 'NFO' });
    expect(buy?.tag).toBeTruthy();
    // The stop rests at the broker from the moment the entry filled.
    expect(fake.book.ordersOf(APP.userId).some((o) => o.status === 'TRIGGER PENDING')).toBe(true);
    await expectPnl(recent);
  });

  await test.step('Kite logs everyone out overnight; the next morning the dashboard offers Reconnect', async () => {
    fake.expireSessions();
    const banner = await expectReconnectOffered(page, request, token);
    await expect(banner.getByRole('button', { name: 'Reconnect' })).toBeVisible();
  });
});
