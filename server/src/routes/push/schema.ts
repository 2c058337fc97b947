// Requests of the push resource. The endpoint is a URL the browser got from its push service, and the server will
// POST to it: it must be https (as every push service is), and in production it must name a host by DNS name,
// not an IP address or a local name, so a signed-in user cannot aim the server's requests at its own network.
// Development and test accept loopback addresses, where the fake push service (test/fakes/push) listens.
import { isIP } from 'node:net';
import { z } from 'zod';

const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;
const LOCAL_NAMES = /(^|\.)(localhost|local|internal|localdomain|home\.arpa)$/i;
const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** Whether the server may send to `endpoint`: https, and (unless `allowLoopback`) a public DNS name. */
export function isAllowedPushEndpoint(endpoint: string, allowLoopback: boolean): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.protocol !== 'https:' || url.username !== '' || url.password !== '') return false;
  const host = url.hostname.toLowerCase();
  if (allowLoopback && LOOPBACK.has(host)) return true;
  const bare = host.startsWith('[') ? host.slice(1, -1) : host;
  return isIP(bare) === 0 && !LOCAL_NAMES.test(host) && host.includes('.');
}

const base64urlBytes = (field: string, bytes: number, extra?: (b: Buffer) => boolean) =>
  z
    .string({ error: `must be the subscription's ${field} key as base64url` })
    .max(200)
    .refine((v) => {
      if (!BASE64URL.test(v)) return false;
      const decoded = Buffer.from(v, 'base64url');
      return decoded.length === bytes && (extra?.(decoded) ?? true);
    }, `must be the subscription's ${field} key as base64url (${bytes} bytes)`);

const endpointSchema = (allowLoopback: boolean) =>
  z
    .string({ error: 'must be the push service URL of the subscription' })
    .max(2048, 'must be at most 2048 characters')
    .refine(
      (v) => isAllowedPushEndpoint(v, allowLoopback),
      allowLoopback
        ? 'must be the https:// URL of a push service'
        : 'must be the https:// URL of a push service on a public host name',
    );

/** `POST /api/user/push/subscriptions` */
export const pushSubscriptionSchema = (allowLoopback: boolean) =>
  z.object({
    endpoint: endpointSchema(allowLoopback),
    expirationTime: z.number().nullable().optional(),
    keys: z.object(
      {
        // an uncompressed P-256 point: 0x04, x, y
        p256dh: base64urlBytes('p256dh', 65, (b) => b[0] === 0x04),
        auth: base64urlBytes('auth', 16),
      },
      { error: 'must be the subscription keys { p256dh, auth }' },
    ),
  });

/** `DELETE /api/user/push/subscriptions` */
export const pushUnsubscribeSchema = z.object({
  endpoint: z.string({ error: 'must be the push service URL of the subscription' }).min(1).max(2048),
});
