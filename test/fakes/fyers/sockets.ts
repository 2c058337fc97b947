// The fake's two WebSockets. The order socket (`/trade/v3`, Authorization header) answers "ping" with "pong",
// takes `SUB_ORD` and pushes `{"orders": {…}}` for every change of the account's orders. The data socket
// (`/hsm/v1-5/prod`) speaks HSM's binary frames as the official client expects them (see
// server/src/brokers/fyers/hsm.ts): an auth frame with a live session's `hsm_key` is answered "K" with an
// acknowledgement interval and the field map; subscribed topics get a snapshot first, then updates; acks are
// recorded.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { FyersFakeApp } from './auth';

/** The field map the fake's connection answer carries (the official client needs it to name fields). */
const SCRIP_FIELDS = [
  'v',
  'ltp',
  'ltt',
  'fdtm',
  'bq',
  'bs',
  'bp',
  'sp',
  'ltq',
  'tbq',
  'tsq',
  'ap',
  'OI',
  'lo',
  'h',
  'Yhigh',
  'Ylow',
  'lower_ckt',
  'upper_ckt',
  'op',
  'c',
];
const SCRIP_FIDS = [
  's104',
  's105',
  's106',
  's107',
  's108',
  's109',
  's110',
  's111',
  's112',
  's114',
  's115',
  's113',
  's116',
  's117',
  's118',
  's119',
  's120',
  's122',
  's123',
  's124',
  's121',
];
const INDEX_FIELDS = ['iv', 'ic', 'tvalue', 'highPrice', 'lowPrice', 'openingPrice'];
const INDEX_FIDS = ['i102', 'i103', 'i104', 'i105', 'i106', 'i107'];
const PRICE_FIELDS = new Set([
  'ltp',
  'bp',
  'sp',
  'ap',
  'lo',
  'h',
  'op',
  'c',
  'Yhigh',
  'Ylow',
  'lower_ckt',
  'upper_ckt',
  'iv',
  'ic',
  'highPrice',
  'lowPrice',
  'openingPrice',
]);

export const FAKE_FIELD_MAP = {
  fields: [
    ...SCRIP_FIELDS.map((fld, i) => ({ fid: SCRIP_FIDS[i], fld })),
    ...INDEX_FIELDS.map((fld, i) => ({ fid: INDEX_FIDS[i], fld })),
    ...['f101', 'f102', 'f103', 'f104', 'f105'].map((fid, i) => ({
      fid,
      fld: ['cng', 'nc', 'tt', 'cng', 'nc'][i],
    })),
  ].map((f) => ({
    ...f,
    dataType:
      f.fld === 'ltt' || f.fld === 'fdtm' || f.fld === 'tvalue'
        ? 'timestamp'
        : PRICE_FIELDS.has(f.fld ?? '')
          ? 'ConvNumber'
          : 'Number',
    details: '',
  })),
  scrip: SCRIP_FIDS,
  index: INDEX_FIDS,
  depth: [],
  scrip_lite: { hfid: 1 },
  index_lite: { hfid: 1 },
};

const NO_VALUE = -0x80000000;

function serverFrame(type: number, body: Buffer): Buffer {
  const length = Buffer.alloc(2);
  length.writeUInt16BE(body.length + 1);
  return Buffer.concat([length, Buffer.from([type]), body]);
}

function field(id: number, value: Buffer): Buffer {
  const head = Buffer.alloc(3);
  head[0] = id;
  head.writeUInt16BE(value.length, 1);
  return Buffer.concat([head, value]);
}

function short(value: string): Buffer {
  const bytes = Buffer.from(value, 'utf8');
  return Buffer.concat([Buffer.from([bytes.length]), bytes]);
}

function ints(values: readonly number[]): Buffer {
  const out = Buffer.alloc(values.length * 4);
  values.forEach((v, i) => out.writeInt32BE(v, i * 4));
  return out;
}

/** The client frames the fake reads: (type, fields by id). */
function readClientFrame(data: Buffer): { type: number; fields: Map<number, Buffer> } | undefined {
  if (data.length < 3) return undefined;
  const type = data[2] ?? 0;
  const fields = new Map<number, Buffer>();
  if (data.length < 4) return { type, fields };
  let at = 4;
  for (let i = 0; i < (data[3] ?? 0) && at + 3 <= data.length; i += 1) {
    const id = data[at] ?? 0;
    const length = data.readUInt16BE(at + 1);
    fields.set(id, data.subarray(at + 3, at + 3 + length));
    at += 3 + length;
  }
  return { type, fields };
}

