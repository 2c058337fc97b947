// The fake Upstox's WebSockets: the portfolio stream (order updates as JSON text) and market data feed v3
// (protobuf `FeedResponse` frames built with the official schema; JSON subscription requests in binary frames).
// Both are reached only through single-use authorized URIs; market feed allows one connection per user.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type WebSocket from 'ws';
import { createFeedResponseCodec } from '../../../server/src/brokers/upstox/marketDataFeedV3';
import type { WireFeed } from '../../../server/src/brokers/upstox/marketDataFeedV3';

export type SocketKind = 'portfolio' | 'market';

interface MarketClient {
  readonly socket: WebSocket;
  /** instrument key → mode */
  readonly modes: Map<string, string>;
}

export interface TickInput {
  readonly ltp: number;
  readonly bid?: number;
  readonly ask?: number;
  /** epoch ms; default the fake's clock */
  readonly time?: number;
}

export class FakeSockets {
  private readonly wss = new WebSocketServer({ noServer: true });
  private readonly codes = new Map<string, { kind: SocketKind; userId: string }>();
  private readonly portfolio = new Map<WebSocket, string>();
  private readonly market = new Map<string, MarketClient>();
  private readonly codec = createFeedResponseCodec();
  /** every subscription request the market feed received, parsed */
  readonly subscriptions: Array<{ method: string; mode?: string; instrumentKeys: string[] }> = [];
  /** while true, order updates are not pushed (an answer lost with its updates) */
  muted = false;
  /** authorized URIs handed out, per kind */
  readonly authorizations: Record<SocketKind, number> = { portfolio: 0, market: 0 };

  constructor(
    private readonly wsBase: () => string,
    private readonly now: () => number,
  ) {}

  /** A fresh single-use URI for `kind`, as the authorize endpoints answer. */
  authorize(kind: SocketKind, userId: string): string {
    const code = randomBytes(12).toString('hex');
    this.codes.set(code, { kind, userId });
    this.authorizations[kind] += 1;
    return `${this.wsBase()}/feed/${kind}?requestId=${randomBytes(6).toString('hex')}&code=${code}`;
  }

  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(req.url ?? '/', 'http://fake');
    const code = url.searchParams.get('code') ?? '';
    const grant = this.codes.get(code);
    this.codes.delete(code); // single-use, even when refused below
    if (grant === undefined || url.pathname !== `/feed/${grant.kind}`) {
      socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
      return;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      if (grant.kind === 'portfolio') this.openPortfolio(ws, grant.userId);
      else this.openMarket(ws, grant.userId);
    });
  }

  private openPortfolio(ws: WebSocket, userId: string): void {
    this.portfolio.set(ws, userId);
    ws.on('close', () => this.portfolio.delete(ws));
  }

  private openMarket(ws: WebSocket, userId: string): void {
    // One market connection per user: a new one ends the old.
    this.market.get(userId)?.socket.close(1000);
    const client: MarketClient = { socket: ws, modes: new Map() };
    this.market.set(userId, client);
    ws.on('close', () => {
      if (this.market.get(userId) === client) this.market.delete(userId);
    });
    ws.on('message', (data: Buffer) => {
      const request = JSON.parse(data.toString()) as {
        method: string;
        data: { mode?: string; instrumentKeys: string[] };
      };
      this.subscriptions.push({
        method: request.method,
        mode: request.data.mode,
        instrumentKeys: request.data.instrumentKeys,
      });
      for (const key of request.data.instrumentKeys) {
        if (request.method === 'unsub') client.modes.delete(key);
        else client.modes.set(key, request.data.mode ?? client.modes.get(key) ?? 'ltpc');
      }
    });
    ws.send(
      this.codec.encode({
        type: 'market_info',
        currentTs: this.now(),
        marketInfo: {
          segmentStatus: { NSE_INDEX: 'NORMAL_OPEN', NSE_FO: 'NORMAL_OPEN', NSE_EQ: 'NORMAL_OPEN' },
        },
      }),
    );
  }

  /** Pushes an order update (a row with `update_type: "order"`) to the user's portfolio streams. */
  pushOrder(userId: string, row: object): void {
    if (this.muted) return;
    const frame = JSON.stringify({
      update_type: 'order',
      user_id: userId,
      userId,
      ...row,
      instrument_key: (row as { instrument_token?: string }).instrument_token,
    });
    for (const [ws, owner] of this.portfolio) if (owner === userId) ws.send(frame);
  }

  /** Sends a live_feed frame for `instrumentKey` to every market connection subscribed to it. */
  tick(instrumentKey: string, input: TickInput): number {
    const time = input.time ?? this.now();
    const ltpc = { ltp: input.ltp, ltt: time, ltq: 0, cp: input.ltp };
    let sent = 0;
    for (const client of this.market.values()) {
      const mode = client.modes.get(instrumentKey);
      if (mode === undefined) continue;
      let feed: WireFeed;
      if (mode === 'ltpc') feed = { ltpc };
      else if (instrumentKey.startsWith('NSE_INDEX|')) feed = { fullFeed: { indexFF: { ltpc } } };
      else {
        const depth = { bidQ: 650, bidP: input.bid ?? input.ltp, askQ: 650, askP: input.ask ?? input.ltp };
        feed = { fullFeed: { marketFF: { ltpc, marketLevel: { bidAskQuote: [depth] } } } };
      }
      client.socket.send(
        this.codec.encode({ type: 'live_feed', currentTs: time, feeds: { [instrumentKey]: feed } }),
      );
      sent += 1;
    }
    return sent;
  }

  /** Sends raw bytes to every market connection (for undecodable-frame tests). */
  sendRawMarket(bytes: Uint8Array): void {
    for (const client of this.market.values()) client.socket.send(bytes);
  }

  get marketConnections(): number {
    return this.market.size;
  }

  get portfolioConnections(): number {
    return this.portfolio.size;
  }

  /** Drops every socket without a closing handshake, as a network failure would. */
  dropAll(): void {
    for (const ws of this.portfolio.keys()) ws.terminate();
    for (const client of this.market.values()) client.socket.terminate();
  }

  close(): void {
    this.dropAll();
    this.wss.close();
  }
}
