import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BrokerError } from '@optionpilot/engine';
import { startFakeUpstox } from '../../../../test/fakes/upstox/server';
import type { FakeUpstox } from '../../../../test/fakes/upstox/server';
import type { BrokerModule } from '../types';
import { upstoxModule } from './index';
import { upstoxTokenExpiry } from './login';

const REDIRECT = 'http://127.0.0.1:3926/broker/upstox/callback';
const NOW = Date.parse('2026-11-24T10:00:00+05:30');

let fake: FakeUpstox;
let module: BrokerModule;

beforeEach(async () => {
  fake = await startFakeUpstox();
  module = upstoxModule({
    endpoints: fake.endpoints,
    algoTag: 'OPTIONPILOT',
    now: () => NOW,
  });
});

afterEach(async () => {
  await fake.close();
});

/** Plays the browser: follows the dialog's redirect and returns the callback query. */
async function authorize(url: string): Promise<Record<string, string>> {
  const response = await fetch(url, { redirect: 'manual' });
  expect(response.status).toBe(302);
  const back = new URL(response.headers.get('location') ?? '');
  expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
  return Object.fromEntries(back.searchParams);
}

describe('upstox login', () => {
  const credentials = () => ({ apiKey: fake.apiKey, apiSecret: fake.apiSecret });

  it('builds the OAuth2 dialog URL with the client id, redirect and state', () => {
    const url = new URL(
      module.redirectLogin!.url({ credentials: credentials(), state: 'st-123', redirectUri: REDIRECT }),
    );
    expect(`${url.origin}${url.pathname}`).toBe(fake.loginUrl);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      client_id: fake.apiKey,
      redirect_uri: REDIRECT,
      state: 'st-123',
    });
  });

  it('exchanges the callback code for a session that ends at the next 03:30 IST', async () => {
    const query = await authorize(
      module.redirectLogin!.url({ credentials: credentials(), state: 'st-1', redirectUri: REDIRECT }),
    );
    expect(module.redirectLogin!.stateOf(query)).toBe('st-1');
    const session = await module.redirectLogin!.complete({
      credentials: credentials(),
      query,
      redirectUri: REDIRECT,
    });
    expect(session).toMatchObject({ accountId: fake.userId, accountName: fake.userName });
    expect(session.accessToken).toMatch(/^fake-upstox-/);
    expect(session.expiresAt).toBe(Date.parse('2026-11-25T03:30:00+05:30'));
    const exchange = fake.requests.find((r) => r.path === '/v2/login/authorization/token');
    expect(Object.fromEntries(new URLSearchParams(exchange?.body))).toEqual({
      code: query.code,
      client_id: fake.apiKey,
      client_secret: fake.apiSecret,
      redirect_uri: REDIRECT,
      grant_type: 'authorization_code',
    });
  });

  it('refuses a code used twice, a wrong secret and a callback without a code', async () => {
    const query = await authorize(
      module.redirectLogin!.url({ credentials: credentials(), state: 's', redirectUri: REDIRECT }),
    );
    await module.redirectLogin!.complete({ credentials: credentials(), query, redirectUri: REDIRECT });
    const again = module.redirectLogin!.complete({
      credentials: credentials(),
      query,
      redirectUri: REDIRECT,
    });
    await expect(again).rejects.toMatchObject({ kind: 'rejected', code: 'UDAPI100016' });

    const second = await authorize(
      module.redirectLogin!.url({ credentials: credentials(), state: 's', redirectUri: REDIRECT }),
    );
    const wrong = { apiKey: fake.apiKey, apiSecret: 'not-the-secret' };
    await expect(
      module.redirectLogin!.complete({ credentials: wrong, query: second, redirectUri: REDIRECT }),
    ).rejects.toBeInstanceOf(BrokerError);
    // The code was spent by the failed exchange: single-use even then.
    await expect(
      module.redirectLogin!.complete({ credentials: credentials(), query: second, redirectUri: REDIRECT }),
    ).rejects.toMatchObject({
      code: 'UDAPI100016',
    });
    await expect(
      module.redirectLogin!.complete({
        credentials: credentials(),
        query: { state: 's' },
        redirectUri: REDIRECT,
      }),
    ).rejects.toMatchObject({
      kind: 'rejected',
      code: 'NO_CODE',
    });
  });
});

describe('upstoxTokenExpiry', () => {
  it('is the next 03:30 IST after the login', () => {
    expect(upstoxTokenExpiry(Date.parse('2026-11-24T09:00:00+05:30'))).toBe(
      Date.parse('2026-11-25T03:30:00+05:30'),
    );
    expect(upstoxTokenExpiry(Date.parse('2026-11-24T23:59:00+05:30'))).toBe(
      Date.parse('2026-11-25T03:30:00+05:30'),
    );
    expect(upstoxTokenExpiry(Date.parse('2026-11-24T03:30:00+05:30'))).toBe(
      Date.parse('2026-11-25T03:30:00+05:30'),
    );
    expect(upstoxTokenExpiry(Date.parse('2026-11-24T01:00:00+05:30'))).toBe(
      Date.parse('2026-11-24T03:30:00+05:30'),
    );
  });
});