interface HsmClient {
  readonly socket: WebSocket;
  app?: FyersFakeApp;
  readonly topics: Map<string, number>;
  readonly snapshotSent: Set<string>;
  messageNumber: number;
}

/** Prices to push: the index LTP and option LTPs by FyToken (rupees). */
export interface HsmPush {
  readonly index?: number;
  readonly quotes?: Readonly<Record<string, number>>;
}

export class FakeHsmSocket {
  private readonly wss = new WebSocketServer({ noServer: true });
  private readonly clients = new Set<HsmClient>();
  private nextTopicId = 1;
  /** every acknowledged message number, in order */
  readonly acks: number[] = [];
  /** topics every client subscribed, merged */
  readonly subscribed = new Set<string>();

  constructor(
    private readonly appOfHsmKey: (hsmKey: string) => FyersFakeApp | undefined,
    /** FyToken → the option's topic */
    private readonly topicOf: (fyToken: string) => string | undefined,
    /** the connection answer asks for an acknowledgement every this many data messages */
    private readonly ackEvery: number,
  ) {}

  upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    this.wss.handleUpgrade(request, socket, head, (ws) => this.accept(ws));
  }

  get connections(): number {
    return [...this.clients].filter((c) => c.app !== undefined).length;
  }

  private accept(socket: WebSocket): void {
    const client: HsmClient = { socket, topics: new Map(), snapshotSent: new Set(), messageNumber: 0 };
    this.clients.add(client);
    socket.on('close', () => this.clients.delete(client));
    socket.on('message', (data, isBinary) => {
      if (!isBinary || !Buffer.isBuffer(data)) return;
      const frame = readClientFrame(data);
      if (frame === undefined) return;
      if (frame.type === 1) this.authenticate(client, frame.fields);
      else if (frame.type === 4 && client.app !== undefined) this.subscribe(client, frame.fields.get(1));
      else if (frame.type === 5) this.unsubscribe(client, frame.fields.get(1));
      else if (frame.type === 3) this.acks.push(frame.fields.get(1)?.readUInt32BE(0) ?? -1);
    });
  }

  private authenticate(client: HsmClient, fields: Map<number, Buffer>): void {
    client.app = this.appOfHsmKey(fields.get(1)?.toString('utf8') ?? '');
    const status = client.app === undefined ? 'N' : 'K';
    const ackEvery = Buffer.alloc(2);
    ackEvery.writeUInt16BE(this.ackEvery);
    const map = Buffer.from(JSON.stringify(FAKE_FIELD_MAP), 'utf8');
    client.socket.send(
      serverFrame(
        1,
        Buffer.concat([Buffer.from([3]), field(1, Buffer.from(status)), field(2, ackEvery), field(3, map)]),
      ),
    );
    if (client.app === undefined) client.socket.close(1000);
  }

  private topicsOf(list: Buffer | undefined): string[] {
    if (list === undefined || list.length < 2) return [];
    const topics: string[] = [];
    let at = 2;
    for (let i = 0; i < list.readUInt16BE(0) && at < list.length; i += 1) {
      const length = list[at] ?? 0;
      topics.push(list.subarray(at + 1, at + 1 + length).toString('utf8'));
      at += 1 + length;
    }
    return topics;
  }

  private subscribe(client: HsmClient, list: Buffer | undefined): void {
    for (const topic of this.topicsOf(list)) {
      if (!client.topics.has(topic)) client.topics.set(topic, this.nextTopicId++);
      this.subscribed.add(topic);
    }
    // The subscription answer: one status field "K".
    client.socket.send(serverFrame(4, Buffer.concat([Buffer.from([1]), field(1, Buffer.from('K'))])));
  }

  private unsubscribe(client: HsmClient, list: Buffer | undefined): void {
    for (const topic of this.topicsOf(list)) client.topics.delete(topic);
  }

  /** Sends one data frame per client with an item for every subscribed topic the push prices. */
  push(push: HsmPush): void {
    const priced = new Map<string, number>();
    if (push.index !== undefined) priced.set('if|nse_cm|Nifty 50', push.index);
    for (const [fyToken, ltp] of Object.entries(push.quotes ?? {})) {
      const topic = this.topicOf(fyToken);
      if (topic !== undefined) priced.set(topic, ltp);
    }
    for (const client of this.clients) {
      if (client.app === undefined) continue;
      const items: Buffer[] = [];
      for (const [topic, id] of client.topics) {
        const price = priced.get(topic);
        if (price !== undefined) items.push(this.item(client, topic, id, price));
      }
      if (items.length === 0) continue;
      client.messageNumber += 1;
      const head = Buffer.alloc(this.ackEvery > 0 ? 6 : 2);
      if (this.ackEvery > 0) head.writeUInt32BE(client.messageNumber, 0);
      head.writeUInt16BE(items.length, this.ackEvery > 0 ? 4 : 0);
      client.socket.send(serverFrame(6, Buffer.concat([head, ...items])));
    }
  }

  /** A snapshot the first time a topic is priced on a connection, an update after. Values in paise. */
  private item(client: HsmClient, topic: string, id: number, price: number): Buffer {
    const index = topic.startsWith('if|');
    const names = index ? INDEX_FIELDS : SCRIP_FIELDS;
    const paise = Math.round(price * 100);
    const values = names.map((name) =>
      name === 'ltp' || name === 'iv'
        ? paise
        : name === 'bp'
          ? paise - 5
          : name === 'sp'
            ? paise + 5
            : name === 'c' || name === 'ic'
              ? paise - 2_000
              : NO_VALUE,
    );
    const topicId = Buffer.alloc(2);
    topicId.writeUInt16BE(id);
    if (client.snapshotSent.has(topic)) {
      return Buffer.concat([Buffer.from([0x55]), topicId, Buffer.from([values.length]), ints(values)]);
    }
    client.snapshotSent.add(topic);
    const scale = Buffer.from([0, 0, 0, 1, 2]); // 2 bytes unused, multiplier 1, precision 2
    const [, segment, token] = topic.split('|');
    return Buffer.concat([
      Buffer.from([0x53]),
      topicId,
      short(topic),
      Buffer.from([values.length]),
      ints(values),
      scale,
      short(segment ?? ''),
      short(token ?? ''),
      short(index ? 'NIFTY50-INDEX' : (token ?? '')),
    ]);
  }

  /** The `drop_socket` fault: closes every connection abruptly. */
  drop(): void {
    for (const c of this.clients) c.socket.terminate();
  }

  close(): void {
    this.drop();
    this.wss.close();
  }
}

