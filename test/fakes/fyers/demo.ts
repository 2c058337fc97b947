// `npm run demo:fyers`: the product on a live Fyers feed without a Fyers account. Starts the Fyers fake (login,
// orders, the NSE_FO master, the order socket and the data socket with a random-walk NIFTY) on 127.0.0.1 and
// `npm start` with FEED=fyers pointed at it, and prints the app id and secret to enter on the dashboard. Sign up
// with the printed e-mail (the market-data account), save the app id and secret under Fyers, press Connect: the
// fake's login sends you straight back, and the dashboard shows the fake's live NIFTY. Orders placed in Live mode
// go to the fake and fill at once.
//   PORT (3000) is the product's port, FYERS_FAKE_PORT (3936) the fake's; Ctrl-C stops both.
import { spawn } from 'node:child_process';
import { currentExpiry } from '../kite/currentExpiry';
import { startFyersMarketWalk } from './marketWalk';
import { startFyersFake } from './server';

const port = Number(process.env.PORT ?? 3000);
const fakePort = Number(process.env.FYERS_FAKE_PORT ?? 3936);
const email = process.env.FEED_ACCOUNT ?? 'feed@example.com';
const app = {
  appId: 'DEMOFY1-100',
  secret: 'demofyerssecret01',
  fyId: 'XD1234',
  name: 'Demo Trader',
  redirectUrl: `http://127.0.0.1:${port}/broker/fyers/callback`,
};

const fake = await startFyersFake({
  port: fakePort,
  expiry: currentExpiry(),
  apps: [app],
  autoFillPrice: 100,
});
const stopWalk = startFyersMarketWalk(fake);
const product = spawn(process.execPath, ['scripts/start.mjs'], {
  stdio: 'inherit',
  env: {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    FEED: 'fyers',
    FEED_ACCOUNT: email,
    FYERS_API_ROOT: fake.url,
    FYERS_LOGIN_URL: `${fake.url}/api/v3/generate-authcode`,
    FYERS_WS_ROOT: fake.wsUrl,
    FYERS_MASTER_ROOT: fake.url,
  },
});

process.stdout.write(
  [
    '',
    `Fyers fake on ${fake.url}; OptionPilot on http://127.0.0.1:${port} with FEED=fyers.`,
    `1. Sign up as ${email} (the market-data account) and subscribe in test mode.`,
    `2. Broker Connection: Fyers, App ID ${app.appId}, Secret ID ${app.secret}; Save, then Connect.`,
    '3. The dashboard shows the fake data socket’s NIFTY; Switch to Live sends orders to the fake.',
    '',
  ].join('\n'),
);

const shutdown = (): void => {
  stopWalk();
  product.kill('SIGTERM');
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
product.on('exit', (code) => {
  void fake.close().then(() => process.exit(code ?? 0));
});
