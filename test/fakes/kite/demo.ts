// `npm run demo:kite`: the product on a live broker feed without a Zerodha account. Starts the Kite fake (login,
// orders, instruments, the Kite Ticker with a random-walk NIFTY) on 127.0.0.1 and `npm start` with FEED=kite
// pointed at it, and prints the API key and secret to enter on the dashboard. Sign up with the printed e-mail (the
// market-data account), save the key and secret under Zerodha, press Connect: the fake's login sends you straight
// back, and the dashboard shows the fake's live NIFTY. Orders placed in Live mode go to the fake and fill at once.
//   PORT (3000) is the product's port, KITE_FAKE_PORT (3926) the fake's; Ctrl-C stops both.
import { spawn } from 'node:child_process';
import { currentExpiry } from './currentExpiry';
import { startMarketWalk } from './marketWalk';
import { startKiteFake } from './server';

const port = Number(process.env.PORT ?? 3000);
const fakePort = Number(process.env.KITE_FAKE_PORT ?? 3926);
const email = process.env.FEED_ACCOUNT ?? 'feed@example.com';
const app = {
  apiKey: 'demokitekey01',
  apiSecret: 'demokitesecret01',
  userId: 'DM1234',
  userName: 'Demo Trader',
  redirectUrl: `http://127.0.0.1:${port}/broker/zerodha/callback`,
};

const fake = await startKiteFake({
  port: fakePort,
  expiry: currentExpiry(),
  apps: [app],
  autoFillPrice: 100,
});
const stopWalk = startMarketWalk(fake);
const product = spawn(process.execPath, ['scripts/start.mjs'], {
  stdio: 'inherit',
  env: {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    FEED: 'kite',
    FEED_ACCOUNT: email,
    KITE_API_ROOT: fake.url,
    KITE_LOGIN_URL: `${fake.url}/connect/login`,
    KITE_WS_ROOT: fake.wsUrl,
  },
});

process.stdout.write(
  [
    '',
    `Kite fake on ${fake.url}; OptionPilot on http://127.0.0.1:${port} with FEED=kite.`,
    `1. Sign up as ${email} (the market-data account) and subscribe in test mode.`,
    `2. Broker Connection: Zerodha, API key ${app.apiKey}, API secret ${app.apiSecret}; Save, then Connect.`,
    '3. The dashboard shows the fake Kite Ticker’s NIFTY; Switch to Live sends orders to the fake.',
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
