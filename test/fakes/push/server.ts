// http_ece ships no types, and server tests compile this file under server/tsconfig.json, which does not include
// test/: the reference brings the declaration.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- see above
/// <reference path="./http_ece.d.ts" />
// A fake Web Push service (RFC 8030) on 127.0.0.1 over HTTPS, as the real ones are (web-push only speaks HTTPS):
// it hands out subscriptions the way a browser would (its own P-256 key pair and auth secret per subscription),
// accepts `POST /push/<id>` as web-push sends it, checks the VAPID authorization (RFC 8292: an ES256 JWT over the
// `k` public key, `aud` = this service's origin, `exp` in the future and at most 24 h away, a `sub` contact) with
// jose, decrypts the aes128gcm payload (RFC 8291) with http_ece, and records what arrived. It refuses like a real
// service: 401 without VAPID, 403 with a bad signature or the wrong application server key, 404 unknown, 410 gone.
import { createECDH, randomBytes, randomUUID, type ECDH } from 'node:crypto';
import { createServer, type Server } from 'node:https';
import { Agent as HttpsAgent } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decrypt } from 'http_ece';
import { importJWK, jwtVerify, type JWTPayload } from 'jose';
import { generate } from 'selfsigned';

/** A subscription as the browser's `PushSubscription.toJSON()` gives it (and the server stores). */
export interface FakePushSubscription {
  endpoint: string;
  expirationTime: null;
  keys: { p256dh: string; auth: string };
}

export interface ReceivedPush {
  subscriptionId: string;
  /** the decrypted payload, as text */
  payload: string;
  ttl: number;
  urgency: string | null;
  /** the verified VAPID claims */
  claims: JWTPayload;
  /** the application server's public key (`k`), base64url */
  vapidPublicKey: string;
}

export interface RefusedPush {
  subscriptionId: string;
  status: number;
  reason: string;
}

export interface FakePushService {
  /** https://127.0.0.1:<port> */
  url: string;
  /** the service's self-signed certificate (PEM), for a client's `ca` */
  certificate: string;
  /** an HTTPS agent that trusts the certificate (the caller destroys it) */
  agent(): HttpsAgent;
  /** a new subscription; with `applicationServerKey` messages signed by another key are refused (403) */
  subscribe(options?: { applicationServerKey?: string }): FakePushSubscription;
  /** messages accepted, decrypted, in order */
  received: ReceivedPush[];
  /** requests refused, with why */
  refused: RefusedPush[];
  /** from now on this subscription answers 410 Gone (the browser unsubscribed) */
  markGone(endpoint: string): void;
  /** the next `count` messages (any subscription) answer `status` (429, 503, …) */
  failNext(status: number, count?: number): void;
  close(): Promise<void>;
}

interface Subscription {
  ecdh: ECDH;
  auth: string;
  applicationServerKey: string | undefined;
  gone: boolean;
}

const VAPID_HEADER = /^vapid\s+t=([A-Za-z0-9_.-]+)\s*,\s*k=([A-Za-z0-9_-]+)\s*$/i;
const MAX_PAYLOAD_BYTES = 4096;
const DAY_SECONDS = 86_400;

