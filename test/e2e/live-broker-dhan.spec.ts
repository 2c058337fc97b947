// Live trading through Dhan end to end in Chromium (issue 22): the product runs with FEED=dhan against the Dhan fake
// (test/fakes/dhan), the first trader being the market-data account. Per login kind: the trader pastes the 24-hour
// access token generated on Dhan's web with their client id and is Connected, sees live NIFTY from Dhan's binary
// feed, switches to Live and the next signal places a protected LIMIT order by security id at the fake, its stop
// resting as a STOP_LOSS; a second trader connects through Dhan's consent login ("Log in at Dhan instead"
// → Dhan's page → back to the callback with only a tokenId) and is Connected.
import { currentExpiry } from '../fakes/kite/currentExpiry';
import { startDhanFake, type DhanFake, type DhanFakeAccount } from '../fakes/dhan/server';
import { newTrader, quickSignals } from './support/admin';
import { newPerson, openSignedIn, toast } from './support/app';
import { expect, test as base } from './support/fixtures';
import { expectLiveNifty, expectPnl, firstTrade, switchToLive } from './support/liveBroker';
import { startRisingMarket } from './support/market';

// A fixed account: the product's configuration names the market-data account before it starts.
const TRADER = { ...newPerson('Lakshmi'), email: 'lakshmi.dhanfeed@example.com' };
const ACCOUNT: DhanFakeAccount = {
  clientId: '1100220033',
  name: 'Lakshmi Menon',
  appId: 'dhanappe2e',
  appSecret: 'dhan-secret-e2e',
};
const CONSENT: DhanFakeAccount = {
  clientId: '1100440055',
  name: 'Farhan Ali',
  appId: 'dhanappe2f',
  appSecret: 'dhan-secret-e2f',
};
const START_INDEX = 23_990;

const test = base.extend<object, { dhan: DhanFake }>({
  dhan: [
    // eslint-disable-next-line no-empty-pattern -- a worker fixture that needs no other fixture
    async ({}, use) => {
      const fake = await startDhanFake({
        accounts: [ACCOUNT],
        expiry: currentExpiry(),
        baseStrike: 24_000,
        autoFillPrice: 100,
      });
      const stop = startRisingMarket(
        fake.instruments,
        (i) => i.securityId,
        (prices) => fake.sockets.push(prices),
        START_INDEX,
      );
      await use(fake);
      stop();
      await fake.close();
    },
    { scope: 'worker' },
  ],
  isolatedProduct: [
    async ({ dhan }, use) => {
      await use({
        env: {
          E2E_FEED: 'dhan',
          E2E_FEED_ACCOUNT: TRADER.email,
          E2E_DHAN_API_ROOT: dhan.url,
          E2E_DHAN_LOGIN_URL: dhan.endpoints.loginUrl,
          E2E_DHAN_WS_ROOT: dhan.endpoints.wsRoot,
          E2E_DHAN_MASTER_ROOT: dhan.url,
        },
      });
    },
    { scope: 'worker' },
  ],
});

async function saveDhanKey(page: import('@playwright/test').Page, account: DhanFakeAccount): Promise<void> {
  await page.getByRole('combobox', { name: 'Broker' }).click();
  await page.getByRole('option', { name: /Dhan/ }).click();
  // The card says what to set up at Dhan (the static IP) before anything is saved.
  await expect(page.getByText(/Static IP/)).toBeVisible();
  await page.getByLabel('API Key').fill(`${account.clientId}:${account.appId}`);
  await page.getByLabel('API Secret').fill(account.appSecret);
  await page.getByRole('button', { name: 'Save API Key' }).click();
  await expect(page.getByLabel('Broker session', { exact: true })).toHaveText('Not connected');
}

test('a trader pastes a Dhan access token, goes Live, and a signal trades at the broker', async ({
  page,
  request,
  dhan: fake,
}) => {
  test.setTimeout(240_000);

  // Set-up: quick signals (one bullish minute arms a CALL); a subscribed trader whose bot goes on once Live is chosen.
  await quickSignals(request);
  const { token } = await newTrader(request, TRADER.firstName, true, TRADER, false);

  await test.step('save the Dhan key, then paste the client id and the access token', async () => {
    await openSignedIn(page, token, '/dashboard');
    await saveDhanKey(page, ACCOUNT);
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Log in to Dhan' });
    await dialog.getByLabel('Dhan client ID').fill(ACCOUNT.clientId);
    await dialog.getByLabel('Access token').fill(fake.issueToken(ACCOUNT.clientId));
    await dialog.getByRole('button', { name: 'Log in' }).click();
    await expect(toast(page, 'Broker Connected')).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(page.getByLabel('Broker session', { exact: true })).toHaveText('Connected');
    await expect(page.getByRole('button', { name: 'Switch to Live' })).toBeEnabled();
  });

  await test.step("live NIFTY from Dhan's feed, not simulated", async () => {
    await expectLiveNifty(page);
  });

  await test.step('switch to Live after the risk disclosure', async () => {
    await switchToLive(page, request, token);
  });

  await test.step('the next signal is a protected LIMIT order at Dhan; its fill shows with its P&L', async () => {
    const recent = await firstTrade(page);
    const orders = fake.book.ordersOf(ACCOUNT.clientId);
    const buy = orders.find((o) => o.transactionType === 'BUY');
    expect(buy).toMatchObject({ orderStatus: 'TRADED', exchangeSegment: 'NSE_FNO', orderType: 'LIMIT' });
    expect(buy?.correlationId).toBeTruthy();
    expect(orders.some((o) => o.orderType === 'STOP_LOSS' && o.orderStatus === 'PENDING')).toBe(true);
    await expectPnl(recent);
  });
});

test("a trader connects through Dhan's consent login and comes back Connected", async ({
  page,
  request,
  dhan: fake,
}) => {
  const { token } = await newTrader(request, 'Farhan', true);
  await openSignedIn(page, token, '/dashboard');
  // The app's redirect URL at Dhan is this product's callback.
  fake.addAccount({ ...CONSENT, redirectUrl: new URL('/broker/dhan/callback', page.url()).toString() });
  await saveDhanKey(page, CONSENT);
  await page.getByRole('button', { name: 'Log in at Dhan instead' }).click();
  await expect(toast(page, 'Broker Connected')).toBeVisible({ timeout: 20_000 });
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByLabel('Broker session', { exact: true })).toHaveText('Connected');
  await expect(page.getByText(CONSENT.name)).toBeVisible();
});
