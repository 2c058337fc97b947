// The binary protocol of Fyers' data socket (HSM, `<FYERS_WS_ROOT>/hsm/v1-5/prod`) as the official `fyers-api-v3`
// client speaks it (its HSM_Package), reduced to what the market feed needs: authenticate, subscribe, resume the
// channel, acknowledge, ping; decode the connection answer and the data packets. Every frame starts with a
// big-endian u16 length of the rest, then a u8 type; requests carry u8 field count and fields of
// (u8 id, u16 length, bytes). Prices are i32 scaled by multiplier × 10^precision; i32 MIN means "no value".

/** Frame types. */
export const HSM_TYPE = {
  CONNECTION: 1,
  ACK: 3,
  SUBSCRIBE: 4,
  UNSUBSCRIBE: 5,
  DATA: 6,
  CHANNEL_PAUSE: 7,
  CHANNEL_RESUME: 8,
  PING: 11,
} as const;

/** Data item kinds: a full snapshot of a topic, an update of its fields, a lite update (never requested). */
const ITEM_SNAPSHOT = 0x53; // 'S'
const ITEM_UPDATE = 0x55; // 'U'

/** The value of a field that has none. */
export const HSM_NO_VALUE = -0x80000000;

/** The channel the official client uses for its subscriptions. */
export const HSM_CHANNEL = 11;

/**
 * The source named at authentication. The official JS client sends `JS_API`; other clients name themselves (OpenAlgo
 * sends its own name against the real socket), so we send ours.
 */
export const HSM_SOURCE = 'OptionPilot';

/** The socket's keep-alive request: length 1, type 11. */
export const HSM_PING = Buffer.from([0, 1, HSM_TYPE.PING]);

/** The NIFTY 50 index topic (the index's display name, as the official client maps `NSE:NIFTY50-INDEX`). */
export const NIFTY_INDEX_TOPIC = 'if|nse_cm|Nifty 50';

function frame(type: number, fields: readonly (readonly [number, Buffer])[]): Buffer {
  const parts: Buffer[] = [Buffer.from([type, fields.length])];
  for (const [id, value] of fields) {
    const head = Buffer.alloc(3);
    head[0] = id;
    head.writeUInt16BE(value.length, 1);
    parts.push(head, value);
  }
  const body = Buffer.concat(parts);
  const length = Buffer.alloc(2);
  length.writeUInt16BE(body.length);
  return Buffer.concat([length, body]);
}

/** Authentication: the `hsm_key` of the access token, mode "P", flag 1 and the source. */
export function encodeAuth(hsmKey: string, source = HSM_SOURCE): Buffer {
  return frame(HSM_TYPE.CONNECTION, [
    [1, Buffer.from(hsmKey, 'utf8')],
    [2, Buffer.from('P', 'latin1')],
    [3, Buffer.from([1])],
    [4, Buffer.from(source, 'utf8')],
  ]);
}

function topicList(topics: readonly string[]): Buffer {
  const count = Buffer.alloc(2);
  count.writeUInt16BE(topics.length);
  const parts: Buffer[] = [count];
  for (const topic of topics) {
    const name = Buffer.from(topic, 'utf8');
    parts.push(Buffer.from([name.length]), name);
  }
  return Buffer.concat(parts);
}

/** Subscribes topics (`if|nse_cm|Nifty 50`, `sf|nse_fo|<scrip code>`) on a channel. */
export function encodeSubscribe(topics: readonly string[], channel = HSM_CHANNEL): Buffer {
  return frame(HSM_TYPE.SUBSCRIBE, [
    [1, topicList(topics)],
    [2, Buffer.from([channel])],
  ]);
}

export function encodeUnsubscribe(topics: readonly string[], channel = HSM_CHANNEL): Buffer {
  return frame(HSM_TYPE.UNSUBSCRIBE, [
    [1, topicList(topics)],
    [2, Buffer.from([channel])],
  ]);
}

