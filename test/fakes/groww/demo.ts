// `npm run demo:groww`: the product on a Groww feed without a Groww account. Starts the Groww fake (token call,
// orders, instrument CSV, last prices with a random-walk NIFTY) on 127.0.0.1 and `npm start` with FEED=groww pointed
// at it, and prints what to type: the API key and secret, and the TOTP, which changes every 30 seconds (printed here
// each time it changes, as an authenticator app shows it). Sign up with the printed e-mail (the market-data
// account), save the key and secret under Groww, press Connect and type the current TOTP — or leave it empty (the
// approval flow: the fake's key counts as approved). The dashboard shows the fake's NIFTY; orders placed in Live
// mode go to the fake and fill at once.
//   PORT (3000) is the product's port, GROWW_FAKE_PORT (3932) the fake's; Ctrl-C stops both.
import { currentExpiry } from '../angelone/currentExpiry';
import { totp } from '../angelone/totp';
import { demoFakePort, demoPremium, runDemo, showTotpEvery30s, startDemoWalk } from '../demo';
import { startGrowwFake } from './server';

const account = {
  apiKey: 'eyJraWQiOiJkZW1vZ3Jvd3drZXkifQ',
  apiSecret: 'demogrowwsecret',
  totpSecret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
  ucc: '100200',
};

const fake = await startGrowwFake({
  port: demoFakePort('GROWW_FAKE_PORT', 3932),
  expiry: currentExpiry(),
  accounts: [account],
  autoFillPrice: 100,
});

const stopWalk = startDemoWalk((index) => {
  fake.ltp = { index, option: 80 };
  for (const i of fake.instruments) {
    fake.optionPrices.set(i.tradingSymbol, demoPremium(index, i.strike, i.optionType));
  }
});
runDemo({
  broker: 'Groww',
  feed: 'groww',
  fakeUrl: fake.url,
  env: {
    GROWW_API_ROOT: fake.url,
    GROWW_LOGIN_URL: fake.endpoints.loginUrl,
    GROWW_WS_ROOT: fake.endpoints.wsRoot,
    GROWW_MASTER_ROOT: fake.url,
  },
  steps: [
    `2. Broker Connection: Groww, API key ${account.apiKey}, API secret ${account.apiSecret}; Save API Key.`,
    '3. Connect, then type the TOTP printed below (or leave it empty: the approval flow),',
    `   or add the secret ${account.totpSecret} to an authenticator app.`,
    '4. The dashboard shows the NIFTY of Groww’s last-price call; Switch to Live sends orders to the fake.',
  ],
  stop: () => {
    stopWalk();
    stopTotp();
  },
  closeFake: () => fake.close(),
});
// The TOTP under the steps, as an authenticator app shows it (runDemo's stop ends it on Ctrl-C).
const stopTotp = showTotpEvery30s('Groww', () => totp(account.totpSecret));
