// `npm run demo:groww`: the product on a Groww feed without a Groww account. Starts the Groww fake (token call,
// orders, instrument CSV, last prices with a random-walk NIFTY) on 127.0.0.1 and `npm start` with FEED=groww pointed
// at it, and prints what to type: the API key and secret, and the TOTP, which changes every 30 seconds (printed here
// each time it changes, as an authenticator app shows it). Sign up with the printed e-mail (the market-data
// account), save the key and secret under Groww, press Connect and type the current TOTP — or leave it empty (the
// approval flow: the fake's key counts as approved). The dashboard shows the fake's NIFTY; orders placed in Live
// mode go to the fake and fill at once.
//   PORT (3000) is the product's port, GROWW_FAKE_PORT (3932) the fake's; Ctrl-C stops both.
import { spawn } from 'node:child_process';
import { currentExpiry } from '../angelone/currentExpiry';
import { totp } from '../angelone/totp';
import { startGrowwFake } from './server';

const port = Number(process.env.PORT ?? 3000);
const fakePort = Number(process.env.GROWW_FAKE_PORT ?? 3932);
const email = process.env.FEED_ACCOUNT ?? 'feed@example.com';
const account = {
  apiKey: 'eyJraWQiOiJkZW1vZ3Jvd3drZXkifQ',
  apiSecret: 'demogrowwsecret',
  totpSecret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
  ucc: '100200',
};

const fake = await startGrowwFake({
  port: fakePort,
  expiry: currentExpiry(),
  accounts: [account],
  autoFillPrice: 100,
});

// A NIFTY random walk once a second, every listed option priced from it (intrinsic value plus 80 points).
let index = 24_000;
const walk = setInterval(() => {
  index = Math.round((index + (Math.random() - 0.5) * 10) * 20) / 20;
  fake.ltp = { index, option: 80 };
  for (const i of fake.instruments) {
    const intrinsic = i.optionType === 'CE' ? index - i.strike : i.strike - index;
    fake.optionPrices.set(
      i.tradingSymbol,
      Math.max(0.05, Math.round((Math.max(0, intrinsic) + 80) * 20) / 20),
    );
  }
}, 1_000);

let shown = '';
const showTotp = (): void => {
  const code = totp(account.totpSecret);
  if (code === shown) return;
  shown = code;
  process.stdout.write(`Groww TOTP now: ${code} (changes every 30 s)\n`);
};
const clock = setInterval(showTotp, 1_000);

const product = spawn(process.execPath, ['scripts/start.mjs'], {
  stdio: 'inherit',
  env: {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    FEED: 'groww',
    FEED_ACCOUNT: email,
    GROWW_API_ROOT: fake.url,
    GROWW_LOGIN_URL: fake.endpoints.loginUrl,
    GROWW_WS_ROOT: fake.endpoints.wsRoot,
    GROWW_MASTER_ROOT: fake.url,
  },
});

process.stdout.write(
  [
    '',
    `Groww fake on ${fake.url}; OptionPilot on http://127.0.0.1:${port} with FEED=groww.`,
    `1. Sign up as ${email} (the market-data account) and subscribe in test mode.`,
    `2. Broker Connection: Groww, API key ${account.apiKey}, API secret ${account.apiSecret}; Save API Key.`,
    '3. Connect, then type the TOTP printed below (or leave it empty: the approval flow),',
    `   or add the secret ${account.totpSecret} to an authenticator app.`,
    '4. The dashboard shows the NIFTY of Groww’s last-price call; Switch to Live sends orders to the fake.',
    '',
  ].join('\n'),
);
showTotp();

const shutdown = (): void => {
  clearInterval(walk);
  clearInterval(clock);
  product.kill('SIGTERM');
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
product.on('exit', (code) => {
  void fake.close().then(() => process.exit(code ?? 0));
});
