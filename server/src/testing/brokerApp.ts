// Test harness for the broker routes: the real /api router over a running test server's deps, with a chosen broker
// registry (a fake module) and a recording trading hook. Only used by tests: app.ts builds the server's registry
// from configuration, which ships without the fake.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { bodyParser } from '@koa/bodyparser';
import type { BrokerRegistry } from '../brokers/registry';
import type { Deps } from '../deps';
import type { AppState } from '../middleware/context';
import { errorRenderer } from '../middleware/errors';
import { requestContext } from '../middleware/requestContext';
import { apiRouter } from '../routes';

export interface BrokerTestApp {
  url: string;
  /** user ids passed to `onUserChanged`, in order */
  changed: number[];
  close(): Promise<void>;
}

export async function startBrokerTestApp(deps: Deps, brokers: BrokerRegistry): Promise<BrokerTestApp> {
  const changed: number[] = [];
  const app = new Koa<AppState>();
  app.silent = true;
  app.use(requestContext(deps.logger));
  app.use(errorRenderer(deps.logger));
  app.use(bodyParser({ enableTypes: ['json'], jsonLimit: deps.config.bodyLimit, encoding: 'utf-8' }));
  const api = apiRouter(deps, deps.clock.now(), {
    brokers,
    trading: {
      botStatus: (userId) => deps.trading.botStatus(userId),
      statsFor: (userId) => deps.trading.statsFor(userId),
      onUserChanged: (userId) => {
        changed.push(userId);
      },
    },
  });
  app.use(api.routes());
  const server: Server = createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    changed,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
