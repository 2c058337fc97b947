// `npm run demo:dhan`: the product on a live Dhan feed without a Dhan account. Starts the Dhan fake (consent login,
// orders, scrip master, order update socket and the binary market feed with a random-walk NIFTY) on 127.0.0.1 and
// `npm start` with FEED=dhan pointed at it, and prints what to type: the API key (client id and key) and secret for
// the consent login, or a client id and a freshly generated 24-hour access token to paste. Sign up with the printed
// e-mail (the market-data account), save the key under Dhan, then paste the token (or press "Log in at Dhan"): the
// dashboard shows the fake's live NIFTY. Orders placed in Live mode go to the fake and fill at once.
//   PORT (3000) is the product's port, DHAN_FAKE_PORT (3932) the fake's; Ctrl-C stops both.
import { currentExpiry } from '../kite/currentExpiry';
import { demoFakePort, demoPort, demoPremium, runDemo, startDemoWalk } from '../demo';
import { startDhanFake } from './server';

const account = {
  clientId: '1000000099',
  name: 'Demo Trader',
  appId: 'demodhanapp01',
  appSecret: 'demo-dhan-secret',
  redirectUrl: `http://127.0.0.1:${demoPort}/broker/dhan/callback`,
};

const fake = await startDhanFake({
  port: demoFakePort('DHAN_FAKE_PORT', 3932),
  expiry: currentExpiry(),
  accounts: [account],
  autoFillPrice: 100,
});

runDemo({
  broker: 'Dhan',
  feed: 'dhan',
  fakeUrl: fake.url,
  env: {
    DHAN_API_ROOT: fake.url,
    DHAN_LOGIN_URL: fake.endpoints.loginUrl,
    DHAN_WS_ROOT: fake.endpoints.wsRoot,
    DHAN_MASTER_ROOT: fake.url,
  },
  steps: [
    `2. Broker Connection: Dhan, API key ${account.clientId}:${account.appId}, secret ${account.appSecret}; Save.`,
    `3. Connect: client ID ${account.clientId} and access token`,
    `   ${fake.issueToken(account.clientId)}`,
    '   (valid 24 h), or "Log in at Dhan" for the consent flow.',
    '4. The dashboard shows the Dhan feed’s NIFTY; Switch to Live sends orders to the fake.',
  ],
  stop: startDemoWalk((index) => {
    const quotes: Record<string, number> = {};
    for (const i of fake.instruments) quotes[i.securityId] = demoPremium(index, i.strike, i.optionType);
    fake.sockets.push({ index, quotes });
  }),
  closeFake: () => fake.close(),
});
