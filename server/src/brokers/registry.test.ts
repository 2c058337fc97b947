import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { BROKER_LABELS } from '../contract';
import { BROKER_DEFINITIONS, brokerFeeds, brokerRegistryFromConfig, createBrokerRegistry } from './registry';
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
    const offers = registry.offers('https://op.example.in');
    expect(offers[0]).toMatchObject({
      type: 'zerodha',
      label: 'Zerodha',
      available: true,
      loginKind: 'redirect',
    });
    expect(offers[0]?.setup).toMatchObject({
      redirectUrl: 'https://op.example.in/broker/zerodha/callback',
      postbackUrl: null,
      sessionEnds: '06:00 IST',
    });
    expect(offers.find((o) => o.type === 'groww')).toEqual({
      type: 'groww',
      label: 'Groww',
      available: false,
      loginKind: null,
      setup: null,
    });
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

  it('describes a form login by its fields and submit path, and whether a redirect login is offered too', () => {
    const registry = createBrokerRegistry({
      endpoints: { angelone: endpoints.zerodha },
      algoTag: 'TAG',
      now: () => 0,
      factories: [{ type: 'angelone', create: (c) => fakeBrokerModule(c, { type: 'angelone', form: true }) }],
    });
    const [offer] = registry.offers('https://op.example.in');
    expect(offer).toMatchObject({
      type: 'angelone',
      loginKind: 'form',
      submitPath: '/api/user/broker/login',
      redirectLogin: true,
    });
    expect(offer?.fields?.map((f) => f.name)).toEqual(['clientCode', 'mpin', 'totp']);
  });

  it('builds the shipped list from each broker folder’s <BROKER>_* variables', () => {
    const config = loadConfig({
      KITE_API_ROOT: 'http://127.0.0.1:9/',
      UPSTOX_ORDERS_ROOT: 'http://127.0.0.1:8',
    });
    expect(config.brokerEndpoints.zerodha?.apiRoot).toBe('http://127.0.0.1:9');
    expect(config.brokerEndpoints.upstox?.ordersRoot).toBe('http://127.0.0.1:8');
    expect(Object.keys(config.brokerEndpoints).sort()).toEqual(BROKER_DEFINITIONS.map((d) => d.type).sort());
    const registry = brokerRegistryFromConfig(config, () => 0);
    expect(registry.modules().map((m) => m.type)).toEqual(BROKER_DEFINITIONS.map((d) => d.type));
    expect(registry.offers('http://x').filter((o) => o.available)).toHaveLength(BROKER_DEFINITIONS.length);
    // Every registered module can be logged in to, describes its setup and answers the admin's profile test.
    for (const module of registry.modules()) {
      expect(module.redirectLogin ?? module.formLogin).toBeDefined();
      expect(module.setup.portal.url).toMatch(/^https:\/\//);
    }
  });

  it('derives the FEED names from the definitions, each naming a registered broker with a market feed', () => {
    const feeds = brokerFeeds();
    expect(feeds).toMatchObject({ kite: 'zerodha', upstox: 'upstox' });
    const registry = brokerRegistryFromConfig(loadConfig({}), () => 0);
    for (const broker of Object.values(feeds)) expect(registry.get(broker)?.createFeed).toBeDefined();
  });

  it('refuses a broker root with a path, and names the variable', () => {
    expect(() => loadConfig({ KITE_API_ROOT: 'https://api.kite.trade/v3' })).toThrow(
      /KITE_API_ROOT: must be scheme \+ host/,
    );
    expect(() => loadConfig({ UPSTOX_WS_ROOT: 'ftp://x' })).toThrow(/UPSTOX_WS_ROOT/);
    expect(() => loadConfig({ KITE_LOGIN_URL: 'not a url' })).toThrow(/KITE_LOGIN_URL/);
  });
});
