// The Groww fake's socket: NATS over WebSocket on the fake's own port, as Groww's SDK meets it. The socket-token
// call (`POST /v1/api/apex/v1/socket/token/create/` `{socketKey: <user nkey>}` → `{token, subscriptionId}`, in
// server.ts) binds a JWT to the caller's public key; a connection is sent INFO with a fresh nonce, and its CONNECT
// must carry a JWT the fake issued and the nonce signed by that key (ed25519), else `-ERR 'Authorization
// Violation'` and the socket closes. Then SUB / UNSUB / PING work; prices are published every `tickMs` on every
// price subject subscribed (the index's value, each option's LTP, protobuf `StocksSocketResponseProtoDto`), and
// every change of an account's order is pushed on its order subject (`OrderDetailsBroadCastDto`).
import { createPublicKey, randomBytes, verify } from 'node:crypto';
import type { Server } from 'node:http';
import { WebSocket, WebSocketServer } from 'ws';
import { msgFrame } from '../../../server/src/brokers/groww/nats';
import { userPublicKeyBytes } from '../../../server/src/brokers/groww/nkey';
import { OrderDetailsBroadCast, StocksSocketResponse } from '../../../server/src/brokers/groww/proto';
import type { GrowwFakeInstrument } from './instruments';
import type { GrowwFakeOrder } from './orderBook';

const INDEX_SUBJECT = '/ld/indices/nse/price.NIFTY';
const OPTION_PREFIX = '/ld/fo/nse/price.';
const ORDER_PREFIX = 'stocks_fo/order/updates.apex.';

interface Grant {
  readonly ucc: string;
  readonly subscriptionId: string;
  readonly publicKey: Buffer;
}

interface Client {
  readonly ws: WebSocket;
  readonly nonce: string;
  grant: Grant | undefined;
  readonly subs: Map<string, string>;
  buffer: string;
}

export interface GrowwFakeSocketOptions {
  readonly instruments: readonly GrowwFakeInstrument[];
  /** the index's and an option's last price now */
  readonly prices: () => { index: number; option: (tradingSymbol: string) => number };
  readonly tickMs: number;
}

export class GrowwFakeSocket {
  /** JWT → who it was issued to and for which key */
  private readonly grants = new Map<string, Grant>();
  private readonly clients = new Set<Client>();
  private readonly wss = new WebSocketServer({ noServer: true });
  private readonly ticker: NodeJS.Timeout;
  /** connections that passed CONNECT */
  connections = 0;

  /** sockets open now */
  get open(): number {
    return this.clients.size;
  }
  /** order updates pushed */
  pushes = 0;

  constructor(
    server: Server,
    private readonly options: GrowwFakeSocketOptions,
  ) {
    server.on('upgrade', (req, socket, head) => {
      this.wss.handleUpgrade(req, socket, head, (ws) => this.accept(ws));
    });
    this.ticker = setInterval(() => this.tick(), options.tickMs);
    this.ticker.unref();
  }

  /** The socket-token call: a JWT bound to `socketKey`; undefined for a key that is not a user nkey. */
  issue(ucc: string, socketKey: unknown): { token: string; subscriptionId: string } | undefined {
    const publicKey = typeof socketKey === 'string' ? userPublicKeyBytes(socketKey) : undefined;
    if (publicKey === undefined) return undefined;
    const token = `eyJ0eXAiOiJKV1Qi.${randomBytes(24).toString('base64url')}`;
    const subscriptionId = `sub-${ucc}`;
    this.grants.set(token, { ucc, subscriptionId, publicKey });
    return { token, subscriptionId };
  }

  /** The session expiry: socket tokens issued so far are refused, and every socket ends. */
  expire(): void {
    this.grants.clear();
    this.dropAll();
  }

  /** Every socket dropped (conformance's `drop_socket`). */
  dropAll(): void {
    for (const client of this.clients) client.ws.terminate();
  }

  /** Pushes an order's current state to its account's sockets. */
  pushOrder(order: GrowwFakeOrder): void {
    const payload = OrderDetailsBroadCast.encode(
      OrderDetailsBroadCast.fromObject({
        stageAndTimeStamp: [],
        orderDetailUpdateDto: {
          qty: order.quantity,
          price: Math.round(order.price * 100),
          triggerPrice: Math.round(order.trigger_price * 100),
          filledQty: order.filled_quantity,
          remainingQty: order.quantity - order.filled_quantity,
          avgFillPrice: Math.round(order.average_fill_price * 100),
          growwOrderId: order.groww_order_id,
          // Groww's enum has no OPEN: an accepted order is ACKED
          orderStatus: order.order_status === 'OPEN' ? 'ACKED' : order.order_status,
          segment: 1,
          exchange: 1,
          product: order.product,
          orderType: order.order_type === 'SL' ? 'SL' : 'L',
          buySell: order.transaction_type === 'BUY' ? 'B' : 'S',
        },
      }),
    ).finish();
    for (const client of this.clients) {
      if (client.grant?.ucc !== order.ucc) continue;
      const subject = `${ORDER_PREFIX}${client.grant.subscriptionId}`;
      const sid = client.subs.get(subject);
      if (sid === undefined) continue;
      this.pushes += 1;
      client.ws.send(msgFrame(subject, sid, payload));
    }
  }