class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** Starts the fake on an ephemeral port of 127.0.0.1. */
export async function startFakePushService(): Promise<FakePushService> {
  const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
  });
  const subscriptions = new Map<string, Subscription>();
  const received: ReceivedPush[] = [];
  const refused: RefusedPush[] = [];
  const failures: number[] = [];
  let origin = '';

  async function accept(id: string, req: IncomingMessage, body: Buffer): Promise<void> {
    const sub = subscriptions.get(id);
    if (!sub) throw new Refusal(404, 'no such subscription');
    if (sub.gone) throw new Refusal(410, 'subscription expired or unsubscribed');
    const failure = failures.shift();
    if (failure !== undefined) throw new Refusal(failure, 'failing on request');

    const match = VAPID_HEADER.exec(req.headers.authorization ?? '');
    if (!match) throw new Refusal(401, 'missing or malformed VAPID authorization');
    const [, token, k] = match as unknown as [string, string, string];
    const point = Buffer.from(k, 'base64url');
    if (point.length !== 65 || point[0] !== 0x04)
      throw new Refusal(401, 'k is not an uncompressed P-256 key');
    if (sub.applicationServerKey !== undefined && sub.applicationServerKey !== k) {
      throw new Refusal(403, 'k is not the key this subscription was made with');
    }
    let claims: JWTPayload;
    try {
      const key = await importJWK(
        {
          kty: 'EC',
          crv: 'P-256',
          x: point.subarray(1, 33).toString('base64url'),
          y: point.subarray(33).toString('base64url'),
        },
        'ES256',
      );
      ({ payload: claims } = await jwtVerify(token, key, {
        algorithms: ['ES256'],
        audience: origin,
        requiredClaims: ['exp', 'sub'],
      }));
    } catch (err) {
      throw new Refusal(403, `invalid VAPID JWT: ${(err as Error).message}`);
    }
    if ((claims.exp ?? 0) > Math.floor(Date.now() / 1000) + DAY_SECONDS) {
      throw new Refusal(403, 'VAPID exp is more than 24 hours away');
    }
    if (typeof claims.sub !== 'string' || !/^(mailto:|https:)/.test(claims.sub)) {
      throw new Refusal(403, 'VAPID sub must be a mailto: or https: contact');
    }

    const ttl = Number(req.headers.ttl);
    if (req.headers.ttl === undefined || !Number.isInteger(ttl) || ttl < 0) {
      throw new Refusal(400, 'TTL header missing or invalid');
    }
    if (req.headers['content-encoding'] !== 'aes128gcm') {
      throw new Refusal(415, 'Content-Encoding must be aes128gcm');
    }
    if (body.length > MAX_PAYLOAD_BYTES) throw new Refusal(413, 'payload too large');
    let payload: string;
    try {
      payload = decrypt(body, { version: 'aes128gcm', privateKey: sub.ecdh, authSecret: sub.auth }).toString(
        'utf8',
      );
    } catch (err) {
      throw new Refusal(400, `payload does not decrypt: ${(err as Error).message}`);
    }
    const urgency = req.headers.urgency;
    received.push({
      subscriptionId: id,
      payload,
      ttl,
      urgency: typeof urgency === 'string' ? urgency : null,
      claims,
      vapidPublicKey: k,
    });
  }

  function handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const id = /^\/push\/([\w-]+)$/.exec(req.url ?? '')?.[1];
      if (req.method !== 'POST' || id === undefined) {
        res.writeHead(404).end();
        return;
      }
      accept(id, req, Buffer.concat(chunks)).then(
        () => {
          res.writeHead(201, { Location: `${origin}/message/${randomUUID()}` }).end();
        },
        (err: unknown) => {
          const status = err instanceof Refusal ? err.status : 500;
          const reason = err instanceof Error ? err.message : String(err);
          refused.push({ subscriptionId: id, status, reason });
          res.writeHead(status, { 'Content-Type': 'text/plain' }).end(reason);
        },
      );
    });
  }

  const server: Server = createServer({ key: pems.private, cert: pems.cert }, handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: origin,
    certificate: pems.cert,
    agent: () => new HttpsAgent({ ca: pems.cert }),
    subscribe(options = {}) {
      const id = randomUUID();
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const auth = randomBytes(16).toString('base64url');
      subscriptions.set(id, { ecdh, auth, applicationServerKey: options.applicationServerKey, gone: false });
      return {
        endpoint: `${origin}/push/${id}`,
        expirationTime: null,
        keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth },
      };
    },
    received,
    refused,
    markGone(endpoint) {
      const sub = subscriptions.get(endpoint.slice(endpoint.lastIndexOf('/') + 1));
      if (!sub) throw new Error('no such subscription');
      sub.gone = true;
    },
    failNext(status, count = 1) {
      for (let i = 0; i < count; i += 1) failures.push(status);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
