// `npm run demo:aliceblue`: the product on a live Alice Blue feed without an Alice Blue account. Starts the Alice
// Blue fake (vendor login page, orders, NFO contract master, NOREN socket with a random-walk NIFTY) on 127.0.0.1
// and `npm start` with FEED=aliceblue pointed at it, and prints what to type: the app code and the API secret.
// Sign up with the printed e-mail (the market-data account), save them under Alice Blue and press Connect: the
// fake's login page sends the browser straight back, and the dashboard shows the fake's live NIFTY. Orders placed
// in Live mode go to the fake and fill at once.
//   PORT (3000) is the product's port, ALICEBLUE_FAKE_PORT (3932) the fake's; Ctrl-C stops both.
import { currentExpiry } from '../angelone/currentExpiry';
import { demoFakePort, demoPort, demoPremium, runDemo, startDemoWalk } from '../demo';
import { startAliceFake } from './server';

const account = {
  userId: 'DEMO01',
  appCode: 'demoantapp01',
  apiSecret: 'demo-ant-secret-01',
  name: 'Demo Trader',
  redirectUrl: `http://127.0.0.1:${demoPort}/broker/aliceblue/callback`,
};

const fake = await startAliceFake({
  port: demoFakePort('ALICEBLUE_FAKE_PORT', 3932),
  expiry: currentExpiry(),
  accounts: [account],
  autoFillPrice: 100,
});

runDemo({
  broker: 'Alice Blue',
  feed: 'aliceblue',
  fakeUrl: fake.url,
  env: {
    ALICEBLUE_API_ROOT: fake.url,
    ALICEBLUE_LOGIN_URL: `${fake.url}/`,
    ALICEBLUE_WS_ROOT: fake.endpoints.wsRoot,
    ALICEBLUE_MASTER_ROOT: fake.url,
  },
  steps: [
    `2. Broker Connection: Alice Blue, app code ${account.appCode}, API secret ${account.apiSecret}; Save API Key.`,
    '3. Connect: the fake ANT login page sends you straight back, connected.',
    '4. The dashboard shows the NOREN socket’s NIFTY; Switch to Live sends orders to the fake.',
  ],
  stop: startDemoWalk((index) => {
    const quotes: Record<string, number> = {};
    for (const i of fake.instruments) quotes[i.token] = demoPremium(index, i.strike, i.optionType);
    fake.sockets.push({ index, quotes });
  }),
  closeFake: () => fake.close(),
});
