// Razorpay: which mode payments run in (no keys = the built-in test mode, rzp_test_ = Razorpay's sandbox, rzp_live_
// = real money) and whether its API answers at all. Any HTTP answer from the API root counts as reachable — the
// check sends no credentials; only a network error or timeout is a WARN.
import { ok, warn, type DoctorCheck } from './types';

/** Whether `apiRoot` answers HTTP within `timeoutMs`; resolves with the status or rejects with why not. */
async function reach(apiRoot: string, timeoutMs: number): Promise<number> {
  const res = await fetch(apiRoot, { signal: AbortSignal.timeout(timeoutMs), redirect: 'manual' });
  await res.body?.cancel();
  return res.status;
}

export const razorpayCheck: DoctorCheck = {
  name: 'razorpay',
  async run({ config, timeoutMs }) {
    const razorpay = config.razorpay;
    if (razorpay === undefined) {
      return warn(
        'payment test mode (no Razorpay keys): checkouts are signed by the server, no money moves',
        'set RAZORPAY_KEY_ID, RAZORPAY_KEY_SECRET and RAZORPAY_WEBHOOK_SECRET (dashboard.razorpay.com, API Keys)',
      );
    }
    const live = razorpay.keyId.startsWith('rzp_live_');
    const mode = live ? 'live keys' : 'test keys (Razorpay sandbox, no real money)';
    let status: number;
    try {
      status = await reach(razorpay.apiRoot, timeoutMs);
    } catch (err) {
      const why =
        err instanceof Error && err.name === 'TimeoutError'
          ? `no answer within ${timeoutMs} ms`
          : String(err instanceof Error ? (err.cause ?? err.message) : err);
      return warn(
        `${mode}; ${razorpay.apiRoot} not reachable: ${why}`,
        'allow outbound HTTPS to api.razorpay.com',
      );
    }
    const message = `${mode}; ${razorpay.apiRoot} answers (HTTP ${status})`;
    if (!live) return warn(message, 'switch to rzp_live_ keys before taking real payments');
    if (razorpay.webhookSecret === undefined) {
      return warn(
        `${message}; RAZORPAY_WEBHOOK_SECRET unset`,
        'set RAZORPAY_WEBHOOK_SECRET and the webhook in the Razorpay dashboard',
      );
    }
    return ok(message);
  },
};
