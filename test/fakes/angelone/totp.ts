// RFC 6238 TOTP (HMAC-SHA1, 30-second steps, 6 digits) over a base32 secret — what an authenticator app shows for
// the QR code Angel One's "Enable TOTP" page gives. The fake checks logins with it and tests compute the code a
// trader would type; no dependency needed for 20 lines.
import { createHmac } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** The bytes of an RFC 4648 base32 text (case and padding ignored). */
export function base32Decode(text: string): Buffer {
  const clean = text.toUpperCase().replace(/=+$/, '').replace(/\s+/g, '');
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const ch of clean) {
    const index = ALPHABET.indexOf(ch);
    if (index < 0) throw new Error('base32: invalid character');
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** The HOTP value (RFC 4226) of `key` at `counter`, as `digits` digits. */
export function hotp(key: Buffer, counter: number, digits = 6): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac('sha1', key).update(message).digest();
  const offset = (mac[mac.length - 1] ?? 0) & 0x0f;
  const code = (mac.readUInt32BE(offset) & 0x7fffffff) % 10 ** digits;
  return String(code).padStart(digits, '0');
}

/** The 6-digit TOTP of a base32 secret at `time` (epoch ms). */
export function totp(secretBase32: string, time = Date.now()): string {
  return hotp(base32Decode(secretBase32), Math.floor(time / 30_000));
}
