import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const KEY_BYTES = 32;
const IV_BYTES = 12; // the size GCM is designed for
const TAG_BYTES = 16;

/** Encrypts secrets at rest (broker API keys and tokens) with AES-256-GCM; the tag detects any tampering. */
export interface SecretBox {
  /** `'v1:<iv b64>:<tag b64>:<ciphertext b64>'`; a fresh random IV every call */
  seal(plaintext: string): string;
  /** the plaintext; throws when the value is malformed, was sealed with another key, or was altered */
  open(sealed: string): string;
}

export class SecretBoxError extends Error {
  override readonly name = 'SecretBoxError';
}

/** A secret box over a 32-byte key (see `loadOrCreateKey`). */
export function createSecretBox(key: Buffer): SecretBox {
  if (key.length !== KEY_BYTES)
    throw new SecretBoxError(`encryption key must be ${KEY_BYTES} bytes, got ${key.length}`);
  const secretKey = Buffer.from(key); // a private copy: the caller's buffer may be reused or zeroed
  return {
    seal(plaintext) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', secretKey, iv);
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      const tag = cipher.getAuthTag();
      return [VERSION, iv.toString('base64'), tag.toString('base64'), ciphertext.toString('base64')].join(
        ':',
      );
    },
    open(sealed) {
      const parts = sealed.split(':');
      if (parts.length !== 4 || parts[0] !== VERSION) throw new SecretBoxError('not a sealed v1 secret');
      const [, ivB64, tagB64, ctB64] = parts as [string, string, string, string];
      const iv = Buffer.from(ivB64, 'base64');
      const tag = Buffer.from(tagB64, 'base64');
      if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES)
        throw new SecretBoxError('malformed sealed secret');
      const decipher = createDecipheriv('aes-256-gcm', secretKey, iv, { authTagLength: TAG_BYTES });
      decipher.setAuthTag(tag);
      try {
        return Buffer.concat([decipher.update(Buffer.from(ctB64, 'base64')), decipher.final()]).toString(
          'utf8',
        );
      } catch {
        throw new SecretBoxError('sealed secret failed authentication (wrong key or altered)');
      }
    },
  };
}

/** Shows only the last 4 characters of a secret (`••••abcd`); short or empty secrets show nothing of themselves. */
export function mask(secret: string | null | undefined): string {
  if (!secret) return '';
  const chars = [...secret];
  // A secret of 4 characters or fewer would be shown whole; reveal at most half of it.
  const visible = chars.length > 8 ? 4 : Math.floor(chars.length / 2);
  return '••••' + chars.slice(chars.length - visible).join('');
}

/** The last 4 characters, as stored in `*_last4` columns so masking needs no decryption. */
export function last4(secret: string): string {
  return [...secret].slice(-4).join('');
}

/** SHA-256 of a string as lowercase hex (password-reset tokens are stored this way). */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}