/** Resumes a channel: a u64 bit mask of channel numbers. */
export function encodeChannelResume(channel = HSM_CHANNEL): Buffer {
  const mask = Buffer.alloc(8);
  mask.writeBigUInt64BE(1n << BigInt(channel));
  return frame(HSM_TYPE.CHANNEL_RESUME, [[1, mask]]);
}

/** Acknowledges data messages up to `messageNumber` (when the connection answer asked for acks). */
export function encodeAck(messageNumber: number): Buffer {
  const value = Buffer.alloc(4);
  value.writeUInt32BE(messageNumber >>> 0);
  return frame(HSM_TYPE.ACK, [[1, value]]);
}

/** Where the prices are among a topic's fields: from the connection answer's field map, or Fyers' usual order. */
export interface HsmFieldLayout {
  readonly scripLtp: number;
  readonly scripBid: number;
  readonly scripAsk: number;
  readonly indexLtp: number;
}

/** The field order the official client receives today when the answer carries no map (ltp, …, bp, sp, …). */
export const DEFAULT_HSM_LAYOUT: HsmFieldLayout = { scripLtp: 0, scripBid: 6, scripAsk: 7, indexLtp: 0 };

interface FieldMap {
  fields?: { fid?: unknown; fld?: unknown }[];
  scrip?: unknown[];
  index?: unknown[];
}

/** The layout of a connection answer's field map (`fields` name each `fid`; `scrip` / `index` order them). */
export function layoutOf(map: unknown): HsmFieldLayout {
  const m = (typeof map === 'object' && map !== null ? map : {}) as FieldMap;
  const nameOf = new Map<unknown, unknown>((m.fields ?? []).map((f) => [f.fid, f.fld]));
  const position = (list: unknown[] | undefined, name: string, fallback: number): number => {
    const at = (list ?? []).findIndex((fid) => nameOf.get(fid) === name);
    return at >= 0 ? at : fallback;
  };
  return {
    scripLtp: position(m.scrip, 'ltp', DEFAULT_HSM_LAYOUT.scripLtp),
    scripBid: position(m.scrip, 'bp', DEFAULT_HSM_LAYOUT.scripBid),
    scripAsk: position(m.scrip, 'sp', DEFAULT_HSM_LAYOUT.scripAsk),
    indexLtp: position(m.index, 'iv', DEFAULT_HSM_LAYOUT.indexLtp),
  };
}

/** A decoded server frame. */
export type HsmEvent =
  | {
      readonly type: 'connected';
      readonly ok: boolean;
      readonly ackEvery: number;
      readonly layout: HsmFieldLayout;
    }
  | { readonly type: 'prices'; readonly messageNumber?: number; readonly prices: readonly HsmPrice[] }
  | { readonly type: 'other'; readonly frameType: number };

/** One topic's prices after a data item (rupees; undefined where the topic has no value yet). */
export interface HsmPrice {
  readonly topic: string;
  readonly ltp?: number;
  readonly bid?: number;
  readonly ask?: number;
}

interface TopicState {
  readonly name: string;
  readonly values: number[];
  multiplier: number;
  precision: number;
}

/**
 * Decodes one connection's frames. It keeps what the protocol makes stateful: the topic ids a snapshot named,
 * their last values (updates carry only fields), each topic's scale, and whether data carries message numbers.
 */
export class HsmDecoder {
  private readonly topics = new Map<number, TopicState>();
  private ackEvery = 0;
  private layout = DEFAULT_HSM_LAYOUT;

  decode(data: Buffer): HsmEvent {
    const reader = new Reader(data);
    reader.u16(); // length
    const frameType = reader.u8();
    if (frameType === HSM_TYPE.CONNECTION) return this.connection(reader);
    if (frameType === HSM_TYPE.DATA) return this.data(reader);
    return { type: 'other', frameType };
  }

