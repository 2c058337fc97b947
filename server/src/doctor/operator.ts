// The operator's business details (GST invoices, landing page, e-mails). Production refuses to start while any is a
// placeholder, so there it is a FAIL; elsewhere a WARN naming each variable still to set.
import { fail, ok, warn, type DoctorCheck } from './types';

export const operatorCheck: DoctorCheck = {
  name: 'operator',
  async run({ config }) {
    const missing = config.operatorPlaceholders;
    if (missing.length === 0) return ok(`${config.operator.legalName}, GSTIN ${config.operator.gstin}`);
    const message = `still placeholders: ${missing.join(', ')}`;
    const fix = 'set each of them in the env file (deploy/env.example shows all)';
    return config.nodeEnv === 'production'
      ? fail(`${message}: the server refuses to start in production`, fix)
      : warn(message, fix);
  },
};

/** EGRESS_IP: the static IP traders whitelist at their broker (SEBI's static-IP rule). */
export const egressIpCheck: DoctorCheck = {
  name: 'egress-ip',
  async run({ config }) {
    if (config.egressIp !== undefined) {
      return ok(`EGRESS_IP ${config.egressIp}: traders whitelist this IP in their broker app`);
    }
    return warn(
      'EGRESS_IP is not set: traders cannot be told which IP to whitelist, and brokers refuse orders from others',
      "set EGRESS_IP to this VPS's static public IP (`curl -4 ifconfig.me`)",
    );
  },
};
