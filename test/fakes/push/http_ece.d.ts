// http_ece ships no types; this declares the one call the fake push service makes.
declare module 'http_ece' {
  import type { ECDH } from 'node:crypto';

  export interface DecryptParams {
    version: 'aes128gcm' | 'aesgcm' | 'aesgcm128';
    /** the receiver's key pair (RFC 8291: the browser's p256dh) */
    privateKey?: ECDH;
    /** the receiver's auth secret, base64url or bytes */
    authSecret?: string | Buffer;
  }

  export function decrypt(buffer: Buffer, params: DecryptParams): Buffer;
}
