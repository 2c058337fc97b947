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
  const bot = await request.put('/api/user/bot', { headers, data: { enabled: true } });
  expect(bot.status(), await bot.text()).toBe(200);
  return { person, token };
}
