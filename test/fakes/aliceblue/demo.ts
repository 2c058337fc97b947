// `npm run demo:aliceblue`: the product on a live Alice Blue feed without an Alice Blue account. Starts the Alice
// Blue fake (vendor login page, orders, NFO contract master, NOREN socket with a random-walk NIFTY) on 127.0.0.1
// and `npm start` with FEED=aliceblue pointed at it, and prints what to type: the app code and the API secret.
// Sign up with the printed e-mail (the market-data account), save them under Alice Blue and press Connect: the
// fake's login page sends the browser straight back, and the dashboard shows the fake's live NIFTY. Orders placed
// in Live mode go to the fake and fill at once.
//   PORT (3000) is the product's port, ALICEBLUE_FAKE_PORT (3932) the fake's; Ctrl-C stops both.
import { spawn } from 'node:child_process';
import { currentExpiry } from '../angelone/currentExpiry';
import { startAliceFake } from './server';

const port = Number(process.env.PORT ?? 3000);
const fakePort = Number(process.env.ALICEBLUE_FAKE_PORT ?? 3932);
const email = process.env.FEED_ACCOUNT ?? 'feed@example.com';
const account = {
  userId: 'DEMO01',
  appCode: 'demoantapp01',
  apiSecret: 'demo-ant-secret-01',
  name: 'Demo Trader',
  redirectUrl: `http://127.0.0.1:${port}/broker/aliceblue/callback`,
};

const fake = await startAliceFake({
  port: fakePort,
  expiry: currentExpiry(),
  accounts: [account],
  autoFillPrice: 100,
});

// A NIFTY random walk once a second, every listed option priced from it (intrinsic value plus 80 points).
let index = 24_000;
const walk = setInterval(() => {
  index = Math.round((index + (Math.random() - 0.5) * 10) * 20) / 20;
  const quotes: Record<string, number> = {};
  for (const i of fake.instruments) {
    const intrinsic = i.optionType === 'CE' ? index - i.strike : i.strike - index;
    quotes[i.token] = Math.max(0.05, Math.round((Math.max(0, intrinsic) + 80) * 20) / 20);
  }
  fake.sockets.push({ index, quotes });
}, 1_000);

const product = spawn(process.execPath, ['scripts/start.mjs'], {
  stdio: 'inherit',
  env: {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    FEED: 'aliceblue',
    FEED_ACCOUNT: email,
    ALICEBLUE_API_ROOT: fake.url,
    ALICEBLUE_LOGIN_URL: `${fake.url}/`,
    ALICEBLUE_WS_ROOT: fake.endpoints.wsRoot,
    ALICEBLUE_MASTER_ROOT: fake.url,
  },
});

process.stdout.write(
  [
    '',
    `Alice Blue fake on ${fake.url}; OptionPilot on http://127.0.0.1:${port} with FEED=aliceblue.`,
    `1. Sign up as ${email} (the market-data account) and subscribe in test mode.`,
    `2. Broker Connection: Alice Blue, app code ${account.appCode}, API secret ${account.apiSecret}; Save API Key.`,
    '3. Connect: the fake ANT login page sends you straight back, connected.',
    '4. The dashboard shows the NOREN socket’s NIFTY; Switch to Live sends orders to the fake.',
    '',
  ].join('\n'),
);

const shutdown = (): void => {
  clearInterval(walk);
  product.kill('SIGTERM');
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
product.on('exit', (code) => {
  void fake.close().then(() => process.exit(code ?? 0));
});
