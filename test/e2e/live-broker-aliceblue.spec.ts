// Live trading through Alice Blue end to end in Chromium (issue 22): the product runs with FEED=aliceblue against
// the Alice Blue fake (test/fakes/aliceblue), the trader being the market-data account (a solo operator's own). The
// trader saves their ANT app code and API secret, connects through the fake's vendor login — whose redirect carries
// only `authCode` and `userId`, no `state` — sees live NIFTY from the NOREN socket, switches to Live after the risk
// disclosure, and the next signal places a protected LIMIT order at the fake whose fill (pushed on the socket)
// shows on the dashboard with its P&L, its stop resting at ANT as a stop-limit. Then ANT ends the session, and the
// next morning the dashboard's Reconnect logs in again through the same state-less redirect.
import { currentExpiry } from '../fakes/angelone/currentExpiry';
import { startAliceFake, type AliceFake } from '../fakes/aliceblue/server';
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
const TRADER = { ...newPerson('Anitha'), email: 'anitha.alice.feed@example.com' };
const ACCOUNT = { userId: 'AE2E01', appCode: 'antappe2e', apiSecret: 'ant-secret-e2e', name: 'Anitha Raman' };
const START_INDEX = 23_990;

interface AliceWorld {
  /** the Alice Blue fake with a rising market on its socket; started before the product, which downloads its master */
  alice: AliceFake;
}

const test = base.extend<object, AliceWorld>({
  alice: [
    // eslint-disable-next-line no-empty-pattern -- a worker fixture that needs no other fixture
    async ({}, use) => {
      // The contracts the server trades today: the current weekly expiry on the exchange calendar.
      const fake = await startAliceFake({ expiry: currentExpiry(), baseStrike: 24_000, autoFillPrice: 100 });
      // A steadily rising market, one tick a second: every one-minute candle is bullish, so a CALL arms at each
      // close and executes on the next tick above its trigger. Calls gain half a point per index point.
      let index = START_INDEX;
      const ticker = setInterval(() => {
        index += 1.5;
        const move = (index - START_INDEX) / 2;
        const quotes: Record<string, number> = {};
        for (const i of fake.instruments) {
          const premium = 100 + (i.optionType === 'CE' ? move : -move);
          quotes[i.token] = Math.max(0.05, Math.round(premium * 20) / 20);
        }
        fake.sockets.push({ index, quotes });
      }, 1_000);
      await use(fake);
      clearInterval(ticker);
      await fake.close();
    },
    { scope: 'worker' },
  ],
  // The product depends on the fake, so the fake is listening before the product starts.
  isolatedProduct: [
    async ({ alice }, use) => {
      await use({
        env: {
          E2E_FEED: 'aliceblue',
          E2E_FEED_ACCOUNT: TRADER.email,
          E2E_ALICEBLUE_API_ROOT: alice.url,
          E2E_ALICEBLUE_LOGIN_URL: `${alice.url}/`,
          E2E_ALICEBLUE_WS_ROOT: alice.endpoints.wsRoot,
          E2E_ALICEBLUE_MASTER_ROOT: alice.url,
        },
      });
    },
    { scope: 'worker' },
  ],
});

test('a trader connects Alice Blue by its redirect login, goes Live, a signal trades at the broker, and after the session ends Reconnect logs in again', async ({
  page,
  request,
  baseURL,
  alice: fake,
}) => {
  test.setTimeout(240_000);
  fake.addAccount({ ...ACCOUNT, redirectUrl: `${baseURL}/broker/aliceblue/callback` });

  // Set-up: quick signals (one bullish minute arms a CALL); a subscribed trader whose bot goes on once Live is chosen.
  await quickSignals(request);
  const { token } = await newTrader(request, TRADER.firstName, true, TRADER, false);

  await test.step('save the ANT app and connect through the vendor login redirect (no state comes back)', async () => {
    await openSignedIn(page, token, '/dashboard');
    await page.getByRole('combobox', { name: 'Broker' }).click();
    await page.getByRole('option', { name: /Alice Blue/ }).click();
    await page.getByLabel('API Key').fill(ACCOUNT.appCode);
    await page.getByLabel('API Secret').fill(ACCOUNT.apiSecret);
    await page.getByRole('button', { name: 'Save API Key' }).click();
    await expect(page.getByLabel('Broker session', { exact: true })).toHaveText('Not connected');
    // Connect leaves for ANT's login (the fake's), which sends the browser back to the callback page.
    const back = page.waitForURL(/\/broker\/aliceblue\/callback\?authCode=\w+&userId=AE2E01$/);
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await back;
    await expect(toast(page, 'Broker Connected')).toBeVisible();
    await page.waitForURL(/\/dashboard$/);
    await expect(page.getByLabel('Broker session', { exact: true })).toHaveText('Connected');
    await expect(page.getByText(ACCOUNT.name)).toBeVisible();
  });

  await test.step('live NIFTY from the NOREN socket, not simulated', async () => {
    await expectLiveNifty(page);
  });

  await test.step('switch to Live after the risk disclosure', async () => {
    await switchToLive(page, request, token);
  });

  await test.step('the next signal is a protected LIMIT order at ANT; its fill shows with its P&L', async () => {
    const recent = await firstTrade(page);
    const orders = fake.book.ordersOf(ACCOUNT.userId);
    const buy = orders.find((o) => o.Trantype === 'BUY');
    expect(buy).toMatchObject({ Status: 'complete', Prctype: 'L', Pcode: 'MIS' });
    expect(buy?.remarks).toMatch(/^[A-Za-z0-9]{17,20}$/);
    // The stop rests at ANT as a stop-limit from the moment the entry filled.
    expect(
      orders.some((o) => o.Trantype === 'SELL' && o.Prctype === 'SL' && o.Status === 'trigger pending'),
    ).toBe(true);
    await expectPnl(recent);
  });

  await test.step('ANT ends the session: the card says so and the dashboard offers Reconnect', async () => {
    fake.expireSessions();
    const banner = await expectReconnectOffered(page, request, token);
    // Reconnect goes through ANT's login again; its state-less redirect completes this new click.
    const back = page.waitForURL(/\/broker\/aliceblue\/callback\?/);
    await banner.getByRole('button', { name: 'Reconnect' }).click();
    await back;
    await expect(toast(page, 'Broker Connected')).toBeVisible();
    await page.waitForURL(/\/dashboard$/);
    await expect(page.getByLabel('Broker session', { exact: true })).toHaveText('Connected');
  });
});
