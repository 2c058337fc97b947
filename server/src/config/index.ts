// The one place environment variables are read: the schema declaring and documenting every variable (schema.ts),
// loading it into the typed Config (load.ts), and the operator's details, production readiness and the public
// subset (operator.ts). Importers take everything from here (`./config`).
export {
  DEFAULT_MAX_CONNECTIONS_PER_IP,
  envSchema,
  OPERATOR_PLACEHOLDERS,
  parseDurationMs,
  type Env,
  type OperatorVariable,
} from './schema';
export { ConfigError, loadConfig, type Config, type OperatorDetails } from './load';
export { assertProductionReady, operatorPublicDetails, publicConfig } from './operator';
