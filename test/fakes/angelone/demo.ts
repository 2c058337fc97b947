// `npm run demo:angelone`: the product on a live Angel One feed without an Angel One account. Starts the Angel fake
// (logins, orders, scrip master, order-status socket and SmartStream with a random-walk NIFTY) on 127.0.0.1 and
// `npm start` with FEED=angelone pointed at it, and prints what to type: the API key, the client code, the MPIN,
// and the TOTP, which changes every 30 seconds (printed here each time it changes, as an authenticator app shows
// it). Sign up with the printed e-mail (the market-data account), save the key under Angel One, press Connect and
// type the client code, MPIN and the current TOTP: the dashboard shows the fake's live NIFTY. Orders placed in Live
// mode go to the fake and fill at once.
//   PORT (3000) is the product's port, ANGELONE_FAKE_PORT (3928) the fake's; Ctrl-C stops both.
import { demoFakePort, demoPort, demoPremium, runDemo, showTotpEvery30s, startDemoWalk } from '../demo';
import { currentExpiry } from './currentExpiry';
import { startAngelFake } from './server';
import { totp } from './totp';

const account = {
  apiKey: 'demosmartkey01',
  clientCode: 'D123456',
  mpin: '1234',
  totpSecret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
  name: 'Demo Trader',
  redirectUrl: `http://127.0.0.1:${demoPort}/broker/angelone/callback`,
};

const fake = await startAngelFake({
  port: demoFakePort('ANGELONE_FAKE_PORT', 3928),
  expiry: currentExpiry(),
  accounts: [account],
  autoFillPrice: 100,
});

const stopWalk = startDemoWalk((index) => {
  const quotes: Record<string, number> = {};
  for (const i of fake.instruments) quotes[i.token] = demoPremium(index, i.strike, i.optionType);
  fake.sockets.push({ index, quotes });
});
runDemo({
  broker: 'Angel One',
  feed: 'angelone',
  fakeUrl: fake.url,
  env: {
    ANGELONE_API_ROOT: fake.url,
    ANGELONE_LOGIN_URL: `${fake.url}/publisher-login`,
    ANGELONE_WS_ROOT: fake.wsUrl,
    ANGELONE_MASTER_ROOT: fake.url,
  },
  steps: [
    `2. Broker Connection: Angel One, API key ${account.apiKey}, any secret key; Save API Key.`,
    `3. Connect, then type client code ${account.clientCode}, MPIN ${account.mpin} and the TOTP printed below`,
    `   (or add the secret ${account.totpSecret} to an authenticator app). "Log in at Angel One instead" works too.`,
    '4. The dashboard shows SmartStream’s NIFTY; Switch to Live sends orders to the fake.',
  ],
  stop: () => {
    stopWalk();
    stopTotp();
  },
  closeFake: () => fake.close(),
});
// The TOTP under the steps, as an authenticator app shows it (runDemo's stop ends it on Ctrl-C).
const stopTotp = showTotpEvery30s('Angel One', () => totp(account.totpSecret));
