import { describe, expect, it } from 'vitest';
import { decodeDhanTokens, dhanAppOf, dhanExpiry, encodeDhanTokens } from './login';

const NOW = Date.parse('2026-11-24T10:00:00+05:30');

describe('Dhan login pieces', () => {
  it('reads the saved key as client id and API key', () => {
    expect(dhanAppOf({ apiKey: ' 1000000001:ab12cd ', apiSecret: 's' })).toEqual({
      clientId: '1000000001',
      appId: 'ab12cd',
      appSecret: 's',
    });
    expect(() => dhanAppOf({ apiKey: 'ab12cd', apiSecret: 's' })).toThrow(/CLIENTID:APIKEY/);
  });

  it("ends a session at Dhan's stamp, never later than 24 h from now", () => {
    expect(dhanExpiry('2026-11-25T09:00:00', NOW)).toBe(Date.parse('2026-11-25T09:00:00+05:30'));
    expect(dhanExpiry('25/11/2026 09:00', NOW)).toBe(Date.parse('2026-11-25T09:00:00+05:30'));
    expect(dhanExpiry('2026-11-30T09:00:00', NOW)).toBe(NOW + 24 * 3_600_000);
    expect(dhanExpiry(undefined, NOW)).toBe(NOW + 24 * 3_600_000);
    expect(dhanExpiry('2026-11-20T09:00:00', NOW)).toBe(NOW + 24 * 3_600_000);
  });

  it('stores the token with its client id, and treats any other stored form as an ended session', () => {
    const stored = encodeDhanTokens({ accessToken: 'tok', clientId: '1000000001' });
    expect(decodeDhanTokens(stored)).toEqual({ accessToken: 'tok', clientId: '1000000001' });
    expect(() => decodeDhanTokens('plain-token')).toThrow(expect.objectContaining({ kind: 'auth_expired' }));
  });
});
