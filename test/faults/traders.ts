// Traders set up through the public API, as a person would: register, pay in payment test mode (create-order →
// test-checkout → verify) and switch the bot on. Shared by the crash trials and the contention run.
import { api, type ApiResponse } from './product';

export const TRADER_PASSWORD = 'FaultTrial1';

export interface Checkout {
  token: string;
  /** the signed checkout result, exactly what the browser sends to /api/payment/verify */
  body: Record<string, unknown>;
}

function expectStatus(what: string, res: ApiResponse, status: number): void {
  if (res.status !== status) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.json)}`);
}

/** Registers trader `n`; returns their token. */
export async function registerTrader(url: string, n: number): Promise<string> {
  const res = await api(url, 'POST', '/api/auth/register', {
    body: {
      firstName: 'Fault',
      lastName: `Trader ${n}`,
      email: `fault${n}@trial.example.com`,
      phone: `98765${String(20_000 + n).slice(-5)}`,
      password: TRADER_PASSWORD,
    },
  });
  expectStatus('register', res, 201);
  return res.json.token as string;
}

/** A new order signed by the test-mode checkout, not yet verified. */
export async function checkout(url: string, token: string): Promise<Checkout> {
  const order = await api(url, 'POST', '/api/payment/create-order', { token, body: {} });
  expectStatus('create-order', order, 200);
  const signed = await api(url, 'POST', '/api/payment/test-checkout', {
    token,
    body: { orderId: order.json.id },
  });
  expectStatus('test-checkout', signed, 200);
  return { token, body: signed.json };
}

export function verify(url: string, paid: Checkout): Promise<ApiResponse> {
  return api(url, 'POST', '/api/payment/verify', { token: paid.token, body: paid.body });
}

/** Registers, pays and switches the bot on for `count` traders; returns their tokens. */
export async function activeTraders(url: string, count: number): Promise<string[]> {
  const tokens: string[] = [];
  for (let n = 0; n < count; n += 1) {
    const token = await registerTrader(url, n);
    expectStatus('verify', await verify(url, await checkout(url, token)), 200);
    expectStatus('bot on', await api(url, 'PUT', '/api/user/bot', { token, body: { enabled: true } }), 200);
    tokens.push(token);
  }
  return tokens;
}
