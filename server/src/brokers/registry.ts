// The broker modules that exist. Only these are offered to traders (Broker Connection select, landing page); every
// other canonical broker type is listed as "coming soon" and cannot be connected. Adding a broker is one line in
// BROKER_MODULE_FACTORIES once its folder implements `BrokerModule`.
import type { Config } from '../config';
import type { BrokerOfferDto } from '../contract';
import type { BrokerEndpoints, BrokerModule, BrokerModuleContext, BrokerType } from './types';
import { upstoxModule } from './upstox';
import { zerodhaModule } from './zerodha';

/** How a broker module is built from the server's configuration. */
export interface BrokerModuleFactory {
  readonly type: BrokerType;
  create(context: BrokerModuleContext): BrokerModule;
}

/** The shipped modules; a new broker is one more line. */
export const BROKER_MODULE_FACTORIES: readonly BrokerModuleFactory[] = [
  { type: 'zerodha', create: (context) => zerodhaModule(context) },
  { type: 'upstox', create: (context) => upstoxModule(context) },
];

/** Display names of every canonical broker type (DOMAIN.md §3), in the order the select lists them. */
export const BROKER_LABELS: Readonly<Record<BrokerType, string>> = {
  zerodha: 'Zerodha',
  upstox: 'Upstox',
  angelone: 'Angel One',
  dhan: 'Dhan',
  fyers: 'Fyers',
  aliceblue: 'Alice Blue',
  groww: 'Groww',
};

export interface BrokerRegistry {
  /** the module of a broker type, only when one exists */
  get(type: string): BrokerModule | undefined;
  /** every registered module */
  modules(): readonly BrokerModule[];
  /** every canonical broker type with whether it can be connected (registered modules first) */
  offers(): BrokerOfferDto[];
}

export interface BrokerRegistryOptions {
  /** where each broker is reached; a factory without endpoints is a configuration bug and fails the boot */
  endpoints: Partial<Record<BrokerType, BrokerEndpoints>>;
  algoTag: string;
  now: () => number;
  /** default BROKER_MODULE_FACTORIES; tests pass a fake module */
  factories?: readonly BrokerModuleFactory[];
}

/** Builds each module once, so the modules' shared state (instrument books, postback hubs) is one per server. */
export function createBrokerRegistry(options: BrokerRegistryOptions): BrokerRegistry {
  const byType = new Map<string, BrokerModule>();
  for (const factory of options.factories ?? BROKER_MODULE_FACTORIES) {
    const endpoints = options.endpoints[factory.type];
    if (!endpoints) throw new Error(`broker ${factory.type} has a module but no configured endpoints`);
    const module = factory.create({ endpoints, algoTag: options.algoTag, now: options.now });
    if (module.type !== factory.type) {
      throw new Error(`broker factory ${factory.type} built a ${module.type} module`);
    }
    byType.set(factory.type, module);
  }
  const modules = [...byType.values()];
  return {
    get: (type) => byType.get(type),
    modules: () => modules,
    offers: () => {
      const all = Object.entries(BROKER_LABELS) as Array<[BrokerType, string]>;
      const available = all.filter(([type]) => byType.has(type));
      const comingSoon = all.filter(([type]) => !byType.has(type));
      return [
        ...available.map(([type]) => ({
          type,
          label: byType.get(type)?.label ?? BROKER_LABELS[type],
          available: true,
        })),
        ...comingSoon.map(([type, label]) => ({ type, label, available: false })),
      ];
    },
  };
}

/** The server's registry from its configuration (KITE_*, UPSTOX_*, ALGO_TAG). */
export function brokerRegistryFromConfig(
  config: Pick<Config, 'brokerEndpoints' | 'algoTag'>,
  now: () => number,
  factories?: readonly BrokerModuleFactory[],
): BrokerRegistry {
  return createBrokerRegistry({
    endpoints: config.brokerEndpoints,
    algoTag: config.algoTag,
    now,
    ...(factories ? { factories } : {}),
  });
}
