// The operator's details once loaded: production's refusal to start on the placeholders they ship with, and what
// of the configuration the browser may see (`GET /api/config`, the supplier block of invoices).
import type { PublicConfigDto } from '../contract';
import { ConfigError, type Config, type OperatorDetails } from './load';
import type { OperatorVariable } from './schema';

/** What each operator variable is, for the message that names the ones production still lacks. */
const OPERATOR_VARIABLE_MEANING: Record<OperatorVariable, string> = {
  OPERATOR_LEGAL_NAME: 'the registered (legal) name printed on invoices and pages',
  OPERATOR_ADDRESS: 'the registered postal address printed on invoices and the footer',
  OPERATOR_GSTIN: "the operator's GSTIN printed on tax invoices",
  SUPPORT_EMAIL: 'the support e-mail shown on the landing page, footer and invoices',
  SUPPORT_PHONE: 'the support phone shown on the landing page, footer and invoices',
  SUPPORT_HOURS:
    'the support hours shown on the landing page and footer, e.g. "Monday-Saturday 9:00 AM-7:00 PM IST"',
};

/**
 * Production must not print placeholders on tax invoices and pages: throws a ConfigError naming every operator
 * variable still at its placeholder (and a state code that contradicts the GSTIN). Other modes pass.
 */
export function assertProductionReady(config: Config): void {
  if (config.nodeEnv !== 'production') return;
  const lines = config.operatorPlaceholders.map(
    (name) => `  ${name}: must be set for NODE_ENV=production: ${OPERATOR_VARIABLE_MEANING[name]}`,
  );
  const { gstin, stateCode } = config.operator;
  if (!config.operatorPlaceholders.includes('OPERATOR_GSTIN') && !gstin.startsWith(stateCode)) {
    lines.push(
      `  OPERATOR_STATE_CODE: must be the state code of OPERATOR_GSTIN (${gstin.slice(0, 2)}), not ${stateCode}`,
    );
  }
  if (lines.length === 0) return;
  throw new ConfigError(
    `Invalid configuration: the operator's details are still placeholders; set them before starting in production:\n${lines.join('\n')}`,
  );
}

/** The explicit list of settings the browser may see (`GET /api/config`); nothing else of Config leaves the server. */
export function publicConfig(config: Config): PublicConfigDto {
  return {
    version: config.version,
    paymentTestMode: config.razorpay === undefined,
    razorpayKeyId: config.razorpay?.keyId ?? null,
    feed: { kind: config.feed.split(':')[0] ?? config.feed, simulated: config.feed === 'sim' },
    sessionMode: config.simSession,
    demoAvailable: config.demo === 'on',
    operator: operatorPublicDetails(config.operator),
  };
}

/** The operator's details as shown to anyone: landing page, footer, and the supplier block of invoices. */
export function operatorPublicDetails(operator: OperatorDetails): PublicConfigDto['operator'] {
  return {
    legalName: operator.legalName,
    address: operator.address,
    stateCode: operator.stateCode,
    gstin: operator.gstin,
    supportEmail: operator.supportEmail,
    supportPhone: operator.supportPhone,
    supportHours: operator.supportHours,
  };
}
