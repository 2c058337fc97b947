// The fake's two WebSockets, both authenticated by headers at the handshake (`Authorization: Bearer <jwt>` — the
// prefix optional, as Angel's own clients differ —, `x-api-key`, `x-client-code`, `x-feed-token`; 401 otherwise):
// SmartStream 2.0 (`/smart-stream`: JSON subscribe / unsubscribe requests, binary packets of the subscribed tokens
// in their mode) and the order-status socket (`/smart-order-update`: an AB00 acknowledgement, then one JSON message
// per order transition). Both answer a text `ping` with `pong`.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { orderRowJson, type AngelFakeOrder } from './orderBook';
import { encodePacket, MODE } from './packets';

export const NIFTY_INDEX_TOKEN = '99926000';

/** Angel's order-status codes of the socket's messages, by order status. */
const ORDER_STATUS_CODES: Readonly<Record<string, string>> = {
  open: 'AB01',
  cancelled: 'AB02',
  rejected: 'AB03',
  modified: 'AB04',
  complete: 'AB05',
  'open pending': 'AB09',
  'trigger pending': 'AB10',
  'modify pending': 'AB11',
};

interface StreamClient {
  readonly socket: WebSocket;
  readonly clientCode: string;
  /** token → { mode, exchange type } */
  readonly subscriptions: Map<string, { mode: number; exchangeType: number }>;
}

/** One push of prices: the index LTP and option prices by symbol token (rupees). */
export interface StreamPush {
  readonly index?: number;
  readonly quotes?: Readonly<Record<string, number | { ltp: number; bid?: number; ask?: number }>>;
  /** epoch ms of the exchange timestamp; default now */
  readonly time?: number;
}

export type HandshakeCheck = (headers: {
  jwt: string;
  apiKey: string;
  clientCode: string;
  feedToken: string;
}) => boolean;

export class AngelFakeSockets {
  private readonly wss = new WebSocketServer({ noServer: true });
  private readonly streams = new Set<StreamClient>();
  private readonly orderSockets = new Map<WebSocket, string>();
  private sequence = 0;
  /** every JSON request SmartStream clients sent, in order */
  readonly requests: unknown[] = [];
  /** handshakes, refused ones included */
  readonly handshakes = { stream: 0, orders: 0, refused: 0 };
  /** while true the order-status socket pushes nothing (updates lost with a dead connection) */
  muted = false;

  constructor(private readonly check: HandshakeCheck) {}

  upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    const path = new URL(request.url ?? '/', 'http://fake').pathname;
    const header = (name: string): string => {
      const value = request.headers[name];
      return (Array.isArray(value) ? value[0] : value) ?? '';
    };
    const auth = {
      jwt: header('authorization').replace(/^Bearer\s+/i, ''),
      apiKey: header('x-api-key'),
      clientCode: header('x-client-code'),
      feedToken: header('x-feed-token'),
    };
    const kind = path === '/smart-stream' ? 'stream' : path === '/smart-order-update' ? 'orders' : undefined;
    if (kind === undefined || !this.check(auth)) {
      this.handshakes.refused += 1;
      socket.end(
        `HTTP/1.1 ${kind === undefined ? '404 Not Found' : '401 Unauthorized'}\r\nContent-Length: 0\r\n\r\n`,
      );
      return;
    }
    this.handshakes[kind] += 1;
    this.wss.handleUpgrade(request, socket, head, (ws) =>
      kind === 'stream' ? this.openStream(ws, auth.clientCode) : this.openOrders(ws, auth.clientCode),
    );
  }

  private openStream(socket: WebSocket, clientCode: string): void {
    const client: StreamClient = { socket, clientCode, subscriptions: new Map() };
    this.streams.add(client);
    socket.on('close', () => this.streams.delete(client));
    socket.on('message', (data, isBinary) => {
      if (isBinary) return;
      const text = String(data);
      if (text === 'ping') return socket.send('pong');
      let request: { action?: unknown; params?: { mode?: unknown; tokenList?: unknown } };
      try {
        request = JSON.parse(text) as typeof request;
      } catch {
        return socket.send(JSON.stringify({ errorCode: 'E1002', errorMessage: 'Invalid Request Payload.' }));
      }
      this.requests.push(request);
      const mode = Number(request.params?.mode);
      const lists = Array.isArray(request.params?.tokenList) ? (request.params.tokenList as unknown[]) : [];
      for (const list of lists) {
        const { exchangeType, tokens } = list as { exchangeType?: unknown; tokens?: unknown };
        if (!Array.isArray(tokens)) continue;
        for (const token of tokens) {
          if (request.action === 1)
            client.subscriptions.set(String(token), { mode, exchangeType: Number(exchangeType) });
          else client.subscriptions.delete(String(token));
        }
      }
    });
  }

  private openOrders(socket: WebSocket, clientCode: string): void {
    this.orderSockets.set(socket, clientCode);
    socket.on('close', () => this.orderSockets.delete(socket));
    socket.on('message', (data) => {
      if (String(data) === 'ping') socket.send('pong');
    });
    socket.send(
      JSON.stringify({
        'user-id': clientCode,
        'status-code': '200',
        'order-status': 'AB00',
        'error-message': '',
        orderData: { orderid: '' },
      }),
    );
  }

  /** Tokens a client of `clientCode` (any, when omitted) has subscribed. */
  subscribed(clientCode?: string): Set<string> {
    const out = new Set<string>();
    for (const c of this.streams) {
      if (clientCode === undefined || c.clientCode === clientCode)
        for (const t of c.subscriptions.keys()) out.add(t);
    }
    return out;
  }

  get streamConnections(): number {
    return this.streams.size;
  }

  orderConnections(clientCode?: string): number {
    return [...this.orderSockets.values()].filter((c) => clientCode === undefined || c === clientCode).length;
  }

  /** Sends the prices to every SmartStream client subscribed to them, each packet in its own frame. */
  push(input: StreamPush): void {
    const time = input.time ?? Date.now();
    const prices = new Map<string, { ltp: number; bid?: number; ask?: number }>();
    if (input.index !== undefined) prices.set(NIFTY_INDEX_TOKEN, { ltp: input.index });
    for (const [token, q] of Object.entries(input.quotes ?? {}))
      prices.set(token, typeof q === 'number' ? { ltp: q } : q);
    for (const client of this.streams) {
      for (const [token, price] of prices) {
        const sub = client.subscriptions.get(token);
        if (sub === undefined) continue;
        this.sequence += 1;
        const mode = [MODE.ltp, MODE.quote, MODE.snapQuote].includes(sub.mode as 1) ? sub.mode : MODE.ltp;
        client.socket.send(
          encodePacket({
            mode,
            exchangeType: sub.exchangeType,
            token,
            sequence: this.sequence,
            time,
            ...price,
          }),
        );
      }
    }
  }

  /** Pushes an order's current state to the client code's order-status sockets. */
  pushOrder(clientCode: string, order: AngelFakeOrder): void {
    if (this.muted) return;
    const message = JSON.stringify({
      'user-id': clientCode,
      'status-code': '200',
      'order-status': ORDER_STATUS_CODES[order.status] ?? 'AB01',
      'error-message': order.status === 'rejected' ? order.text : '',
      orderData: orderRowJson(order),
    });
    for (const [socket, code] of this.orderSockets) if (code === clientCode) socket.send(message);
  }

  /** Closes every socket without a close frame (the connection drops). */
  dropAll(): void {
    for (const c of this.streams) c.socket.terminate();
    for (const socket of this.orderSockets.keys()) socket.terminate();
  }

  close(): void {
    this.dropAll();
    this.wss.close();
  }
}
