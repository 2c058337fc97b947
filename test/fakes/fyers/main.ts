// The Fyers fake as a standalone process for end-to-end runs and `FEED=fyers` demos:
//   FYERS_FAKE_PORT=3936 npx tsx test/fakes/fyers/main.ts
// Point the server at it (FYERS_API_ROOT, FYERS_MASTER_ROOT = http://127.0.0.1:3936, FYERS_LOGIN_URL =
// …/api/v3/generate-authcode, FYERS_WS_ROOT = ws://127.0.0.1:3936). Test-only control endpoints on
// FYERS_FAKE_CONTROL_PORT (default port + 1):
//   POST /__fake/apps   JSON FyersFakeApp: registers a trader's app
//   POST /__fake/fill   JSON { id, price, quantity? }: fills an order and pushes it on the order socket
// The data socket pushes a NIFTY random walk and option prices every second; the listed options are those of the
// weekly expiry the server trades today.
import { createServer } from 'node:http';
import { currentExpiry } from '../kite/currentExpiry';
import { startFyersMarketWalk } from './marketWalk';
import { startFyersFake, type FyersFakeApp } from './server';

const port = Number(process.env.FYERS_FAKE_PORT ?? 3936);
const controlPort = Number(process.env.FYERS_FAKE_CONTROL_PORT ?? port + 1);
const fake = await startFyersFake({ port, expiry: currentExpiry() });
const stopWalk = startFyersMarketWalk(fake);

// Control requests go to their own port so nothing can mistake them for Fyers' API.
const control = createServer((req, res) => {
  let body = '';
  req.on('data', (c: Buffer) => (body += c.toString()));
  req.on('end', () => {
    void (async () => {
      try {
        const input = JSON.parse(body || '{}') as Record<string, unknown>;
        if (req.method === 'POST' && req.url === '/__fake/apps')
          fake.addApp(input as unknown as FyersFakeApp);
        else if (req.method === 'POST' && req.url === '/__fake/fill') {
          const quantity = typeof input.quantity === 'number' ? input.quantity : undefined;
          await fake.fill(String(input.id), Number(input.price), quantity);
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
  `fyers fake on ${fake.url} (sockets ${fake.wsUrl}), control on http://127.0.0.1:${controlPort}\n`,
);

const shutdown = (): void => {
  stopWalk();
  control.close();
  void fake.close().then(() => process.exit(0));
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
