import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import {
  BROKER_LABELS,
  BROKER_MODULE_FACTORIES,
  brokerRegistryFromConfig,
  createBrokerRegistry,
} from './registry';
import { fakeBrokerModule } from './testing/fakeBrokerModule';

const endpoints = {
  zerodha: {
    apiRoot: 'http://127.0.0.1:1',
    loginUrl: 'http://127.0.0.1:1/login',
    wsRoot: 'ws://127.0.0.1:1',
  },
};

describe('broker registry', () => {
  it('offers only registered modules as available, every other broker as coming soon', () => {
    const registry = createBrokerRegistry({
      endpoints,
      algoTag: 'TAG',
      now: () => 0,
      factories: [{ type: 'zerodha', create: (c) => fakeBrokerModule(c, { label: 'Zerodha' }) }],
    });
    const offers = registry.offers();
    expect(offers[0]).toEqual({ type: 'zerodha', label: 'Zerodha', available: true });
    expect(offers.filter((o) => o.available).map((o) => o.type)).toEqual(['zerodha']);
    expect(offers.map((o) => o.type).sort()).toEqual(Object.keys(BROKER_LABELS).sort());
    expect(registry.get('zerodha')?.label).toBe('Zerodha');
    expect(registry.get('groww')).toBeUndefined();
    expect(registry.modules()).toHaveLength(1);
  });

  it('hands each module its configured endpoints, algo tag and clock', () => {
    let seen: unknown;
    createBrokerRegistry({
      endpoints,
      algoTag: 'TAG',
      now: () => 42,
      factories: [
        {
          type: 'zerodha',
          create: (c) => {
            seen = { endpoints: c.endpoints, algoTag: c.algoTag, now: c.now() };
            return fakeBrokerModule(c);
          },
        },
      ],
    });
    expect(seen).toEqual({ endpoints: endpoints.zerodha, algoTag: 'TAG', now: 42 });
  });

  it('refuses a module without endpoints and a factory that builds another broker', () => {
    expect(() =>
      createBrokerRegistry({
        endpoints: {},
        algoTag: 'TAG',
        now: () => 0,
        factories: [{ type: 'zerodha', create: (c) => fakeBrokerModule(c) }],
      }),
    ).toThrow(/no configured endpoints/);
    expect(() =>
      createBrokerRegistry({
        endpoints,
        algoTag: 'TAG',
        now: () => 0,
        factories: [{ type: 'zerodha', create: (c) => fakeBrokerModule(c, { type: 'upstox' }) }],
      }),
    ).toThrow(/built a upstox module/);
  });

  it('builds the shipped list from KITE_* / UPSTOX_* configuration', () => {
    const config = loadConfig({
      KITE_API_ROOT: 'http://127.0.0.1:9/',
      UPSTOX_ORDERS_ROOT: 'http://127.0.0.1:8',
    });
    expect(config.brokerEndpoints.zerodha.apiRoot).toBe('http://127.0.0.1:9');
    expect(config.brokerEndpoints.upstox.ordersRoot).toBe('http://127.0.0.1:8');
    const registry = brokerRegistryFromConfig(config, () => 0);
    expect(registry.modules().map((m) => m.type)).toEqual(BROKER_MODULE_FACTORIES.map((f) => f.type));
    expect(registry.offers().filter((o) => o.available)).toHaveLength(BROKER_MODULE_FACTORIES.length);
  });
});