export class FakeOrderSocket {
  private readonly wss = new WebSocketServer({ noServer: true });
  private readonly clients = new Set<{ socket: WebSocket; app: FyersFakeApp; subscribed: boolean }>();

  constructor(private readonly authorise: (header: string | undefined) => FyersFakeApp | undefined) {}

  /** Refuses an upgrade without a live session's Authorization with 401, as a refused handshake. */
  upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    const app = this.authorise(request.headers.authorization);
    if (app === undefined) {
      socket.end('HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    this.wss.handleUpgrade(request, socket, head, (ws) => {
      const client = { socket: ws, app, subscribed: false };
      this.clients.add(client);
      ws.on('close', () => this.clients.delete(client));
      ws.on('message', (data) => {
        const text = String(data);
        if (text === 'ping') return ws.send('pong');
        try {
          const message = JSON.parse(text) as { T?: unknown; SLIST?: unknown };
          if (message.T === 'SUB_ORD' && Array.isArray(message.SLIST) && message.SLIST.includes('orders')) {
            client.subscribed = true;
            ws.send(JSON.stringify({ s: 'ok', code: 1605, message: 'Successfully subscribed' }));
          }
        } catch {
          // not JSON: ignored, as Fyers does
        }
      });
    });
  }

  /** Subscribed order sockets of an account. */
  connectionsOf(fyId: string): number {
    return [...this.clients].filter((c) => c.app.fyId === fyId && c.subscribed).length;
  }

  get connections(): number {
    return this.clients.size;
  }

  push(fyId: string, message: unknown): void {
    const text = JSON.stringify(message);
    for (const c of this.clients) if (c.app.fyId === fyId && c.subscribed) c.socket.send(text);
  }

  drop(): void {
    for (const c of this.clients) c.socket.terminate();
  }

  close(): void {
    this.drop();
    this.wss.close();
  }
}
