// `npm run demo:angelone`: the product on a live Angel One feed without an Angel One account. Starts the Angel fake
// (logins, orders, scrip master, order-status socket and SmartStream with a random-walk NIFTY) on 127.0.0.1 and
// `npm start` with FEED=angelone pointed at it, and prints what to type: the API key, the client code, the MPIN,
// and the TOTP, which changes every 30 seconds (printed here each time it changes, as an authenticator app shows
// it). Sign up with the printed e-mail (the market-data account), save the key under Angel One, press Connect and
// type the client code, MPIN and the current TOTP: the dashboard shows the fake's live NIFTY. Orders placed in Live
// mode go to the fake and fill at once.
//   PORT (3000) is the product's port, ANGELONE_FAKE_PORT (3928) the fake's; Ctrl-C stops both.
import { spawn } from 'node:child_process';
import { currentExpiry } from './currentExpiry';
import { startAngelFake } from './server';
import { totp } from './totp';

const port = Number(process.env.PORT ?? 3000);
const fakePort = Number(process.env.ANGELONE_FAKE_PORT ?? 3928);
const email = process.env.FEED_ACCOUNT ?? 'feed@example.com';
const account = {
  apiKey: 'demosmartkey01',
  clientCode: 'D123456',
  mpin: '1234',
  totpSecret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
  name: 'Demo Trader',
  redirectUrl: `http://127.0.0.1:${port}/broker/angelone/callback`,
};

const fake = await startAngelFake({
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

let shown = '';
const showTotp = (): void => {
  const code = totp(account.totpSecret);
  if (code === shown) return;
  shown = code;
  process.stdout.write(`Angel One TOTP now: ${code} (changes every 30 s)\n`);
};
const clock = setInterval(showTotp, 1_000);

const product = spawn(process.execPath, ['scripts/start.mjs'], {
  stdio: 'inherit',
  env: {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    FEED: 'angelone',
    FEED_ACCOUNT: email,
    ANGELONE_API_ROOT: fake.url,
    ANGELONE_LOGIN_URL: `${fake.url}/publisher-login`,
    ANGELONE_WS_ROOT: fake.wsUrl,
    ANGELONE_MASTER_ROOT: fake.url,
  },
});

process.stdout.write(
  [
    '',
    `Angel One fake on ${fake.url}; OptionPilot on http://127.0.0.1:${port} with FEED=angelone.`,
    `1. Sign up as ${email} (the market-data account) and subscribe in test mode.`,
    `2. Broker Connection: Angel One, API key ${account.apiKey}, any secret key; Save API Key.`,
    `3. Connect, then type client code ${account.clientCode}, MPIN ${account.mpin} and the TOTP printed below`,
    `   (or add the secret ${account.totpSecret} to an authenticator app). "Log in at Angel One instead" works too.`,
    '4. The dashboard shows SmartStream’s NIFTY; Switch to Live sends orders to the fake.',
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
