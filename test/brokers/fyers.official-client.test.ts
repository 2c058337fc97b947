// The official `fyers-api-v3` client (1.9.0) against the Fyers fake, as a cross-check that the fake speaks the wire
// format the adapter was written from: login (generate-authcode → validate-authcode with its appIdHash), profile,
// place / modify / cancel, order book, trade book, positions, the order socket's messages through the client's own
// status table, and the data socket's binary frames through its own decoder. The client has no base-URL option: its
// hosts are the exported `Config` object's fields, set here to the fake, and the data socket's symbol-token call
// (a hard-coded host) is redirected by a request interceptor on the axios instance the package exports. Its logging
// is off, so it writes no log file. It is a test dependency only (README of server/src/brokers/fyers says why).
import { createRequire } from 'node:module';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFyersFake, type FyersFake, type FyersFakeApp } from '../fakes/fyers/server';

const require = createRequire(import.meta.url);

interface OfficialModel {
  setAppId(appId: string): void;
  setRedirectUrl(url: string): void;
  setAccessToken(token: string): void;
  generateAuthCode(req: { state: string }): string;
  generate_access_token(req: {
    client_id: string;
    secret_key: string;
    auth_code: string;
  }): Promise<Record<string, unknown>>;
  get_profile(): Promise<Record<string, unknown>>;
  place_order(req: Record<string, unknown>): Promise<Record<string, unknown>>;
  modify_order(req: Record<string, unknown>): Promise<Record<string, unknown>>;
  cancel_order(req: Record<string, unknown>): Promise<Record<string, unknown>>;
  get_orders(): Promise<Record<string, unknown>>;
  get_tradebook(): Promise<Record<string, unknown>>;
  get_positions(): Promise<Record<string, unknown>>;
}

interface OfficialOrderSocket {
  orderUpdates: string;
  on(what: string, callback: (message: Record<string, unknown>) => void): void;
  subscribe(what: string[]): void;
  connect(): void;
  close(): void;
}

interface OfficialDataSocket {
  on(what: string, callback: (message: Record<string, unknown>) => void): void;
  subscribe(symbols: string[]): void;
  connect(): void;
  close(): void;
}

interface OfficialPackage {
  fyersModel: new (params: { path: string; enableLogging: boolean }) => OfficialModel;
  fyersOrderSocket: new (authorization: string, logPath: string, logging: boolean) => OfficialOrderSocket;
  fyersDataSocket: {
    getInstance(authorization: string, logPath: string, logging: boolean): OfficialDataSocket;
  };
}

const APP: FyersFakeApp = {
  appId: 'FYOFFC1-100',
  secret: 'official-secret',
  fyId: 'XO98765',
  name: 'Asha Rao',
  redirectUrl: 'http://127.0.0.1:9/broker/fyers/callback',
};

