// The Kite fake as a standalone process for end-to-end runs and `FEED=kite` demos:
//   KITE_FAKE_PORT=3926 npx tsx test/fakes/kite/main.ts
// Point the server at it (KITE_API_ROOT=http://127.0.0.1:3926, KITE_LOGIN_URL=…/connect/login,
// KITE_WS_ROOT=ws://127.0.0.1:3926). Test-only control endpoints on KITE_FAKE_CONTROL_PORT (default port + 1):
//   POST /__fake/apps   JSON KiteFakeApp: registers a trader's app (the secret signs sessions and postbacks)
//   POST /__fake/fill   JSON { order_id, price, quantity? }: fills an order and sends its postback
// The ticker pushes a NIFTY random walk and option prices to subscribers every second; the listed options are those
// of the weekly expiry the server trades today.
import { createServer } from 'node:http';
import { currentExpiry } from './currentExpiry';
import { startMarketWalk } from './marketWalk';
import { startKiteFake, type KiteFakeApp } from './server';

const port = Number(process.env.KITE_FAKE_PORT ?? 3926);
const controlPort = Number(process.env.KITE_FAKE_CONTROL_PORT ?? port + 1);
const fake = await startKiteFake({ port, expiry: currentExpiry() });
const stopWalk = startMarketWalk(fake);

// Control requests go to their own port so nothing can mistake them for Kite's API.
const control = createServer((req, res) => {
  let body = '';
  req.on('data', (c: Buffer) => (body += c.toString()));
  req.on('end', () => {
    void (async () => {
      try {
        const input = JSON.parse(body || '{}') as Record<string, unknown>;
        if (req.method === 'POST' && req.url === '/__fake/apps') fake.addApp(input as unknown as KiteFakeApp);
        else if (req.method === 'POST' && req.url === '/__fake/fill') {
          const quantity = typeof input.quantity === 'number' ? input.quantity : undefined;
          await fake.fill(String(input.order_id), Number(input.price), quantity);
        } else {
          res.writeHead(404).end();
          return;
        }
        res.writeHead(204).end();
      } catch (error) {
        res.writeHead(400, { 'content-type': 'text/plain' }).end(String(error));
      }
    })();
  });
});
control.listen(controlPort, '127.0.0.1');

process.stdout.write(
  `kite fake on ${fake.url} (ticker ${fake.wsUrl}), control on http://127.0.0.1:${controlPort}\n`,
);

const shutdown = (): void => {
  stopWalk();
  control.close();
  void fake.close().then(() => process.exit(0));
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