  close(): void {
    clearInterval(this.ticker);
    this.dropAll();
    this.wss.close();
  }

  private accept(ws: WebSocket): void {
    const client: Client = {
      ws,
      nonce: randomBytes(16).toString('base64url'),
      grant: undefined,
      subs: new Map(),
      buffer: '',
    };
    this.clients.add(client);
    ws.on('close', () => this.clients.delete(client));
    ws.on('error', () => undefined);
    const info = {
      server_id: 'fake-groww',
      version: '2.10.0',
      proto: 1,
      headers: true,
      max_payload: 1_048_576,
      auth_required: true,
      nonce: client.nonce,
    };
    ws.send(Buffer.from(`INFO ${JSON.stringify(info)}\r\n`));
    ws.on('message', (data: Buffer) => {
      client.buffer += data.toString('utf8');
      let end;
      while ((end = client.buffer.indexOf('\r\n')) >= 0) {
        const line = client.buffer.slice(0, end);
        client.buffer = client.buffer.slice(end + 2);
        this.line(client, line);
      }
    });
  }

  private line(client: Client, line: string): void {
    const [verb = '', ...args] = line.split(' ');
    const refuse = (): void => {
      client.ws.send("-ERR 'Authorization Violation'\r\n");
      client.ws.close();
    };
    switch (verb.toUpperCase()) {
      case 'CONNECT': {
        const options = JSON.parse(line.slice(8)) as { jwt?: string; sig?: string };
        const grant = this.grants.get(options.jwt ?? '');
        if (grant === undefined || !this.signed(grant, client.nonce, options.sig ?? '')) return refuse();
        client.grant = grant;
        this.connections += 1;
        return;
      }
      case 'PING':
        client.ws.send('PONG\r\n');
        return;
      case 'PONG':
        return;
      case 'SUB': {
        const [subject = '', sid = ''] = args;
        if (client.grant === undefined) return refuse();
        // Order subjects are the account's own only.
        if (subject.startsWith(ORDER_PREFIX) && subject !== `${ORDER_PREFIX}${client.grant.subscriptionId}`) {
          return refuse();
        }
        client.subs.set(subject, sid);
        return;
      }
      case 'UNSUB':
        for (const [subject, sid] of client.subs) if (sid === args[0]) client.subs.delete(subject);
        return;
      default:
        client.ws.send("-ERR 'Unknown Protocol Operation'\r\n");
        client.ws.close();
    }
  }

  private signed(grant: Grant, nonce: string, sig: string): boolean {
    const key = createPublicKey({
      key: { kty: 'OKP', crv: 'Ed25519', x: grant.publicKey.toString('base64url') },
      format: 'jwk',
    });
    return verify(null, Buffer.from(nonce), key, Buffer.from(sig, 'base64url'));
  }

  private tick(): void {
    if (this.clients.size === 0) return;
    const prices = this.options.prices();
    const now = Date.now();
    for (const client of this.clients) {
      for (const [subject, sid] of client.subs) {
        let message: Record<string, unknown> | undefined;
        if (subject === INDEX_SUBJECT) {
          message = {
            symbol: 'NIFTY',
            exchange: 1,
            stocksLiveIndices: { tsInMillis: now, value: prices.index },
          };
        } else if (subject.startsWith(OPTION_PREFIX)) {
          const token = subject.slice(OPTION_PREFIX.length);
          const instrument = this.options.instruments.find((i) => i.token === token);
          if (instrument === undefined) continue;
          const ltp = prices.option(instrument.tradingSymbol);
          message = {
            symbol: instrument.tradingSymbol,
            segment: 1,
            exchange: 1,
            stockLivePrice: { tsInMillis: now, ltp },
          };
        }
        if (message === undefined) continue;
        client.ws.send(
          msgFrame(
            subject,
            sid,
            StocksSocketResponse.encode(StocksSocketResponse.fromObject(message)).finish(),
          ),
        );
      }
    }
  }
}
