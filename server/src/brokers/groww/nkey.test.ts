import { describe, expect, it } from 'vitest';
import { base32Decode, base32Encode, crc16, UserNkey, userPublicKeyBytes } from './nkey';

// The user seed and public key NATS documents as its nkeys example.
const DOC_SEED = 'SUACSSL3UAHUDXKFSNVUZRF5UHPMWZ6BFDTJ7M6USDXIEDNPPQYYYCU3VY';
const DOC_PUBLIC = 'UDXU4RCSJNZOIQHZNWXHXORDPRTGNJAHAHFRGZNEEJCPQTT2M7NLCNF4';

// RFC 8032 §7.1, test 1: the secret key, and the signature of the empty message.
const RFC_SECRET = '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60';
const RFC_SIGNATURE =
  'e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b';

/** A user seed (`SU…`) of raw key bytes, written as nkeys write one. */
function userSeed(raw: Buffer): string {
  const body = Buffer.concat([Buffer.from([(18 << 3) | ((20 << 3) >> 5), ((20 << 3) & 31) << 3]), raw]);
  const crc = crc16(body);
  return base32Encode(Buffer.concat([body, Buffer.from([crc & 0xff, crc >> 8])]));
}

describe('nkeys', () => {
  it('computes CRC-16/XMODEM (check value of "123456789" is 0x31C3)', () => {
    expect(crc16(Buffer.from('123456789'))).toBe(0x31c3);
  });

  it('round-trips base32 and refuses letters outside the alphabet', () => {
    const bytes = Buffer.from([0, 1, 2, 250, 251, 252, 253]);
    expect(base32Decode(base32Encode(bytes))).toEqual(bytes);
    expect(base32Decode('AB1')).toBeUndefined();
  });

  it('derives the documented public key from the documented seed', () => {
    expect(UserNkey.fromSeed(DOC_SEED).publicKey).toBe(DOC_PUBLIC);
    expect(() => UserNkey.fromSeed(DOC_PUBLIC)).toThrow();
  });

  it('signs as ed25519 does (RFC 8032 test 1), base64url', () => {
    const key = UserNkey.fromSeed(userSeed(Buffer.from(RFC_SECRET, 'hex')));
    expect(key.sign('')).toBe(Buffer.from(RFC_SIGNATURE, 'hex').toString('base64url'));
  });

  it('reads a public key back, and refuses one whose check fails or that is not a user key', () => {
    const key = UserNkey.create();
    expect(key.publicKey).toMatch(/^U[A-Z2-7]{55}$/);
    expect(userPublicKeyBytes(key.publicKey)).toHaveLength(32);
    const flipped = `${key.publicKey.slice(0, 10)}${key.publicKey[10] === 'A' ? 'B' : 'A'}${key.publicKey.slice(11)}`;
    expect(userPublicKeyBytes(flipped)).toBeUndefined();
    expect(userPublicKeyBytes(DOC_SEED)).toBeUndefined();
  });
});
