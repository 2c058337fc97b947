// `npm run demo:fyers`: the product on a live Fyers feed without a Fyers account. Starts the Fyers fake (login,
// orders, the NSE_FO master, the order socket and the data socket with a random-walk NIFTY) on 127.0.0.1 and
// `npm start` with FEED=fyers pointed at it, and prints the app id and secret to enter on the dashboard. Sign up
// with the printed e-mail (the market-data account), save the app id and secret under Fyers, press Connect: the
// fake's login sends you straight back, and the dashboard shows the fake's live NIFTY. Orders placed in Live mode
// go to the fake and fill at once.
//   PORT (3000) is the product's port, FYERS_FAKE_PORT (3936) the fake's; Ctrl-C stops both.
import { demoFakePort, demoPort, runDemo } from '../demo';
import { currentExpiry } from '../kite/currentExpiry';
import { startFyersMarketWalk } from './marketWalk';
import { startFyersFake } from './server';

const app = {
  appId: 'DEMOFY1-100',
  secret: 'demofyerssecret01',
  fyId: 'XD1234',
  name: 'Demo Trader',
  redirectUrl: `http://127.0.0.1:${demoPort}/broker/fyers/callback`,
};

const fake = await startFyersFake({
  port: demoFakePort('FYERS_FAKE_PORT', 3936),
  expiry: currentExpiry(),
  apps: [app],
  autoFillPrice: 100,
});

runDemo({
  broker: 'Fyers',
  feed: 'fyers',
  fakeUrl: fake.url,
  env: {
    FYERS_API_ROOT: fake.url,
    FYERS_LOGIN_URL: `${fake.url}/api/v3/generate-authcode`,
    FYERS_WS_ROOT: fake.wsUrl,
    FYERS_MASTER_ROOT: fake.url,
  },
  steps: [
    `2. Broker Connection: Fyers, App ID ${app.appId}, Secret ID ${app.secret}; Save, then Connect.`,
    '3. The dashboard shows the fake data socket’s NIFTY; Switch to Live sends orders to the fake.',
  ],
  stop: startFyersMarketWalk(fake),
  closeFake: () => fake.close(),
});
