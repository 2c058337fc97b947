// The NATS client protocol as Groww's socket speaks it (NATS over WebSocket): the server's INFO (with the nonce to
// sign), our CONNECT, SUB / UNSUB, PING / PONG, and MSG / HMSG carrying protobuf payloads. Written here rather than
// taken from `nats.ws` / `@nats-io/nats-core`: those own the socket and its reconnects, while this adapter's
// sockets live inside the shared SocketFeed and order-stream machinery (one backoff, one health model for every
// broker); the operations used are a handful of text lines. Frames may split anywhere across WebSocket messages.

/** One server operation. */
export type NatsOp =
  | { readonly op: 'INFO'; readonly info: Readonly<Record<string, unknown>> }
  | { readonly op: 'MSG'; readonly subject: string; readonly sid: string; readonly payload: Buffer }
  | { readonly op: 'PING' }
  | { readonly op: 'PONG' }
  | { readonly op: 'OK' }
  | { readonly op: 'ERR'; readonly message: string };

const CRLF = Buffer.from('\r\n');
/** a line longer than this without CRLF is not NATS */
const MAX_LINE = 64 * 1024;

/** Reads server operations out of a byte stream. */
export class NatsParser {
  private pending: Buffer = Buffer.alloc(0);

  /** The complete operations now readable; a partial one waits for more bytes. Throws on bytes that are not NATS. */
  push(chunk: Buffer): NatsOp[] {
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    const ops: NatsOp[] = [];
    for (;;) {
      const end = this.pending.indexOf(CRLF);
      if (end < 0) {
        if (this.pending.length > MAX_LINE) throw new Error('NATS line too long');
        return ops;
      }
      const line = this.pending.subarray(0, end).toString('utf8');
      const [verb = '', ...args] = line.split(' ').filter((part) => part !== '');
      const upper = verb.toUpperCase();
      if (upper === 'MSG' || upper === 'HMSG') {
        const sizes = args.slice(upper === 'MSG' ? -1 : -2).map(Number);
        const total = sizes[sizes.length - 1] ?? NaN;
        const headerBytes = upper === 'HMSG' ? (sizes[0] ?? NaN) : 0;
        if (
          !Number.isInteger(total) ||
          !Number.isInteger(headerBytes) ||
          total < headerBytes ||
          args.length < 3
        ) {
          throw new Error(`bad NATS ${upper}`);
        }
        const start = end + 2;
        if (this.pending.length < start + total + 2) return ops;
        ops.push({
          op: 'MSG',
          subject: args[0] ?? '',
          sid: args[1] ?? '',
          payload: Buffer.from(this.pending.subarray(start + headerBytes, start + total)),
        });
        this.pending = this.pending.subarray(start + total + 2);
        continue;
      }
      this.pending = this.pending.subarray(end + 2);
      if (upper === 'INFO') ops.push({ op: 'INFO', info: parseInfo(line.slice(4)) });
      else if (upper === 'PING') ops.push({ op: 'PING' });
      else if (upper === 'PONG') ops.push({ op: 'PONG' });
      else if (upper === '+OK') ops.push({ op: 'OK' });
      else if (upper === '-ERR') ops.push({ op: 'ERR', message: line.slice(4).trim().replace(/^'|'$/g, '') });
      else throw new Error('unknown NATS operation');
    }
  }
}

function parseInfo(json: string): Record<string, unknown> {
  const info: unknown = JSON.parse(json);
  if (typeof info !== 'object' || info === null || Array.isArray(info)) throw new Error('bad NATS INFO');
  return info as Record<string, unknown>;
}

/** CONNECT with a user JWT and the nonce's signature (NATS decentralised auth, as Groww's SDK connects). */
export function connectFrame(input: { readonly jwt: string; readonly sig: string }): string {
  const options = {
    verbose: false,
    pedantic: false,
    lang: 'nodejs',
    version: '1.0.0',
    protocol: 1,
    headers: false,
    no_responders: false,
    jwt: input.jwt,
    sig: input.sig,
  };
  return `CONNECT ${JSON.stringify(options)}\r\n`;
}

export const subFrame = (subject: string, sid: string): string => `SUB ${subject} ${sid}\r\n`;
export const unsubFrame = (sid: string): string => `UNSUB ${sid}\r\n`;
export const PING_FRAME = 'PING\r\n';
export const PONG_FRAME = 'PONG\r\n';

/** A MSG frame (the fake server's side). */
export function msgFrame(subject: string, sid: string, payload: Uint8Array): Buffer {
  return Buffer.concat([Buffer.from(`MSG ${subject} ${sid} ${payload.length}\r\n`), payload, CRLF]);
}
