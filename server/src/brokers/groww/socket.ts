// One connection's session on Groww's socket (NATS over WebSocket at GROWW_WS_ROOT), shared by the market feed and
// the order updates. Before each connection a fresh user nkey is made and its public key sent to Groww's
// socket-token call (`POST /v1/api/apex/v1/socket/token/create/` `{socketKey}` → `{token, subscriptionId}`, the
// token a NATS user JWT); on the server's INFO the session answers CONNECT with that JWT and the INFO nonce signed
// by the nkey, then PING: the first PONG means the server took it. Subjects are subscribed once ready; PINGs are
// answered; `-ERR` (an authorisation violation included) and bytes that are not NATS end the connection, which
// its owner reconnects with backoff (with a new key and token).
import { z } from 'zod';
import type { GrowwHttp } from './http';
import { connectFrame, NatsParser, PING_FRAME, PONG_FRAME, subFrame, unsubFrame } from './nats';
import { UserNkey } from './nkey';

export const GROWW_SOCKET_TOKEN_PATH = '/v1/api/apex/v1/socket/token/create/';

export const growwSocketTokenSchema = z.object({
  token: z.string().min(1),
  subscriptionId: z.string().min(1),
});

export interface GrowwSocketCredentials {
  /** the NATS user JWT Groww issued for `nkey`'s public key */
  readonly jwt: string;
  /** the account's id in Groww's order and position subjects */
  readonly subscriptionId: string;
  readonly nkey: UserNkey;
}

/** A new key pair and Groww's token for it (the SDK makes both per socket session). Throws a `BrokerError`. */
export async function createSocketCredentials(http: GrowwHttp): Promise<GrowwSocketCredentials> {
  const nkey = UserNkey.create();
  const answer = await http.request({
    method: 'POST',
    path: GROWW_SOCKET_TOKEN_PATH,
    body: { socketKey: nkey.publicKey },
    schema: growwSocketTokenSchema,
  });
  return { jwt: answer.token, subscriptionId: answer.subscriptionId, nkey };
}

export interface GrowwSessionLink {
  send(frame: string): void;
  /** ends the connection: its owner reconnects */
  close(): void;
  /** the credentials for this connection (made when the server's INFO arrives) */
  credentials(): Promise<GrowwSocketCredentials>;
  /** the server accepted CONNECT */
  ready(subscriptionId: string): void;
  message(subject: string, payload: Buffer): void;
}

export class GrowwNatsSession {
  private readonly parser = new NatsParser();
  private readonly sids = new Map<string, string>();
  private nextSid = 1;
  private state: 'hello' | 'connecting' | 'ready' | 'closed' = 'hello';
  private subscriptionId = '';

  constructor(private readonly link: GrowwSessionLink) {}

  /** Bytes from the socket. */
  data(chunk: Buffer): void {
    if (this.state === 'closed') return;
    let ops;
    try {
      ops = this.parser.push(chunk);
    } catch {
      this.end();
      return;
    }
    for (const op of ops) {
      if (op.op === 'INFO' && this.state === 'hello') {
        this.state = 'connecting';
        void this.connect(op.info);
      } else if (op.op === 'PING') {
        this.link.send(PONG_FRAME);
      } else if (op.op === 'PONG' && this.state === 'connecting') {
        this.state = 'ready';
        this.link.ready(this.subscriptionId);
      } else if (op.op === 'MSG' && this.state === 'ready') {
        this.link.message(op.subject, op.payload);
      } else if (op.op === 'ERR') {
        this.end();
      }
    }
  }

  private async connect(info: Readonly<Record<string, unknown>>): Promise<void> {
    let credentials: GrowwSocketCredentials;
    try {
      credentials = await this.link.credentials();
    } catch {
      this.end();
      return;
    }
    if (this.state !== 'connecting') return;
    const nonce = typeof info.nonce === 'string' ? info.nonce : '';
    this.subscriptionId = credentials.subscriptionId;
    this.link.send(connectFrame({ jwt: credentials.jwt, sig: credentials.nkey.sign(nonce) }));
    this.link.send(PING_FRAME);
  }

  subscribe(subject: string): void {
    if (this.state !== 'ready' || this.sids.has(subject)) return;
    const sid = String(this.nextSid++);
    this.sids.set(subject, sid);
    this.link.send(subFrame(subject, sid));
  }

  unsubscribe(subject: string): void {
    const sid = this.sids.get(subject);
    if (sid === undefined) return;
    this.sids.delete(subject);
    this.link.send(unsubFrame(sid));
  }

  /** A keep-alive: the server's PONG shows the connection is not half-open. */
  ping(): void {
    if (this.state === 'ready') this.link.send(PING_FRAME);
  }

  private end(): void {
    if (this.state === 'closed') return;
    this.state = 'closed';
    this.link.close();
  }
}
