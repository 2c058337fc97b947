import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { istDateTime } from '@optionpilot/engine';
import { appIdHash, completeFyersLogin, fyersLoginUrl, nextFyersExpiry } from './login';

describe('Fyers login', () => {
  it('sends the browser to generate-authcode with the app id, redirect URI, response type and state', () => {
    const url = new URL(
      fyersLoginUrl('https://api-t1.fyers.in/api/v3/generate-authcode', {
        appId: 'XB12345-100',
        state: 's t&a',
        redirectUri: 'https://op.example/broker/fyers/callback',
      }),
    );
    expect(url.origin + url.pathname).toBe('https://api-t1.fyers.in/api/v3/generate-authcode');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: 'XB12345-100',
      redirect_uri: 'https://op.example/broker/fyers/callback',
      response_type: 'code',
      state: 's t&a',
    });
  });

  it('hashes app id and secret as hex(sha256(app_id:app_secret))', () => {
    expect(appIdHash('XB12345-100', 'S3CR3T')).toBe(
      createHash('sha256').update('XB12345-100:S3CR3T').digest('hex'),
    );
    expect(appIdHash('XB12345-100', 'S3CR3T')).toMatch(/^[0-9a-f]{64}$/);
  });

  it('ends sessions at the next 06:00 IST', () => {
    const before = istDateTime('2026-11-24', '05:59');
    const after = istDateTime('2026-11-24', '09:15');
    expect(nextFyersExpiry(before)).toBe(istDateTime('2026-11-24', '06:00'));
    expect(nextFyersExpiry(after)).toBe(istDateTime('2026-11-25', '06:00'));
  });

  it('refuses a callback without an auth code (the trader cancelled) without calling Fyers', async () => {
    const error = await completeFyersLogin({
      apiRoot: 'http://127.0.0.1:9',
      credentials: { apiKey: 'XB12345-100', apiSecret: 'S3CR3T' },
      query: { s: 'error', code: '-374', state: 'x' },
      now: Date.now(),
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'rejected', code: '-374', broker: 'fyers' });
  });
});
