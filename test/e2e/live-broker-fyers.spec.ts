// Live trading through Fyers end to end in Chromium (issue 17): the product runs with FEED=fyers against the Fyers
// fake (test/fakes/fyers), the trader being the market-data account (a solo operator's own). The trader saves their
// Fyers app's id and secret, connects through the fake's generate-authcode redirect, sees live NIFTY from the Fyers
// data socket, switches to Live after the risk disclosure, and the next signal places a real adapter order at the
// fake whose fill (pushed on the order socket) shows on the dashboard with its P&L. Then Fyers' 06:00 IST logout
// ends the session, and the next morning (the browser's clock moved to 08:45 IST) the dashboard offers Reconnect.
import { currentExpiry } from '../fakes/kite/currentExpiry';
import { startFyersFake, type FyersFake } from '../fakes/fyers/server';
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

  // Set-up: quick signals (one bullish minute arms a CALL); a subscribed trader whose bot goes on once Live is chosen.
  await quickSignals(request);
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
    await expectLiveNifty(page);
  });

  await test.step('switch to Live after the risk disclosure', async () => {
    await switchToLive(page, request, token);
  });

  await test.step('the next signal is a real order at the broker; its fill shows with its P&L', async () => {
    const recent = await firstTrade(page);
    const buy = fake.book.ordersOf(APP.fyId).find((o) => o.side === 1);
    // A protected LIMIT (type 1), traded (status 2), carrying the algo tag and the client order id.
    expect(buy).toMatchObject({ status: 2, type: 1, productType: 'INTRADAY' });
    expect(buy?.orderTag).toMatch(/^[A-Za-z0-9]{17,30}$/);
    // The stop rests at the broker as a stop-limit (SL-L, type 4, pending) from the moment the entry filled.
    expect(fake.book.ordersOf(APP.fyId).some((o) => o.side === -1 && o.type === 4 && o.status === 6)).toBe(
      true,
    );
    await expectPnl(recent);
  });

  await test.step('Fyers logs everyone out at 06:00 IST; the next morning the dashboard offers Reconnect', async () => {
    fake.expireSessions();
    const banner = await expectReconnectOffered(page, request, token);
    await expect(banner.getByRole('button', { name: 'Reconnect' })).toBeVisible();
  });
});
