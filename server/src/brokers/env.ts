// Each broker's environment block, built from its definition so that adding a broker adds its variables to the one
// validated configuration without editing config/schema.ts. One rule for every broker (ARCHITECTURE.md, Configuration):
// `<PREFIX>_API_ROOT`, `_WS_ROOT`, `_ORDERS_ROOT` and `_MASTER_ROOT` are scheme + host (+ port) only, and the module
// appends the broker's documented paths unchanged; `<PREFIX>_LOGIN_URL` is the full documented login URL.
import { z } from 'zod';
import type { BrokerDefinition, BrokerEndpoints, BrokerType } from './types';

/** The root variables a definition may have, and the protocols each accepts. */
const ROOTS = {
  apiRoot: { suffix: 'API_ROOT', protocols: ['http:', 'https:'] },
  wsRoot: { suffix: 'WS_ROOT', protocols: ['ws:', 'wss:', 'http:', 'https:'] },
  ordersRoot: { suffix: 'ORDERS_ROOT', protocols: ['http:', 'https:'] },
  masterRoot: { suffix: 'MASTER_ROOT', protocols: ['http:', 'https:'] },
} as const;

type RootKey = keyof typeof ROOTS;

/** Whether `value` is a URL of one of `protocols` with nothing after the host and port. */
function isRoot(value: string, protocols: readonly string[]): boolean {
  try {
    const url = new URL(value);
    return (
      protocols.includes(url.protocol) &&
      (url.pathname === '/' || url.pathname === '') &&
      url.search === '' &&
      url.hash === '' &&
      url.username === '' &&
      url.password === ''
    );
  } catch {
    return false;
  }
}

function rootSchema(fallback: string, protocols: readonly string[]) {
  return z
    .string()
    .default(fallback)
    .refine(
      (v) => isRoot(v, protocols),
      `must be scheme + host (+ port) only, like ${fallback} (the documented paths are appended)`,
    )
    .transform((v) => v.replace(/\/+$/, ''));
}

function loginUrlSchema(fallback: string) {
  return z
    .string()
    .default(fallback)
    .refine((v) => {
      try {
        return ['http:', 'https:'].includes(new URL(v).protocol);
      } catch {
        return false;
      }
    }, `must be the full login URL, like ${fallback}`);
}

/** The variables of one broker: name → schema. */
function variablesOf(definition: BrokerDefinition): Record<string, z.ZodType<string>> {
  const { prefix, defaults } = definition.env;
  const shape: Record<string, z.ZodType<string>> = {
    [`${prefix}_LOGIN_URL`]: loginUrlSchema(defaults.loginUrl),
  };
  for (const key of Object.keys(ROOTS) as RootKey[]) {
    const fallback = defaults[key];
    if (fallback === undefined) continue;
    shape[`${prefix}_${ROOTS[key].suffix}`] = rootSchema(fallback, ROOTS[key].protocols);
  }
  return shape;
}

/** The zod shape of every registered broker's variables, merged into the configuration schema. */
export function brokerEnvShape(definitions: readonly BrokerDefinition[]): Record<string, z.ZodType<string>> {
  return Object.assign({}, ...definitions.map(variablesOf)) as Record<string, z.ZodType<string>>;
}

/** Every registered broker's endpoints from the parsed variables. */
export function brokerEndpointsOf(
  definitions: readonly BrokerDefinition[],
  parsed: Readonly<Record<string, unknown>>,
): Partial<Record<BrokerType, BrokerEndpoints>> {
  const endpoints: Partial<Record<BrokerType, BrokerEndpoints>> = {};
  for (const definition of definitions) {
    const { prefix, defaults } = definition.env;
    const value = (suffix: string): string => String(parsed[`${prefix}_${suffix}`]);
    const optional = (key: 'ordersRoot' | 'masterRoot') =>
      defaults[key] === undefined ? {} : { [key]: value(ROOTS[key].suffix) };
    endpoints[definition.type] = {
      apiRoot: value('API_ROOT'),
      loginUrl: value('LOGIN_URL'),
      wsRoot: value('WS_ROOT'),
      ...optional('ordersRoot'),
      ...optional('masterRoot'),
    };
  }
  return endpoints;
}

/** The names of every broker variable, e.g. for launchers that clear a developer's shell settings. */
export function brokerEnvNames(definitions: readonly BrokerDefinition[]): string[] {
  return definitions.flatMap((d) => Object.keys(variablesOf(d)));
}
