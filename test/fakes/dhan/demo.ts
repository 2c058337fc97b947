// `npm run demo:dhan`: the product on a live Dhan feed without a Dhan account. Starts the Dhan fake (consent login,
// orders, scrip master, order update socket and the binary market feed with a random-walk NIFTY) on 127.0.0.1 and
// `npm start` with FEED=dhan pointed at it, and prints what to type: the API key (client id and key) and secret for
// the consent login, or a client id and a freshly generated 24-hour access token to paste. Sign up with the printed
// e-mail (the market-data account), save the key under Dhan, then paste the token (or press "Log in at Dhan"): the
// dashboard shows the fake's live NIFTY. Orders placed in Live mode go to the fake and fill at once.
//   PORT (3000) is the product's port, DHAN_FAKE_PORT (3932) the fake's; Ctrl-C stops both.
import { spawn } from 'node:child_process';
import { currentExpiry } from '../kite/currentExpiry';
import { startDhanFake } from './server';

const port = Number(process.env.PORT ?? 3000);
const fakePort = Number(process.env.DHAN_FAKE_PORT ?? 3932);
const email = process.env.FEED_ACCOUNT ?? 'feed@example.com';
const account = {
  clientId: '1000000099',
  name: 'Demo Trader',
  appId: 'demodhanapp01',
  appSecret: 'demo-dhan-secret',
  redirectUrl: `http://127.0.0.1:${port}/broker/dhan/callback`,
};

const fake = await startDhanFake({
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
    quotes[i.securityId] = Math.max(0.05, Math.round((Math.max(0, intrinsic) + 80) * 20) / 20);
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
    FEED: 'dhan',
    FEED_ACCOUNT: email,
    DHAN_API_ROOT: fake.url,
    DHAN_LOGIN_URL: fake.endpoints.loginUrl,
    DHAN_WS_ROOT: fake.endpoints.wsRoot,
    DHAN_MASTER_ROOT: fake.url,
  },
});

process.stdout.write(
  [
    '',
    `Dhan fake on ${fake.url}; OptionPilot on http://127.0.0.1:${port} with FEED=dhan.`,
    `1. Sign up as ${email} (the market-data account) and subscribe in test mode.`,
    `2. Broker Connection: Dhan, API key ${account.clientId}:${account.appId}, secret ${account.appSecret}; Save.`,
    `3. Connect: client ID ${account.clientId} and access token`,
    `   ${fake.issueToken(account.clientId)}`,
    '   (valid 24 h), or "Log in at Dhan" for the consent flow.',
    '4. The dashboard shows the Dhan feed’s NIFTY; Switch to Live sends orders to the fake.',
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
