// `npm run demo:kite`: the product on a live broker feed without a Zerodha account. Starts the Kite fake (login,
// orders, instruments, the Kite Ticker with a random-walk NIFTY) on 127.0.0.1 and `npm start` with FEED=kite
// pointed at it, and prints the API key and secret to enter on the dashboard. Sign up with the printed e-mail (the
// market-data account), save the key and secret under Zerodha, press Connect: the fake's login sends you straight
// back, and the dashboard shows the fake's live NIFTY. Orders placed in Live mode go to the fake and fill at once.
//   PORT (3000) is the product's port, KITE_FAKE_PORT (3926) the fake's; Ctrl-C stops both.
import { demoFakePort, demoPort, runDemo } from '../demo';
import { currentExpiry } from './currentExpiry';
import { startMarketWalk } from './marketWalk';
import { startKiteFake } from './server';

const app = {
  apiKey: 'demokitekey01',
  apiSecret: 'demokitesecret01',
  userId: 'DM1234',
  userName: 'Demo Trader',
  redirectUrl: `http://127.0.0.1:${demoPort}/broker/zerodha/callback`,
};

const fake = await startKiteFake({
  port: demoFakePort('KITE_FAKE_PORT', 3926),
  expiry: currentExpiry(),
  apps: [app],
  autoFillPrice: 100,
});

runDemo({
  broker: 'Kite',
  feed: 'kite',
  fakeUrl: fake.url,
  env: {
    KITE_API_ROOT: fake.url,
    KITE_LOGIN_URL: `${fake.url}/connect/login`,
    KITE_WS_ROOT: fake.wsUrl,
  },
  steps: [
    `2. Broker Connection: Zerodha, API key ${app.apiKey}, API secret ${app.apiSecret}; Save, then Connect.`,
    '3. The dashboard shows the fake Kite Ticker’s NIFTY; Switch to Live sends orders to the fake.',
  ],
  stop: startMarketWalk(fake),
  closeFake: () => fake.close(),
});
