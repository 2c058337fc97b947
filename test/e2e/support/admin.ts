// Set-up shortcuts for the admin panel specs: the first admin's token, a trader with an active subscription and
// the bot switched on (through the same calls the dashboard makes), all over the API of the product under test.
import type { APIRequestContext } from '@playwright/test';
import { expect } from './fixtures';
import { newPerson, registerViaApi, type Person } from './app';

export interface Admin {
  email: string;
  password: string;
  token: string;
}

/** Creates the first admin (works once per database) and signs it in through the admin endpoint. */
export async function createAdmin(request: APIRequestContext): Promise<Admin> {
  const init = await request.post('/api/init-admin');
  expect(init.status(), await init.text()).toBe(201);
  const { email, password } = (await init.json()) as { email: string; password: string };
  const login = await request.post('/api/auth/admin-login', { data: { email, password } });
  expect(login.status(), await login.text()).toBe(200);
  const { token } = (await login.json()) as { token: string };
  return { email, password, token };
}

export function bearer(token: string) {
  return { Authorization: `Bearer ${token}` };
}

/** A new trader (`person`, default a unique one); with `subscribed`, paid in test mode and the bot switched on. */
export async function newTrader(
  request: APIRequestContext,
  firstName: string,
  subscribed: boolean,
  person: Person = newPerson(firstName),
  /** false: subscribed, but the bot stays off (a live spec turns it on once Live is chosen) */
  botOn = true,
): Promise<{ person: Person; token: string }> {
  const token = await registerViaApi(request, person);
  if (!subscribed) return { person, token };
  const headers = bearer(token);
  const order = await request.post('/api/payment/create-order', { headers, data: { amount: 5899 } });
  expect(order.status(), await order.text()).toBe(200);
  const { id } = (await order.json()) as { id: string };
  const checkout = await request.post('/api/payment/test-checkout', { headers, data: { orderId: id } });
  expect(checkout.status(), await checkout.text()).toBe(200);
  const verify = await request.post('/api/payment/verify', { headers, data: await checkout.json() });
  expect(verify.status(), await verify.text()).toBe(200);
  const settings = await request.put('/api/user/trading-settings', {
    headers,
    data: { orderType: 'SLM', targetSetting: 40, tradeQuantity: 1 },
  });
  expect(settings.status(), await settings.text()).toBe(200);
  if (botOn) await setBotSwitch(request, token, true);
  return { person, token };
}

/** The trader's bot switch, as the dashboard's switch sets it. */
export async function setBotSwitch(
  request: APIRequestContext,
  token: string,
  enabled: boolean,
): Promise<void> {
  const bot = await request.put('/api/user/bot', { headers: bearer(token), data: { enabled } });
  expect(bot.status(), await bot.text()).toBe(200);
}

/**
 * Quick signals, for specs that need a trade but are not about the strategy: one bullish minute arms a CALL, one
 * point of movement and entry offset, so an eligible account trades within seconds. On the default parameters the
 * seeded market at SIM_SPEED 300 takes up to 68 s for a first trade (test/e2e/README.md). `admin`:
 * a spec's own admin; without it the server's first admin is created here.
 */
export async function quickSignals(request: APIRequestContext, admin?: Admin): Promise<void> {
  const { token } = admin ?? (await createAdmin(request));
  for (const [name, value] of [
    ['consecutiveCandles', '1'],
    ['minMovement', '1'],
    ['entryOffset', '1'],
  ] as const) {
    const saved = await request.put(`/api/admin/control/${name}`, {
      headers: bearer(token),
      data: { value },
    });
    expect(saved.status(), await saved.text()).toBe(200);
  }
}

/** The trader's broker session as the server presents it to the dashboard's card (`GET /api/user/broker`). */
export async function brokerSessionOf(request: APIRequestContext, token: string): Promise<string | null> {
  const response = await request.get('/api/user/broker', { headers: bearer(token) });
  expect(response.status(), await response.text()).toBe(200);
  const body = (await response.json()) as { session: string } | null;
  return body?.session ?? null;
}
