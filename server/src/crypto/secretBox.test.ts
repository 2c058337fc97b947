import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createSecretBox, last4, mask, SecretBoxError, sha256Hex } from './secretBox';

const key = randomBytes(32);

describe('createSecretBox', () => {
  it('round-trips any string and never repeats a ciphertext', () => {
    const box = createSecretBox(key);
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (plaintext) => {
        const sealed = box.seal(plaintext);
        expect(sealed).toMatch(/^v1:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]*$/);
        expect(box.open(sealed)).toBe(plaintext);
      }),
    );
    expect(box.seal('same')).not.toBe(box.seal('same'));
    expect(box.seal('kite-api-secret')).not.toContain('kite');
  });

  it('detects a changed ciphertext, tag or IV', () => {
    const box = createSecretBox(key);
    const sealed = box.seal('access-token-123456');
    const parts = sealed.split(':');
    const flip = (b64: string) => {
      const bytes = Buffer.from(b64, 'base64');
      bytes[0] = bytes[0]! ^ 0x01;
      return bytes.toString('base64');
    };
    for (const index of [1, 2, 3]) {
      const tampered = parts.map((p, i) => (i === index ? flip(p) : p)).join(':');
      expect(() => box.open(tampered)).toThrow(SecretBoxError);
    }
  });

  it('refuses another key, malformed input and a wrong key length', () => {
    const sealed = createSecretBox(key).seal('secret');
    expect(() => createSecretBox(randomBytes(32)).open(sealed)).toThrow(SecretBoxError);
    expect(() => createSecretBox(key).open('secret')).toThrow(SecretBoxError);
    expect(() => createSecretBox(key).open(sealed.replace(/^v1/, 'v2'))).toThrow(SecretBoxError);
    expect(() => createSecretBox(key).open('v1:AAAA:BBBB:CCCC')).toThrow(SecretBoxError);
    expect(() => createSecretBox(randomBytes(16))).toThrow(SecretBoxError);
  });
});

describe('mask', () => {
  it('shows only the last 4 characters of a secret', () => {
    expect(mask('abcdefghijklmnop')).toBe('••••mnop');
    expect(mask('123456789')).toBe('••••6789');
    expect(mask('')).toBe('');
    expect(mask(null)).toBe('');
  });

  it('never shows more than half of a short secret', () => {
    expect(mask('abcd')).toBe('••••cd');
    expect(mask('abcdefgh')).toBe('••••efgh');
    expect(mask('x')).toBe('••••');
  });

  it('last4 and sha256Hex', () => {
    expect(last4('abcdef')).toBe('cdef');
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
