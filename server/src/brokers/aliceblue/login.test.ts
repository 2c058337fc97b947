import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { BrokerError } from '@optionpilot/engine';
import { aliceCheckSum, aliceLoginUrl, decodeAliceTokens, encodeAliceTokens } from './login';

describe('Alice Blue vendor login', () => {
  it('sends the browser to the login page with the app code and the state', () => {
    const url = new URL(aliceLoginUrl('https://ant.aliceblueonline.com/', 'APPCODE1', 'st-1'));
    expect(url.origin).toBe('https://ant.aliceblueonline.com');
    expect(url.searchParams.get('appcode')).toBe('APPCODE1');
    expect(url.searchParams.get('state')).toBe('st-1');
  });

  it('checksums user id, auth code and secret in that order', () => {
    const expected = createHash('sha256')
      .update('AB123' + 'CODE9' + 'sec')
      .digest('hex');
    expect(aliceCheckSum('AB123', 'CODE9', 'sec')).toBe(expected);
    expect(aliceCheckSum('CODE9', 'AB123', 'sec')).not.toBe(expected);
  });

  it('keeps the client id and user session in the stored token, and refuses any other form', () => {
    const token = encodeAliceTokens({ userId: 'AB123', userSession: 'sess' });
    expect(decodeAliceTokens(token)).toEqual({ userId: 'AB123', userSession: 'sess' });
    expect(() => decodeAliceTokens('plain-token')).toThrow(BrokerError);
    try {
      decodeAliceTokens('{"v":2}');
    } catch (error) {
      expect((error as BrokerError).kind).toBe('auth_expired');
    }
  });
});