  private connection(reader: Reader): HsmEvent {
    const count = reader.u8();
    reader.u8(); // field id
    const ok = reader.bytes(reader.u16()).toString('latin1') === 'K';
    if (count >= 2) {
      reader.u8();
      const length = reader.u16();
      let ackEvery = 0;
      for (const byte of reader.bytes(length)) ackEvery = ackEvery * 256 + byte;
      this.ackEvery = ackEvery;
    }
    if (count >= 3) {
      reader.u8();
      const text = reader.bytes(reader.u16()).toString('utf8');
      try {
        this.layout = layoutOf(JSON.parse(text));
      } catch {
        this.layout = DEFAULT_HSM_LAYOUT;
      }
    }
    return { type: 'connected', ok, ackEvery: this.ackEvery, layout: this.layout };
  }

  private data(reader: Reader): HsmEvent {
    const messageNumber = this.ackEvery > 0 ? reader.u32() : undefined;
    const count = reader.u16();
    const prices: HsmPrice[] = [];
    for (let i = 0; i < count && reader.remaining() > 0; i += 1) {
      const kind = reader.u8();
      let state: TopicState | undefined;
      if (kind === ITEM_SNAPSHOT) {
        const id = reader.u16();
        const name = reader.bytes(reader.u8()).toString('utf8');
        state = { name, values: [], multiplier: 1, precision: 2 };
        const fields = reader.u8();
        for (let f = 0; f < fields; f += 1) state.values[f] = reader.i32();
        reader.bytes(2);
        state.multiplier = reader.u16() || 1;
        state.precision = reader.u8();
        for (let s = 0; s < 3; s += 1) reader.bytes(reader.u8()); // exchange, token, symbol
        this.topics.set(id, state);
      } else if (kind === ITEM_UPDATE) {
        const id = reader.u16();
        const fields = reader.u8();
        state = this.topics.get(id);
        for (let f = 0; f < fields; f += 1) {
          const value = reader.i32();
          if (state !== undefined && value !== HSM_NO_VALUE) state.values[f] = value;
        }
      } else {
        // Lite items have no field count; we never ask for them, so the rest of the frame cannot be read.
        break;
      }
      if (state !== undefined) prices.push(this.priceOf(state));
    }
    return { type: 'prices', ...(messageNumber === undefined ? {} : { messageNumber }), prices };
  }

  private priceOf(state: TopicState): HsmPrice {
    const scale = state.multiplier * 10 ** state.precision;
    const at = (index: number): number | undefined => {
      const raw = state.values[index];
      return raw === undefined || raw === HSM_NO_VALUE ? undefined : raw / scale;
    };
    if (state.name.startsWith('if|')) return { topic: state.name, ltp: at(this.layout.indexLtp) };
    return {
      topic: state.name,
      ltp: at(this.layout.scripLtp),
      bid: at(this.layout.scripBid),
      ask: at(this.layout.scripAsk),
    };
  }
}

/** A bounds-checked big-endian reader; reading past the end throws RangeError (a corrupt frame). */
class Reader {
  private offset = 0;
  constructor(private readonly data: Buffer) {}
  remaining(): number {
    return this.data.length - this.offset;
  }
  u8(): number {
    const v = this.data.readUInt8(this.offset);
    this.offset += 1;
    return v;
  }
  u16(): number {
    const v = this.data.readUInt16BE(this.offset);
    this.offset += 2;
    return v;
  }
  u32(): number {
    const v = this.data.readUInt32BE(this.offset);
    this.offset += 4;
    return v;
  }
  i32(): number {
    const v = this.data.readInt32BE(this.offset);
    this.offset += 4;
    return v;
  }
  bytes(length: number): Buffer {
    if (this.offset + length > this.data.length) throw new RangeError('HSM frame ends early');
    const v = this.data.subarray(this.offset, this.offset + length);
    this.offset += length;
    return v;
  }
}

/** The `hsm_key` claim of a Fyers access token (a JWT; read, not verified: Fyers verifies it). */
export function hsmKeyOf(accessToken: string): string | undefined {
  const payload = accessToken.split('.')[1];
  if (payload === undefined) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { hsm_key?: unknown };
    return typeof claims.hsm_key === 'string' && claims.hsm_key.length > 0 ? claims.hsm_key : undefined;
  } catch {
    return undefined;
  }
}