async function eventually<T>(probe: () => T | undefined, what: string, ms = 10_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('the official fyers-api-v3 client at the Fyers fake', () => {
  let fake: FyersFake;
  let official: OfficialPackage;
  let logDir = '';

  beforeAll(async () => {
    fake = await startFyersFake({ apps: [APP], ackEvery: 0 });
    logDir = mkdtempSync(join(tmpdir(), 'fyers-official-'));
    const { Config } = require('fyers-api-v3/config/config') as { Config: Record<string, string> };
    Config.SYNC_API = `${fake.url}/api/v3`;
    Config.Order_SOCKET = `${fake.wsUrl}/trade/v3`;
    Config.HSM_SOCKET = `${fake.wsUrl}/hsm/v1-5/prod`;
    const { axiosInstance } = require('fyers-api-v3/apiService/apiService') as {
      axiosInstance: { interceptors: { request: { use(f: (c: { url?: string }) => unknown): void } } };
    };
    axiosInstance.interceptors.request.use((config) => {
      config.url = String(config.url).replace('https://api-t1.fyers.in', fake.url);
      return config;
    });
    official = require('fyers-api-v3') as OfficialPackage;
  });
  afterAll(async () => {
    await fake.close();
    rmSync(logDir, { recursive: true, force: true });
  });

  it('logs in, trades, and hears the order socket and the data socket as the fake speaks them', async () => {
    const fyers = new official.fyersModel({ path: logDir, enableLogging: false });
    fyers.setAppId(APP.appId);
    fyers.setRedirectUrl(APP.redirectUrl);
    const login = await fetch(fyers.generateAuthCode({ state: 'official-state' }), { redirect: 'manual' });
    const back = new URL(login.headers.get('location') ?? '');
    expect(back.searchParams.get('state')).toBe('official-state');
    const token = await fyers.generate_access_token({
      client_id: APP.appId,
      secret_key: APP.secret,
      auth_code: back.searchParams.get('auth_code') ?? '',
    });
    expect(token).toMatchObject({ s: 'ok', access_token: expect.any(String) });
    const accessToken = String(token.access_token);
    fyers.setAccessToken(accessToken);
    expect(await fyers.get_profile()).toMatchObject({ s: 'ok', data: { fy_id: APP.fyId, name: APP.name } });

    const option = fake.instruments.find((i) => i.strike === 24_000 && i.optionType === 'CE')!;
    const placed = await fyers.place_order({
      symbol: option.ticker,
      qty: 65,
      type: 1,
      side: 1,
      productType: 'INTRADAY',
      limitPrice: 120.5,
      stopPrice: 0,
      validity: 'DAY',
      disclosedQty: 0,
      offlineOrder: false,
      stopLoss: 0,
      takeProfit: 0,
      orderTag: 'OPALGOOPmis0a1b2001x7k',
    });
    expect(placed).toMatchObject({ s: 'ok', code: 1101, id: expect.any(String) });
    const id = String(placed.id);
    expect(await fyers.modify_order({ id, limitPrice: 121 })).toMatchObject({ s: 'ok', code: 1102, id });
    const book = (await fyers.get_orders()) as { orderBook: Record<string, unknown>[] };
    expect(book.orderBook.find((o) => o.id === id)).toMatchObject({
      status: 6,
      limitPrice: 121,
      orderTag: 'OPALGOOPmis0a1b2001x7k',
    });

    // The order socket: the client maps the socket's fields and exchange-level statuses to the REST ones.
    const pushed: Record<string, unknown>[] = [];
    const orders = new official.fyersOrderSocket(`${APP.appId}:${accessToken}`, logDir, false);
    orders.on('orders', (message) => pushed.push(message));
    orders.on('connect', () => orders.subscribe([orders.orderUpdates]));
    // Its acknowledgement and close notices would otherwise be printed.
    orders.on('general', () => undefined);
    orders.on('close', () => undefined);
    orders.on('error', () => undefined);
    orders.connect();
    await eventually(
      () => (fake.orderSocket.connectionsOf(APP.fyId) > 0 ? true : undefined),
      'the order socket',
    );
    await fake.fill(id, 121, 65);
    const filled = await eventually(
      () => pushed.find((m) => (m.orders as Record<string, unknown>).status === 2),
      'the fill on the order socket',
    );
    expect(filled).toMatchObject({
      s: 'ok',
      orders: { id, status: 2, filledQty: 65, tradedPrice: 121, orderTag: 'OPALGOOPmis0a1b2001x7k' },
    });
    orders.close();

    expect(await fyers.get_tradebook()).toMatchObject({
      tradeBook: [{ orderNumber: id, tradedQty: 65, tradePrice: 121 }],
    });
    expect(await fyers.get_positions()).toMatchObject({
      netPositions: [{ symbol: option.ticker, netQty: 65 }],
    });
    // Cancelling a traded order is refused with Fyers' code.
    const refused = await fyers.cancel_order({ id }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ s: 'error', code: -162 });

    // The data socket: the client's binary decoder reads the fake's frames (index and option LTP, bid and ask).
    const ticks: Record<string, unknown>[] = [];
    const data = official.fyersDataSocket.getInstance(`${APP.appId}:${accessToken}`, logDir, false);
    data.on('connect', () => data.subscribe(['NSE:NIFTY50-INDEX', option.ticker]));
    data.on('message', (message) => ticks.push(message));
    data.on('error', () => undefined);
    data.on('close', () => undefined);
    data.connect();
    await eventually(() => (fake.hsm.subscribed.size >= 2 ? true : undefined), 'the data subscriptions');
    const index = await eventually(() => {
      fake.hsm.push({ index: 24_123.45, quotes: { [option.fyToken]: 120.5 } });
      return ticks.find((t) => t.symbol === 'NSE:NIFTY50-INDEX');
    }, 'an index tick');
    expect(index).toMatchObject({ type: 'if', ltp: 24_123.45 });
    const quote = await eventually(() => ticks.find((t) => t.symbol === option.ticker), 'an option quote');
    expect(quote).toMatchObject({ type: 'sf', ltp: 120.5, bid_price: 120.45, ask_price: 120.55 });
    data.close();
  }, 30_000);
});
