// The fake's two WebSockets. The market feed (`/?version=2&token=…&clientId=…&authType=2`, authenticated by the
// URL at the handshake, 401 otherwise): JSON subscribe requests (15 ticker, 21 full; 16 / 22 unsubscribe), binary
// little-endian packets of the subscribed instruments — ticker (code 2, 16 bytes) for the index, full (code 8, 162
// bytes, best bid / ask at the first depth level) for options. The order update socket (`/order-update`): a JSON
// `LoginReq` (MsgCode 42) naming a client id and its token, then `{"Type":"order_alert","Data":{…}}` per transition;
// a wrong login is closed.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { orderAlertJson, type DhanFakeOrder } from './orderBook';

const SEGMENTS: Readonly<Record<string, number>> = { IDX_I: 0, NSE_FNO: 2 };

/** A ticker packet (index) or a full packet (option with a best bid and ask). */
export function encodeDhanPacket(input: {
  segment: number;
  securityId: number;
  ltp: number;
  time: number;
  bid?: number;
  ask?: number;
}): Buffer {
  const full = input.segment !== SEGMENTS.IDX_I;
  const frame = Buffer.alloc(full ? 162 : 16);
  frame.writeUInt8(full ? 8 : 2, 0);
  frame.writeInt16LE(frame.length, 1);
  frame.writeUInt8(input.segment, 3);
  frame.writeInt32LE(input.securityId, 4);
  frame.writeFloatLE(input.ltp, 8);
  const seconds = Math.floor(input.time / 1_000);
  if (!full) {
    frame.writeInt32LE(seconds, 12);
    return frame;
  }
  frame.writeInt16LE(65, 12);
  frame.writeInt32LE(seconds, 14);
  // depth level 1 at 62: bid qty, ask qty, bid orders, ask orders, bid price, ask price
  frame.writeInt32LE(650, 62);
  frame.writeInt32LE(650, 66);
  frame.writeInt16LE(3, 70);
  frame.writeInt16LE(4, 72);
  frame.writeFloatLE(input.bid ?? input.ltp, 74);
  frame.writeFloatLE(input.ask ?? input.ltp, 78);
  return frame;
}

export interface FeedPush {
  readonly index?: number;
  /** option prices by security id */
  readonly quotes?: Readonly<Record<string, number | { ltp: number; bid?: number; ask?: number }>>;
}

export type TokenCheck = (clientId: string, accessToken: string) => boolean;

export class DhanFakeSockets {
  private readonly wss = new WebSocketServer({ noServer: true });
  /** feed socket → subscribed `segment:securityId` */
  private readonly feeds = new Map<WebSocket, Set<string>>();
  /** logged-in order update socket → client id */
  private readonly orderSockets = new Map<WebSocket, string>();
  /** order update sockets, logged in or not */
  private readonly pending = new Set<WebSocket>();
  /** every JSON request feed clients sent, in order */
  readonly requests: unknown[] = [];
  readonly handshakes = { feed: 0, orders: 0, refused: 0 };
  /** while true the order update socket pushes nothing (updates lost with a dead connection) */
  muted = false;

  constructor(private readonly check: TokenCheck) {}

  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(req.url ?? '/', 'http://fake');
    if (url.pathname === '/order-update') {
      this.handshakes.orders += 1;
      this.wss.handleUpgrade(req, socket, head, (ws) => this.orderSocket(ws));
      return;
    }
    const clientId = url.searchParams.get('clientId') ?? '';
    const token = url.searchParams.get('token') ?? '';
    if (
      url.pathname !== '/' ||
      url.searchParams.get('version') !== '2' ||
      url.searchParams.get('authType') !== '2' ||
      !this.check(clientId, token)
    ) {
      this.handshakes.refused += 1;
      socket.end('HTTP/1.1 401 Unauthorized\r\nConnection: close\r\n\r\n');
      return;
    }
    this.handshakes.feed += 1;
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      const subscribed = new Set<string>();
      this.feeds.set(ws, subscribed);
      ws.on('message', (data) => {
        let request: {
          RequestCode?: number;
          InstrumentList?: { ExchangeSegment?: string; SecurityId?: string }[];
        };
        try {
          request = JSON.parse(data.toString()) as typeof request;
        } catch {
          return;
        }
        this.requests.push(request);
        const on = request.RequestCode === 15 || request.RequestCode === 17 || request.RequestCode === 21;
        for (const i of request.InstrumentList ?? []) {
          const key = `${i.ExchangeSegment ?? ''}:${i.SecurityId ?? ''}`;
          if (on) subscribed.add(key);
          else subscribed.delete(key);
        }
      });
      ws.on('close', () => this.feeds.delete(ws));
    });
  }

  private orderSocket(ws: WebSocket): void {
    this.pending.add(ws);
    ws.once('message', (data) => {
      let login: { LoginReq?: { MsgCode?: number; ClientId?: string; Token?: string } };
      try {
        login = JSON.parse(data.toString()) as typeof login;
      } catch {
        login = {};
      }
      const req = login.LoginReq;
      if (req?.MsgCode !== 42 || !this.check(String(req.ClientId ?? ''), String(req.Token ?? ''))) {
        this.handshakes.refused += 1;
        ws.close(4001, 'invalid login');
        return;
      }
      this.orderSockets.set(ws, String(req.ClientId));
    });
    ws.on('close', () => {
      this.pending.delete(ws);
      this.orderSockets.delete(ws);
    });
  }

  orderConnections(): number {
    return this.orderSockets.size;
  }

  feedConnections(): number {
    return this.feeds.size;
  }

  /** `SEGMENT:securityId` of every instrument some feed socket subscribes to. */
  subscribed(): Set<string> {
    return new Set([...this.feeds.values()].flatMap((keys) => [...keys]));
  }

  /** Pushes an order's update to the client's order update sockets. */
  pushOrder(clientId: string, order: DhanFakeOrder): void {
    if (this.muted) return;
    const message = JSON.stringify({ Type: 'order_alert', Data: orderAlertJson(order) });
    for (const [ws, owner] of this.orderSockets) if (owner === clientId) ws.send(message);
  }

  /** Sends prices to every feed socket subscribed to them. */
  push(prices: FeedPush, time = Date.now()): void {
    for (const [ws, subscribed] of this.feeds) {
      if (prices.index !== undefined && subscribed.has('IDX_I:13')) {
        ws.send(encodeDhanPacket({ segment: 0, securityId: 13, ltp: prices.index, time }));
      }
      for (const [id, q] of Object.entries(prices.quotes ?? {})) {
        if (!subscribed.has(`NSE_FNO:${id}`)) continue;
        const quote = typeof q === 'number' ? { ltp: q } : q;
        ws.send(encodeDhanPacket({ segment: 2, securityId: Number(id), time, ...quote }));
      }
    }
  }

  /** Closes every socket (a dropped connection, or the token's end). */
  dropAll(): void {
    for (const ws of [...this.feeds.keys(), ...this.pending]) ws.terminate();
  }

  close(): void {
    this.dropAll();
    this.wss.close();
  }
}
