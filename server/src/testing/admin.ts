// Admin API test helpers: the first admin (init-admin + admin-login) and registered traders, as tokens and ids.
import { registration, type TestServer } from './server';

export interface Caller {
  id: number;
  token: string;
  email: string;
}

/** Creates the first admin of a fresh server and signs it in. */
export async function signInFirstAdmin(t: Pick<TestServer, 'request'>): Promise<Caller> {
  const init = await t.request('POST', '/api/init-admin');
  if (init.status !== 201) throw new Error(`init-admin failed: ${init.status} ${init.text}`);
  const email = init.json.email as string;
  const login = await t.request('POST', '/api/auth/admin-login', {
    body: { email, password: init.json.password },
  });
  if (login.status !== 200) throw new Error(`admin-login failed: ${login.status} ${login.text}`);
  const user = login.json.user as { id: number };
  return { id: user.id, token: login.json.token as string, email };
}

/** Registers trader `n` (asha<n>@example.com) and returns it signed in. */
export async function registerTrader(t: Pick<TestServer, 'request'>, n: number | string): Promise<Caller> {
  const body = registration(n);
  const res = await t.request('POST', '/api/auth/register', { body });
  if (res.status !== 201 && res.status !== 200) throw new Error(`register failed: ${res.status} ${res.text}`);
  const user = res.json.user as { id: number };
  return { id: user.id, token: res.json.token as string, email: body.email };
}
