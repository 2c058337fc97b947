// The fake Kite Ticker: a WebSocket endpoint (`/?api_key=…&access_token=…`) that takes Kite's JSON subscribe /
// unsubscribe / mode messages and sends binary frames of the subscribed instruments in each one's mode, as Kite
// documents (default mode `quote`; one-byte heartbeats; the index token 256265 sends index packets).
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { encodeFrame, encodeIndexPacket, encodeQuotePacket, HEARTBEAT, type TickerMode } from './packets';

export const NIFTY_INDEX_TOKEN = 256265;

interface Client {
  readonly socket: WebSocket;
  readonly modes: Map<number, TickerMode>;
}

/** Prices to send in one push: the index LTP and option LTPs by instrument token (rupees). */
export interface TickerPush {
  readonly index?: number;
  readonly quotes?: Readonly<Record<number, number>>;
  /** epoch ms of the exchange timestamp */
  readonly time?: number;
}

export class FakeTicker {
  private readonly wss = new WebSocketServer({ noServer: true });
  private readonly clients = new Set<Client>();
  private heartbeat: NodeJS.Timeout | undefined;
  /** every JSON message clients sent, in order (tests assert the subscriptions) */
  readonly received: unknown[] = [];

  constructor(private readonly authorised: (apiKey: string, accessToken: string) => boolean) {
    this.heartbeat = setInterval(() => {
      for (const c of this.clients) c.socket.send(HEARTBEAT);
    }, 1_000);
  }

  /** Handles an HTTP upgrade of the fake's server; refuses a bad api_key / access_token with 403 as Kite does. */
  upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(request.url ?? '/', 'http://fake');
    const ok = this.authorised(
      url.searchParams.get('api_key') ?? '',
      url.searchParams.get('access_token') ?? '',
    );
    if (!ok) {
      socket.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    this.wss.handleUpgrade(request, socket, head, (ws) => this.accept(ws));
  }

  private accept(socket: WebSocket): void {
    const client: Client = { socket, modes: new Map() };
    this.clients.add(client);
    socket.on('close', () => this.clients.delete(client));
    socket.on('message', (data, isBinary) => {
      if (isBinary) return;
      let message: unknown;
      try {
        message = JSON.parse(String(data));
      } catch {
        return;
      }
      this.received.push(message);
      this.onMessage(client, message);
    });
  }

  private onMessage(client: Client, message: unknown): void {
    if (typeof message !== 'object' || message === null) return;
    const { a, v } = message as { a?: unknown; v?: unknown };
    if (a === 'subscribe' && Array.isArray(v)) {
      for (const token of v)
        if (typeof token === 'number' && !client.modes.has(token)) client.modes.set(token, 'quote');
    } else if (a === 'unsubscribe' && Array.isArray(v)) {
      for (const token of v) if (typeof token === 'number') client.modes.delete(token);
    } else if (a === 'mode' && Array.isArray(v) && Array.isArray(v[1])) {
      const mode = v[0];
      if (mode !== 'ltp' && mode !== 'quote' && mode !== 'full') return;
      for (const token of v[1] as unknown[]) if (typeof token === 'number') client.modes.set(token, mode);
    }
  }

  /** Number of open connections. */
  get connections(): number {
    return this.clients.size;
  }

  /** Tokens and modes the connected clients subscribed, merged. */
  subscriptions(): Map<number, TickerMode> {
    const merged = new Map<number, TickerMode>();
    for (const c of this.clients) for (const [token, mode] of c.modes) merged.set(token, mode);
    return merged;
  }

  /** Sends one frame per client with a packet for every subscribed instrument the push prices. */
  push(push: TickerPush): void {
    const seconds = Math.floor((push.time ?? Date.now()) / 1_000);
    for (const client of this.clients) {
      const packets: Buffer[] = [];
      for (const [token, mode] of client.modes) {
        if (token === NIFTY_INDEX_TOKEN && push.index !== undefined) {
          packets.push(
            encodeIndexPacket(
              { token, lastPrice: push.index, close: push.index - 20, exchangeTime: seconds },
              mode,
            ),
          );
          continue;
        }
        const ltp = push.quotes?.[token];
        if (ltp === undefined) continue;
        const level = (price: number) => [{ quantity: 650, price, orders: 3 }];
        packets.push(
          encodeQuotePacket(
            {
              token,
              lastPrice: ltp,
              volume: 1_000,
              exchangeTime: seconds,
              lastTradeTime: seconds,
              bids: level(ltp - 0.05),
              asks: level(ltp + 0.05),
            },
            mode,
          ),
        );
      }
      if (packets.length > 0) client.socket.send(encodeFrame(packets));
    }
  }

  /** The `drop_socket` fault: closes every connection abruptly. */
  drop(): void {
    for (const c of this.clients) c.socket.terminate();
  }

  close(): void {
    clearInterval(this.heartbeat);
    this.heartbeat = undefined;
    this.drop();
    this.wss.close();
  }
}
