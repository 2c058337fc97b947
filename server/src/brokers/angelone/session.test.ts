import { describe, expect, it } from 'vitest';
import { istDateTime } from '@optionpilot/engine';
import { decodeAngelTokens, encodeAngelTokens, nextAngelExpiry } from './session';

describe('Angel One session', () => {
  it('ends at the next 00:00 IST, whenever the login was', () => {
    expect(nextAngelExpiry(istDateTime('2026-01-06', '09:05'))).toBe(istDateTime('2026-01-07', 0));
    expect(nextAngelExpiry(istDateTime('2026-01-06', '23:59'))).toBe(istDateTime('2026-01-07', 0));
    expect(nextAngelExpiry(istDateTime('2026-01-07', 0))).toBe(istDateTime('2026-01-08', 0));
  });

  it('keeps the JWT, the feed token and the client code in the opaque token, and refuses any other form', () => {
    const tokens = { jwt: 'j.w.t', feedToken: 'f', clientCode: 'A123456' };
    expect(decodeAngelTokens(encodeAngelTokens(tokens))).toEqual(tokens);
    expect(() => decodeAngelTokens('a-bare-token')).toThrow(
      expect.objectContaining({ kind: 'auth_expired' }),
    );
    expect(encodeAngelTokens(tokens)).not.toContain('refresh');
  });
});
