// The fake's NOREN socket (`/NorenWS/`): a connection logs in with `{t: "c", uid, actid, susertoken, source}`
// (the token is sha256(sha256(userSession)) of a session whose socket session was made over REST), answered
// `{t: "ck", s: "OK"}` or `{t: "ck", s: "Not_Ok"}` and closed. Then touchline (`{t: "t"|"u", k: "EXCH|token#…"}`,
// a full `tk` on subscribe and `tf` updates), the order subscription (`{t: "o"}` → `{t: "ok"}`, then `om`
// messages of the account's orders) and `{t: "h"}` heartbeats.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { orderMessageJson, type AliceFakeOrder } from './orderBook';

export const NIFTY_INDEX_KEY = 'NSE|26000';

interface Client {
  readonly socket: WebSocket;
  userId?: string;
  orders: boolean;
  readonly keys: Set<string>;
}

/** One push of prices: the index and option prices by token (rupees). */
export interface FeedPush {
  readonly index?: number;
  readonly quotes?: Readonly<Record<string, number | { ltp: number; bid?: number; ask?: number }>>;
}

/** Whether a login frame's user and token belong to a live session with a socket session. */
export type LoginCheck = (userId: string, susertoken: string) => boolean;

export class AliceFakeSockets {
  private readonly wss = new WebSocketServer({ noServer: true });
  private readonly clients = new Set<Client>();
  private readonly last = new Map<string, { ltp: number; bid?: number; ask?: number }>();
  /** logins, refused ones included */
  readonly logins = { ok: 0, refused: 0 };
  /** every subscription frame received, in order */
  readonly subscriptions: string[] = [];
  /** while true no order message is pushed (updates lost with a dead connection) */
  muted = false;
  /** plays a socket that ignores the order subscription (ANT's order messages are not documented) */
  ordersUnsupported = false;

  constructor(private readonly check: LoginCheck) {}

  upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    const path = new URL(request.url ?? '/', 'http://fake').pathname;
    if (path !== '/NorenWS/') {
      socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    this.wss.handleUpgrade(request, socket, head, (ws) => this.open(ws));
  }

  private open(socket: WebSocket): void {
    const client: Client = { socket, orders: false, keys: new Set() };
    this.clients.add(client);
    socket.on('close', () => this.clients.delete(client));
    socket.on('message', (data, isBinary) => {
      if (isBinary) return;
      let frame: Record<string, unknown>;
      try {
        frame = JSON.parse(String(data)) as Record<string, unknown>;
      } catch {
        return;
      }
      this.frame(client, frame);
    });
  }

  private frame(client: Client, frame: Record<string, unknown>): void {
    const send = (json: unknown) => client.socket.send(JSON.stringify(json));
    if (frame.t === 'c') {
      const uid = String(frame.uid ?? '');
      const userId = uid.replace(/_API$/, '');
      const ok =
        uid.endsWith('_API') &&
        frame.actid === uid &&
        frame.source === 'API' &&
        this.check(userId, String(frame.susertoken ?? ''));
      if (!ok) {
        this.logins.refused += 1;
        send({ t: 'ck', s: 'Not_Ok', emsg: 'Invalid Session Key' });
        client.socket.close(1000);
        return;
      }
      this.logins.ok += 1;
      client.userId = userId;
      return send({ t: 'ck', s: 'OK', uid });
    }
    if (client.userId === undefined) return;
    if (frame.t === 't' || frame.t === 'u') {
      this.subscriptions.push(JSON.stringify(frame));
      const keys = String(frame.k ?? '')
        .split('#')
        .filter((k) => k !== '');
      for (const key of keys) {
        if (frame.t === 'u') {
          client.keys.delete(key);
          continue;
        }
        client.keys.add(key);
        const [e, tk] = key.split('|');
        const price = this.last.get(key);
        send({ t: 'tk', e, tk, ...(price === undefined ? {} : priceFields(price)) });
      }
    } else if (frame.t === 'o' && !this.ordersUnsupported) {
      client.orders = true;
      send({ t: 'ok' });
    }
  }

  /** Sends prices to the clients subscribed to them (`tf`: only price fields). */
  push(push: FeedPush): void {
    const updates: [string, { ltp: number; bid?: number; ask?: number }][] = [];
    if (push.index !== undefined) updates.push([NIFTY_INDEX_KEY, { ltp: push.index }]);
    for (const [token, q] of Object.entries(push.quotes ?? {})) {
      updates.push([`NFO|${token}`, typeof q === 'number' ? { ltp: q } : q]);
    }
    for (const [key, price] of updates) {
      this.last.set(key, price);
      const [e, tk] = key.split('|');
      const text = JSON.stringify({ t: 'tf', e, tk, ...priceFields(price) });
      for (const client of this.clients) if (client.keys.has(key)) client.socket.send(text);
    }
  }

  /** Pushes an order's current state to the account's order subscribers. */
  pushOrder(order: AliceFakeOrder): void {
    if (this.muted) return;
    const text = JSON.stringify(orderMessageJson(order));
    for (const client of this.clients) {
      if (client.orders && client.userId === order.userId) client.socket.send(text);
    }
  }

  /** Order subscribers of an account (or of any). */
  orderConnections(userId?: string): number {
    return [...this.clients].filter((c) => c.orders && (userId === undefined || c.userId === userId)).length;
  }

  /** Every key some connection is subscribed to. */
  subscribed(): Set<string> {
    return new Set([...this.clients].flatMap((c) => [...c.keys]));
  }

  /** Logged-in feed connections. */
  feedConnections(): number {
    return [...this.clients].filter((c) => c.keys.size > 0).length;
  }

  /** Closes every socket (the `drop_socket` fault, or the session's end). */
  dropAll(): void {
    for (const client of this.clients) client.socket.terminate();
    this.clients.clear();
  }

  close(): void {
    this.dropAll();
    this.wss.close();
  }
}

function priceFields(price: { ltp: number; bid?: number; ask?: number }): Record<string, string> {
  return {
    lp: price.ltp.toFixed(2),
    ...(price.bid === undefined ? {} : { bp1: price.bid.toFixed(2) }),
    ...(price.ask === undefined ? {} : { sp1: price.ask.toFixed(2) }),
  };
}
