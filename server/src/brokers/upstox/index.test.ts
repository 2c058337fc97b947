import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BrokerModuleContext } from '../types';
import { UPSTOX_DEFAULT_ENDPOINTS, upstoxModule } from './index';

const session = { accessToken: 'token', expiresAt: 0, accountId: 'A1', accountName: 'A' };
const credentials = { apiKey: 'key', apiSecret: 'secret' };

const REFUSED = JSON.stringify({ status: 'error', errors: [{ errorCode: 'UDAPI100050' }] });

/** The URLs the module calls (API requests through the transport, the master download through fetch). */
const calls = vi.hoisted(() => ({ urls: [] as string[] }));
vi.mock('../brokerHttp', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../brokerHttp')>()),
  sendHttp: (call: { url: string }) => {
    calls.urls.push(call.url);
    return Promise.resolve({ status: 401, text: REFUSED });
  },
}));
let urls: string[];
beforeEach(() => {
  urls = calls.urls;
  urls.length = 0;
  vi.stubGlobal('fetch', async (input: string | URL) => {
    urls.push(String(input));
    return new Response(REFUSED, { status: 401 });
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
});

function moduleAt(endpoints: BrokerModuleContext['endpoints']) {
  return upstoxModule({
    endpoints,
    algoTag: 'OPTIONPILOT',
    now: () => Date.parse('2026-11-24T10:00:00+05:30'),
  });
}

describe('upstoxModule', () => {
  it('is offered as Upstox and reads the state Upstox echoes back', () => {
    const module = moduleAt(UPSTOX_DEFAULT_ENDPOINTS);
    expect(module).toMatchObject({ type: 'upstox', label: 'Upstox' });
    expect(module.redirectLogin!.stateOf({ code: 'c', state: 's' })).toBe('s');
    expect(module.redirectLogin!.stateOf({ code: 'c' })).toBeUndefined();
  });

  it('sends production order writes to api-hft and downloads the master from the assets host', async () => {
    const module = moduleAt(UPSTOX_DEFAULT_ENDPOINTS);
    const broker = module.createBroker({ credentials, session });
    await broker.cancelOrder('1').catch(() => undefined);
    expect(urls).toContain('https://assets.upstox.com/market-quote/instruments/exchange/complete.json.gz');
    expect(urls).toContain('https://api-hft.upstox.com/v3/order/cancel?order_id=1');
  });

  it('keeps everything on the API root when no orders or master root is given (a fake)', async () => {
    const root = 'http://127.0.0.1:9';
    const module = moduleAt({ apiRoot: root, loginUrl: `${root}/dialog`, wsRoot: root });
    const broker = module.createBroker({ credentials, session });
    await broker.cancelOrder('1').catch(() => undefined);
    expect(urls).toContain(`${root}/market-quote/instruments/exchange/complete.json.gz`);
    expect(urls).toContain(`${root}/v3/order/cancel?order_id=1`);
  });
});
