// Live trading through Groww end to end in Chromium (issue 22): the product runs with FEED=groww against the Groww
// fake (test/fakes/groww), the trader being the market-data account (a solo operator's own). The trader saves their
// Groww API key and secret, reads on the card that the key must be approved in Groww each day, connects by the
// approval flow (the dialog's TOTP left empty: the server signs with the saved secret) and is Connected; sees live
// NIFTY from Groww's last-price call; switches to Live after the risk disclosure; and the next signal places a
// protected LIMIT order at the fake whose fill shows on the dashboard with its P&L, its stop resting at Groww as SL.
import { currentExpiry } from '../fakes/angelone/currentExpiry';
import { startGrowwFake, type GrowwFake } from '../fakes/groww/server';
import { newTrader, quickSignals } from './support/admin';
import { newPerson, openSignedIn, toast } from './support/app';
import { expect, test as base } from './support/fixtures';
import { expectLiveNifty, expectPnl, firstTrade, switchToLive } from './support/liveBroker';

// A fixed account: the product's configuration names the market-data account before it starts.
const TRADER = { ...newPerson('Farhan'), email: 'farhan.feed@example.com' };
const ACCOUNT = {
  apiKey: 'eyJraWQiOiJlMmVncm93dyJ9',
  apiSecret: 'groww-secret-e2e',
  totpSecret: 'NBSWY3DPO5XXE3DEEBRGKZLSNZSWQ33U',
  ucc: '480213',
};
const START_INDEX = 23_990;

interface GrowwWorld {
  /** the Groww fake with a rising market; started before the product, which downloads its master */
  groww: GrowwFake;
}

const test = base.extend<object, GrowwWorld>({
  groww: [
    // eslint-disable-next-line no-empty-pattern -- a worker fixture that needs no other fixture
    async ({}, use) => {
      const fake = await startGrowwFake({
        accounts: [ACCOUNT],
        expiry: currentExpiry(),
        baseStrike: 24_000,
        autoFillPrice: 100,
      });
      // A steadily rising market, one step a second: every one-minute candle is bullish, so a CALL arms at each
      // close and executes above its trigger. Calls gain half a point per index point.
      let index = START_INDEX;
      const ticker = setInterval(() => {
        index += 1.5;
        const move = (index - START_INDEX) / 2;
        fake.ltp = { index, option: 100 };
        for (const i of fake.instruments) {
          const premium = 100 + (i.optionType === 'CE' ? move : -move);
          fake.optionPrices.set(i.tradingSymbol, Math.max(0.05, Math.round(premium * 20) / 20));
        }
      }, 1_000);
      await use(fake);
      clearInterval(ticker);
      await fake.close();
    },
    { scope: 'worker' },
  ],
  isolatedProduct: [
    async ({ groww }, use) => {
      await use({
        env: {
          E2E_FEED: 'groww',
          E2E_FEED_ACCOUNT: TRADER.email,
          E2E_GROWW_API_ROOT: groww.url,
          E2E_GROWW_LOGIN_URL: groww.endpoints.loginUrl,
          E2E_GROWW_WS_ROOT: groww.endpoints.wsRoot,
          E2E_GROWW_MASTER_ROOT: groww.url,
        },
      });
    },
    { scope: 'worker' },
  ],
});

test('a trader connects Groww by the approval flow, goes Live, and a signal trades at the broker', async ({
  page,
  request,
  groww: fake,
}) => {
  test.setTimeout(240_000);

  // Set-up: quick signals (one bullish minute arms a CALL); a subscribed trader whose bot goes on once Live is chosen.
  await quickSignals(request);
  const { token } = await newTrader(request, TRADER.firstName, true, TRADER, false);

  await test.step('save the API key and secret, then connect with the TOTP left empty (key approved in Groww)', async () => {
    await openSignedIn(page, token, '/dashboard');
    await page.getByRole('combobox', { name: 'Broker' }).click();
    await page.getByRole('option', { name: /Groww/ }).click();
    // The card says what to set up at Groww before anything is saved.
    await expect(page.getByText(/approve the key/)).toBeVisible();
    await page.getByLabel('API Key').fill(ACCOUNT.apiKey);
    await page.getByLabel('API Secret').fill(ACCOUNT.apiSecret);
    await page.getByRole('button', { name: 'Save API Key' }).click();
    await expect(page.getByLabel('Broker session', { exact: true })).toHaveText('Not connected');
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Log in to Groww' });
    await expect(dialog.getByLabel(/TOTP/)).toHaveValue('');
    await dialog.getByRole('button', { name: 'Log in' }).click();
    await expect(toast(page, 'Broker Connected')).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(page.getByLabel('Broker session', { exact: true })).toHaveText('Connected');
    await expect(page.getByText(`Groww ${ACCOUNT.ucc}`)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Switch to Live' })).toBeEnabled();
  });

  await test.step('live NIFTY from Groww, not simulated', async () => {
    await expectLiveNifty(page);
  });

  await test.step('switch to Live after the risk disclosure', async () => {
    await switchToLive(page, request, token);
  });

  await test.step('the next signal is a protected LIMIT order at Groww; its fill shows with its P&L', async () => {
    const recent = await firstTrade(page);
    const orders = fake.book.of(ACCOUNT.ucc);
    const buy = orders.find((o) => o.transaction_type === 'BUY');
    expect(buy).toMatchObject({ order_status: 'EXECUTED', order_type: 'LIMIT', product: 'MIS' });
    expect(buy?.order_reference_id).toBeTruthy();
    await expect
      .poll(() =>
        fake.book.of(ACCOUNT.ucc).some((o) => o.order_type === 'SL' && o.order_status === 'TRIGGER_PENDING'),
      )
      .toBe(true);
    await expectPnl(recent);
  });
});
