// The brokers this server has, as the one list: BROKER_DEFINITIONS. Each entry is a broker folder's definition;
// from it come the broker's environment variables (env.ts, merged into the configuration), its FEED name, and
// its module. Only registered brokers are offered to traders (Broker Connection select, landing page); every other
// canonical broker type is listed as "coming soon" and cannot be connected. Adding a broker is its folder and one
// line here.
import { BROKER_LABELS, BROKER_TYPES, type BrokerOfferDto } from '../contract';
import { aliceblueBroker } from './aliceblue';
import { angeloneBroker } from './angelone';
import { dhanBroker } from './dhan';
import { fyersBroker } from './fyers';
import { growwBroker } from './groww';
import { brokerPostbackUrl, brokerRedirectUrl } from './urls';
import { upstoxBroker } from './upstox';
import { zerodhaBroker } from './zerodha';
import {
  FORM_LOGIN_SUBMIT_PATH,
  type BrokerDefinition,
  type BrokerEndpoints,
  type BrokerModule,
  type BrokerModuleContext,
  type BrokerType,
} from './types';

/** How a broker module is built (a `BrokerDefinition` is one; tests pass smaller factories). */
export interface BrokerModuleFactory {
  readonly type: BrokerType;
  create(context: BrokerModuleContext): BrokerModule;
}

/** The shipped brokers; a new broker is one more line. */
export const BROKER_DEFINITIONS: readonly BrokerDefinition[] = [
  zerodhaBroker,
  upstoxBroker,
  fyersBroker,
  angeloneBroker,
  aliceblueBroker,
  growwBroker,
  dhanBroker,
];

/** `FEED` values of the registered brokers' market feeds → their broker. */
export function brokerFeeds(
  definitions: readonly BrokerDefinition[] = BROKER_DEFINITIONS,
): Readonly<Record<string, BrokerType>> {
  return Object.fromEntries(
    definitions.flatMap((d) => (d.feed === undefined ? [] : [[d.feed, d.type] as const])),
  );
}

export interface BrokerRegistry {
  /** the module of a broker type, only when one exists */
  get(type: string): BrokerModule | undefined;
  /** every registered module */
  modules(): readonly BrokerModule[];
  /**
   * every canonical broker type with whether it can be connected (registered modules first) and, for those that
   * can, how the trader logs in and what to set up at the broker (`publicUrl` makes the redirect URL)
   */
  offers(publicUrl: string): BrokerOfferDto[];
}

export interface BrokerRegistryOptions {
  /** where each broker is reached; a factory without endpoints is a configuration bug and fails the boot */
  endpoints: Partial<Record<BrokerType, BrokerEndpoints>>;
  algoTag: string;
  egressIp?: string;
  now: () => number;
  /** default BROKER_DEFINITIONS; tests pass a fake module */
  factories?: readonly BrokerModuleFactory[];
}

/** What the card and the landing page are told about one registered broker. */
function offerOf(module: BrokerModule, publicUrl: string): BrokerOfferDto {
  const form = module.formLogin;
  const redirect = module.redirectLogin !== undefined;
  return {
    type: module.type,
    label: module.label,
    available: true,
    loginKind: form === undefined ? 'redirect' : 'form',
    ...(form === undefined
      ? {}
      : { fields: [...form.fields], submitPath: FORM_LOGIN_SUBMIT_PATH, redirectLogin: redirect }),
    setup: {
      portal: { ...module.setup.portal },
      credentialLabels: { ...module.setup.credentialLabels },
      redirectUrl: redirect ? brokerRedirectUrl(publicUrl, module.type) : null,
      postbackUrl: module.postback === undefined ? null : brokerPostbackUrl(publicUrl, module.type),
      sessionEnds: module.setup.sessionEnds,
      notes: [...module.setup.notes],
    },
  };
}

/** Builds each module once, so the modules' shared state (instrument books, postback hubs) is one per server. */
export function createBrokerRegistry(options: BrokerRegistryOptions): BrokerRegistry {
  const byType = new Map<string, BrokerModule>();
  for (const factory of options.factories ?? BROKER_DEFINITIONS) {
    const endpoints = options.endpoints[factory.type];
    if (!endpoints) throw new Error(`broker ${factory.type} has a module but no configured endpoints`);
    const module = factory.create({
      endpoints,
      algoTag: options.algoTag,
      now: options.now,
      ...(options.egressIp === undefined ? {} : { egressIp: options.egressIp }),
    });
    if (module.type !== factory.type) {
      throw new Error(`broker factory ${factory.type} built a ${module.type} module`);
    }
    if (module.redirectLogin === undefined && module.formLogin === undefined) {
      throw new Error(`broker ${factory.type} has no login`);
    }
    byType.set(factory.type, module);
  }
  const modules = [...byType.values()];
  return {
    get: (type) => byType.get(type),
    modules: () => modules,
    offers: (publicUrl) => [
      ...modules.map((module) => offerOf(module, publicUrl)),
      ...BROKER_TYPES.filter((type) => !byType.has(type)).map((type): BrokerOfferDto => ({
        type,
        label: BROKER_LABELS[type],
        available: false,
        loginKind: null,
        setup: null,
      })),
    ],
  };
}

/** The server's registry from its configuration (`<BROKER>_*` endpoints, ALGO_TAG, EGRESS_IP). */
export function brokerRegistryFromConfig(
  config: {
    brokerEndpoints: Partial<Record<BrokerType, BrokerEndpoints>>;
    algoTag: string;
    egressIp: string | undefined;
  },
  now: () => number,
  factories?: readonly BrokerModuleFactory[],
): BrokerRegistry {
  return createBrokerRegistry({
    endpoints: config.brokerEndpoints,
    algoTag: config.algoTag,
    now,
    ...(config.egressIp === undefined ? {} : { egressIp: config.egressIp }),
    ...(factories ? { factories } : {}),
  });
}
