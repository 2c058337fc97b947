// Wiring of the Zerodha module to a running Kite fake for cross-package tests and the bench: the module pointed
// at the fake, and the server's real `/api/broker/zerodha/postback` router on its own loopback Koa app, so the
// fake's postbacks go through the same validation and checksum check as in production.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { bodyParser } from '@koa/bodyparser';
import Koa from 'koa';
import { zerodhaModule, type KitePostbackHub, type ZerodhaModule } from '../../server/src/brokers/zerodha';
import { kitePostbackEndpoint } from '../../server/src/brokers/zerodha/postbacks';
import type { KiteFake } from '../fakes/kite/server';
import { createLogger } from '../../server/src/logger';
import type { AppState } from '../../server/src/middleware/context';
import { errorRenderer } from '../../server/src/middleware/errors';
import { brokerPostbacksRouter } from '../../server/src/routes/broker-postbacks/router';

export interface PostbackEndpoint {
  /** the URL to configure as the Kite app's postback URL */
  readonly url: string;
  close(): Promise<void>;
}

/** Starts the postback route delivering to `hub`. */
export async function startKitePostbackEndpoint(hub: KitePostbackHub): Promise<PostbackEndpoint> {
  const app = new Koa<AppState>();
  app.silent = true;
  app.use(errorRenderer(createLogger({ level: 'silent' })));
  app.use(bodyParser({ enableTypes: ['json'] }));
  const zerodha = { label: 'Zerodha', postback: kitePostbackEndpoint(hub) };
  app.use(brokerPostbacksRouter((type) => (type === 'zerodha' ? zerodha : undefined)).routes());
  const server: Server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/broker/zerodha/postback`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The Zerodha module with every endpoint at the fake; `pollIntervalMs: 0` leaves postbacks as the only updates. */
export function zerodhaModuleAt(fake: Pick<KiteFake, 'url' | 'wsUrl'>, pollIntervalMs = 0): ZerodhaModule {
  return zerodhaModule(
    {
      endpoints: { apiRoot: fake.url, loginUrl: `${fake.url}/connect/login`, wsRoot: fake.wsUrl },
      algoTag: 'OPALGO',
      now: () => Date.now(),
    },
    { pollIntervalMs },
  );
}
