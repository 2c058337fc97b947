import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAngelFake, type AngelFake } from '../../../../test/fakes/angelone/server';
import { totp } from '../../../../test/fakes/angelone/totp';
import { angelPublisherLoginUrl, completeAngelFormLogin, completeAngelRedirectLogin } from './login';
import { decodeAngelTokens, nextAngelExpiry } from './session';

const ACCOUNT = {
  apiKey: 'loginkey1',
  clientCode: 'D60469252',
  mpin: '1357',
  totpSecret: 'KRSXG5CTMVRXEZLUKRSXG5CTMVRXEZLU',
  name: 'Divya Iyer',
  redirectUrl: 'http://127.0.0.1:9/broker/angelone/callback',
};

describe('Angel One login', () => {
  let fake: AngelFake;
  const context = () => ({ apiRoot: fake.url, macAddress: '02:00:00:00:00:01', now: Date.now() });
  const credentials = { apiKey: ACCOUNT.apiKey, apiSecret: 'unused-secret' };
  beforeAll(async () => {
    fake = await startAngelFake({ accounts: [ACCOUNT] });
  });
  afterAll(() => fake.close());

  it('logs in with client code, MPIN and TOTP: the account from the profile, the session until midnight IST', async () => {
    const ctx = context();
    const session = await completeAngelFormLogin(ctx, {
      credentials,
      values: { clientCode: ACCOUNT.clientCode, mpin: ACCOUNT.mpin, totp: totp(ACCOUNT.totpSecret) },
    });
    expect(session).toMatchObject({
      accountId: ACCOUNT.clientCode,
      accountName: ACCOUNT.name,
      expiresAt: nextAngelExpiry(ctx.now),
    });
    const tokens = decodeAngelTokens(session.accessToken);
    expect(tokens.clientCode).toBe(ACCOUNT.clientCode);
    // The login went with the MPIN in Angel's `password` field and the app key as X-PrivateKey.
    const login = fake.requests.find((r) => r.path.endsWith('/loginByPassword'));
    expect(login?.headers['x-privatekey']).toBe(ACCOUNT.apiKey);
  });

  it('fails as rejected on a wrong MPIN or TOTP, by Angel code', async () => {
    await expect(
      completeAngelFormLogin(context(), {
        credentials,
        values: { clientCode: ACCOUNT.clientCode, mpin: '0000', totp: totp(ACCOUNT.totpSecret) },
      }),
    ).rejects.toMatchObject({ kind: 'rejected', code: 'AB1007' });
    await expect(
      completeAngelFormLogin(context(), {
        credentials,
        values: { clientCode: ACCOUNT.clientCode, mpin: ACCOUNT.mpin, totp: '000000' },
      }),
    ).rejects.toMatchObject({ kind: 'rejected', code: 'AB1050' });
  });

  it('sends the browser to the publisher login with the key and state, and takes the tokens it brings back', async () => {
    const url = angelPublisherLoginUrl(`${fake.url}/publisher-login`, ACCOUNT.apiKey, 'st4te');
    const page = await fetch(url, { redirect: 'manual' });
    const query = Object.fromEntries(new URL(page.headers.get('location') ?? '').searchParams);
    expect(query.state).toBe('st4te');
    const session = await completeAngelRedirectLogin(context(), { credentials, query });
    expect(session).toMatchObject({ accountId: ACCOUNT.clientCode, accountName: ACCOUNT.name });
    expect(decodeAngelTokens(session.accessToken).jwt).toBe(query.auth_token);
    await expect(
      completeAngelRedirectLogin(context(), { credentials, query: { state: 'st4te' } }),
    ).rejects.toMatchObject({ kind: 'rejected', code: 'NO_TOKEN' });
    await expect(
      completeAngelRedirectLogin(context(), {
        credentials,
        query: { auth_token: 'forged', feed_token: 'x' },
      }),
    ).rejects.toMatchObject({ kind: 'auth_expired' });
  });
});
