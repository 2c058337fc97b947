// Live trading through Angel One end to end in Chromium (issue 17): the product runs with FEED=angelone against the
// Angel fake (test/fakes/angelone), the trader being the market-data account (a solo operator's own). The trader
// saves their SmartAPI key, logs in by the daily form — client code, MPIN and the TOTP their authenticator shows,
// typed into the dialog — and is Connected; sees live NIFTY from SmartStream; switches to Live after the risk
// disclosure; and the next signal places a protected LIMIT order at the fake whose fill shows on the dashboard with
// its P&L, its stop resting at Angel as a stop-limit.
import { currentExpiry } from '../fakes/angelone/currentExpiry';
import { startAngelFake, type AngelFake } from '../fakes/angelone/server';
import { totp } from '../fakes/angelone/totp';
import { newTrader, quickSignals } from './support/admin';
import { newPerson, openSignedIn, toast } from './support/app';
import { expect, test as base } from './support/fixtures';
import { expectLiveNifty, expectPnl, firstTrade, switchToLive } from './support/liveBroker';

// A fixed account: the product's configuration names the market-data account before it starts.
const TRADER = { ...newPerson('Lakshmi'), email: 'lakshmi.feed@example.com' };
const ACCOUNT = {
  apiKey: 'smartapp0e2e',
  clientCode: 'L7654321',
  mpin: '2580',
  totpSecret: 'NBSWY3DPO5XXE3DEEBRGKZLSNZSWQ33U',
  name: 'Lakshmi Menon',
};
const START_INDEX = 23_990;

interface AngelWorld {
  /** the Angel fake with a rising market on SmartStream; started before the product, which downloads its master */
  angel: AngelFake;
}

const test = base.extend<object, AngelWorld>({
  angel: [
    // eslint-disable-next-line no-empty-pattern -- a worker fixture that needs no other fixture
    async ({}, use) => {
      // The contracts the server trades today: the current weekly expiry on the exchange calendar.
      const fake = await startAngelFake({
        accounts: [ACCOUNT],
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
    async ({ angel }, use) => {
      await use({
        env: {
          E2E_FEED: 'angelone',
          E2E_FEED_ACCOUNT: TRADER.email,
          E2E_ANGELONE_API_ROOT: angel.url,
          E2E_ANGELONE_LOGIN_URL: `${angel.url}/publisher-login`,
          E2E_ANGELONE_WS_ROOT: angel.wsUrl,
          E2E_ANGELONE_MASTER_ROOT: angel.url,
        },
      });
    },
    { scope: 'worker' },
  ],
});

test('a trader logs in to Angel One by the daily form, goes Live, and a signal trades at the broker', async ({
  page,
  request,
  angel: fake,
}) => {
  test.setTimeout(240_000);

  // Set-up: quick signals (one bullish minute arms a CALL); a subscribed trader whose bot goes on once Live is chosen.
  await quickSignals(request);
  const { token } = await newTrader(request, TRADER.firstName, true, TRADER, false);

  await test.step('save the SmartAPI key, then log in with client code, MPIN and TOTP', async () => {
    await openSignedIn(page, token, '/dashboard');
    await page.getByRole('combobox', { name: 'Broker' }).click();
    await page.getByRole('option', { name: /Angel One/ }).click();
    // The card says what to set up at Angel before anything is saved.
    await expect(page.getByText(/Enable TOTP/)).toBeVisible();
    await page.getByLabel('API Key').fill(ACCOUNT.apiKey);
    await page.getByLabel('API Secret').fill('smart-secret-e2e');
    await page.getByRole('button', { name: 'Save API Key' }).click();
    await expect(page.getByLabel('Broker session', { exact: true })).toHaveText('Not connected');
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Log in to Angel One' });
    await dialog.getByLabel('Client code').fill(ACCOUNT.clientCode);
    await dialog.getByLabel('MPIN').fill(ACCOUNT.mpin);
    await dialog.getByLabel('TOTP').fill(totp(ACCOUNT.totpSecret));
    await dialog.getByRole('button', { name: 'Log in' }).click();
    await expect(toast(page, 'Broker Connected')).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(page.getByLabel('Broker session', { exact: true })).toHaveText('Connected');
    await expect(page.getByText(ACCOUNT.name)).toBeVisible();
    // A form login never leaves the page: the Trading Mode card must follow without a reload.
    await expect(page.getByRole('button', { name: 'Switch to Live' })).toBeEnabled();
  });

  await test.step('live NIFTY from SmartStream, not simulated', async () => {
    await expectLiveNifty(page);
  });

  await test.step('switch to Live after the risk disclosure', async () => {
    await switchToLive(page, request, token);
  });

  await test.step('the next signal is a protected LIMIT order at Angel; its fill shows with its P&L', async () => {
    const recent = await firstTrade(page);
    const orders = fake.book.ordersOf(ACCOUNT.clientCode);
    const buy = orders.find((o) => o.transactiontype === 'BUY');
    expect(buy).toMatchObject({ status: 'complete', exchange: 'NFO', ordertype: 'LIMIT', variety: 'NORMAL' });
    expect(buy?.ordertag).toBeTruthy();
    // The stop rests at Angel as a stop-limit from the moment the entry filled.
    expect(orders.some((o) => o.ordertype === 'STOPLOSS_LIMIT' && o.status === 'trigger pending')).toBe(true);
    await expectPnl(recent);
  });
});
