// NATS nkeys (ed25519 keys written in base32 with a type prefix and a CRC-16 check), the part Groww's socket needs:
// a user key pair made per connection, its public key (`U…`) sent to Groww's socket-token call, and the server's
// nonce signed with it in CONNECT. Node's crypto does the ed25519; only the nkey text form is written here (the
// nats-io `nkeys.js` package does the same in ~600 lines for every key type; this is the 60 the socket uses).
import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
/** nkey prefix bytes: a user's public key starts `U`, a seed `S` */
const PREFIX_USER = 20 << 3;
const PREFIX_SEED = 18 << 3;
/** PKCS#8 DER wrapping of a raw 32-byte ed25519 seed */
const PKCS8_ED25519 = Buffer.from('302e020100300506032b657004220420', 'hex');

export function base32Encode(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = ((value << 8) | byte) & 0xffff;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

export function base32Decode(text: string): Buffer | undefined {
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const char of text) {
    const digit = BASE32.indexOf(char);
    if (digit < 0) return undefined;
    value = ((value << 5) | digit) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      out.push((value >> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** CRC-16/XMODEM (polynomial 0x1021, initial 0), the check nkeys append little-endian. */
export function crc16(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i += 1) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

function withCrc(body: Buffer): string {
  const crc = crc16(body);
  return base32Encode(Buffer.concat([body, Buffer.from([crc & 0xff, crc >> 8])]));
}

/** The raw 32-byte ed25519 key of a user's public nkey (`U…`); undefined when it is not one or its check fails. */
export function userPublicKeyBytes(nkey: string): Buffer | undefined {
  const raw = base32Decode(nkey);
  if (raw?.length !== 35 || raw[0] !== PREFIX_USER) return undefined;
  const crc = crc16(raw.subarray(0, 33));
  if (raw[33] !== (crc & 0xff) || raw[34] !== crc >> 8) return undefined;
  return raw.subarray(1, 33);
}

/** A user nkey pair: the public key for Groww's token call, the signature of the server's nonce. */
export class UserNkey {
  readonly publicKey: string;

  private constructor(private readonly privateKey: KeyObject) {
    const x = createPublicKey(privateKey).export({ format: 'jwk' }).x ?? '';
    this.publicKey = withCrc(Buffer.concat([Buffer.from([PREFIX_USER]), Buffer.from(x, 'base64url')]));
  }

  /** A fresh pair (Groww's SDK makes one per socket session). */
  static create(): UserNkey {
    return new UserNkey(generateKeyPairSync('ed25519').privateKey);
  }

  /** A pair from a user seed (`SU…`); for known vectors. */
  static fromSeed(seed: string): UserNkey {
    const raw = base32Decode(seed);
    if (
      raw?.length !== 36 ||
      raw[0] !== (PREFIX_SEED | (PREFIX_USER >> 5)) ||
      raw[1] !== (PREFIX_USER & 31) << 3
    ) {
      throw new Error('not a user nkey seed');
    }
    const key = createPrivateKey({
      key: Buffer.concat([PKCS8_ED25519, raw.subarray(2, 34)]),
      format: 'der',
      type: 'pkcs8',
    });
    return new UserNkey(key);
  }

  /** ed25519 signature of the nonce's bytes, base64url without padding (NATS CONNECT `sig`). */
  sign(nonce: string): string {
    return sign(null, Buffer.from(nonce, 'utf8'), this.privateKey).toString('base64url');
  }
}
