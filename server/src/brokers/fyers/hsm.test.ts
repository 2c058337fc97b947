import { describe, expect, it } from 'vitest';
import {
  DEFAULT_HSM_LAYOUT,
  encodeAck,
  encodeAuth,
  encodeChannelResume,
  encodeSubscribe,
  HSM_PING,
  HsmDecoder,
  hsmKeyOf,
  layoutOf,
  NIFTY_INDEX_TOPIC,
} from './hsm';

// Frames the official `fyers-api-v3` 1.9.0 data socket sent to a loopback server for the hsm_key
// "abcdef0123456789hsmkey" after subscribing NSE:NIFTY50-INDEX and an option of scrip code 43210 (captured bytes).
const OFFICIAL = {
  auth: '002c01040100166162636465663031323334353637383968736d6b657902000150030001010400064a535f415049',
  subscribeIndex: '001e040201001500011269667c6e73655f636d7c4e696674792035300200010b',
  subscribeOption: '001b040201001200010f73667c6e73655f666f7c34333231300200010b',
  resume: '000d08010100080000000000000800',
  ack1: '0009030101000400000001',
};

function serverFrame(type: number, body: Buffer): Buffer {
  const length = Buffer.alloc(2);
  length.writeUInt16BE(body.length + 1);
  return Buffer.concat([length, Buffer.from([type]), body]);
}

function field(id: number, value: Buffer): Buffer {
  const head = Buffer.from([id, 0, 0]);
  head.writeUInt16BE(value.length, 1);
  return Buffer.concat([head, value]);
}

function short(text: string): Buffer {
  return Buffer.concat([Buffer.from([text.length]), Buffer.from(text)]);
}

function ints(values: number[]): Buffer {
  const out = Buffer.alloc(values.length * 4);
  values.forEach((v, i) => out.writeInt32BE(v, i * 4));
  return out;
}

const NONE = -0x80000000;

/** A snapshot item: topic id, name, values, then 2 unused bytes, multiplier, precision and three strings. */
function snapshot(id: number, name: string, values: number[], multiplier = 1, precision = 2): Buffer {
  const head = Buffer.from([0x53, 0, 0]);
  head.writeUInt16BE(id, 1);
  const scale = Buffer.from([0, 0, 0, 0, precision]);
  scale.writeUInt16BE(multiplier, 2);
  return Buffer.concat([
    head,
    short(name),
    Buffer.from([values.length]),
    ints(values),
    scale,
    short('nse'),
    short('x'),
    short('y'),
  ]);
}

function update(id: number, values: number[]): Buffer {
  const head = Buffer.from([0x55, 0, 0]);
  head.writeUInt16BE(id, 1);
  return Buffer.concat([head, Buffer.from([values.length]), ints(values)]);
}

function data(items: Buffer[], messageNumber?: number): Buffer {
  const head = Buffer.alloc(messageNumber === undefined ? 2 : 6);
  if (messageNumber !== undefined) head.writeUInt32BE(messageNumber);
  head.writeUInt16BE(items.length, messageNumber === undefined ? 0 : 4);
  return serverFrame(6, Buffer.concat([head, ...items]));
}

function connection(status: string, ackEvery?: number, map?: unknown): Buffer {
  const fields = [field(1, Buffer.from(status))];
  if (ackEvery !== undefined) fields.push(field(2, Buffer.from([0, ackEvery])));
  if (map !== undefined) fields.push(field(3, Buffer.from(JSON.stringify(map))));
  return serverFrame(1, Buffer.concat([Buffer.from([fields.length]), ...fields]));
}

describe('HSM requests', () => {
  it('match the official client byte for byte', () => {
    expect(encodeAuth('abcdef0123456789hsmkey', 'JS_API').toString('hex')).toBe(OFFICIAL.auth);
    // Our own name as the source, in the same frame.
    expect(encodeAuth('abcdef0123456789hsmkey').subarray(-11).toString('latin1')).toBe('OptionPilot');
    expect(encodeSubscribe([NIFTY_INDEX_TOPIC]).toString('hex')).toBe(OFFICIAL.subscribeIndex);
    expect(encodeSubscribe(['sf|nse_fo|43210']).toString('hex')).toBe(OFFICIAL.subscribeOption);
    expect(encodeChannelResume().toString('hex')).toBe(OFFICIAL.resume);
    expect(encodeAck(1).toString('hex')).toBe(OFFICIAL.ack1);
    expect([...HSM_PING]).toEqual([0, 1, 11]);
  });

  it('puts several topics in one subscription, counted', () => {
    const frame = encodeSubscribe([NIFTY_INDEX_TOPIC, 'sf|nse_fo|43210']);
    expect(frame.readUInt16BE(0)).toBe(frame.length - 2);
    expect(frame.readUInt16BE(7)).toBe(2);
  });
});

describe('HsmDecoder', () => {
  it('reads the connection answer: status, acknowledgement interval and the field map', () => {
    const decoder = new HsmDecoder();
    const map = {
      fields: [
        { fid: 's104', fld: 'v' },
        { fid: 's105', fld: 'ltp' },
        { fid: 's110', fld: 'bp' },
        { fid: 's111', fld: 'sp' },
        { fid: 'i103', fld: 'ic' },
        { fid: 'i102', fld: 'iv' },
      ],
      scrip: ['s104', 's105', 's110', 's111'],
      index: ['i103', 'i102'],
    };
    expect(decoder.decode(connection('K', 5, map))).toEqual({
      type: 'connected',
      ok: true,
      ackEvery: 5,
      layout: { scripLtp: 1, scripBid: 2, scripAsk: 3, indexLtp: 1 },
    });
    expect(new HsmDecoder().decode(connection('N'))).toMatchObject({
      type: 'connected',
      ok: false,
      ackEvery: 0,
    });
  });

  it('scales prices by multiplier and precision, and applies updates to the last snapshot', () => {
    const decoder = new HsmDecoder();
    decoder.decode(connection('K'));
    const option = Array.from({ length: 21 }, () => NONE);
    option[0] = 12_050;
    option[6] = 12_000;
    option[7] = 12_100;
    const first = decoder.decode(
      data([snapshot(1, NIFTY_INDEX_TOPIC, [2_412_345, 2_400_000]), snapshot(2, 'sf|nse_fo|43210', option)]),
    );
    expect(first).toEqual({
      type: 'prices',
      prices: [
        { topic: NIFTY_INDEX_TOPIC, ltp: 24_123.45 },
        { topic: 'sf|nse_fo|43210', ltp: 120.5, bid: 120, ask: 121 },
      ],
    });
    // An update carries only the fields that changed; "no value" keeps the previous one.
    const next = decoder.decode(data([update(2, [12_075, NONE, NONE, NONE, NONE, NONE, NONE, 12_080])]));
    expect(next).toEqual({
      type: 'prices',
      prices: [{ topic: 'sf|nse_fo|43210', ltp: 120.75, bid: 120, ask: 120.8 }],
    });
    const scaled = decoder.decode(data([snapshot(3, 'sf|nse_fo|43211', [120_500], 10, 2)]));
    expect(scaled).toMatchObject({ prices: [{ ltp: 120.5 }] });
  });

  it('reads the message number when the connection asked for acknowledgements', () => {
    const decoder = new HsmDecoder();
    decoder.decode(connection('K', 3));
    expect(decoder.decode(data([snapshot(1, NIFTY_INDEX_TOPIC, [2_400_000])], 42))).toMatchObject({
      messageNumber: 42,
      prices: [{ ltp: 24_000 }],
    });
  });

  it('ignores updates of unknown topics and throws on a truncated frame', () => {
    const decoder = new HsmDecoder();
    decoder.decode(connection('K'));
    expect(decoder.decode(data([update(9, [1])]))).toEqual({ type: 'prices', prices: [] });
    const truncated = data([snapshot(1, NIFTY_INDEX_TOPIC, [2_400_000])]).subarray(0, 12);
    expect(() => decoder.decode(truncated)).toThrow(RangeError);
  });

  it('falls back to the usual field order without a map', () => {
    expect(layoutOf(undefined)).toEqual(DEFAULT_HSM_LAYOUT);
    expect(layoutOf({ scrip: ['x'], fields: [] })).toEqual(DEFAULT_HSM_LAYOUT);
  });
});

describe('hsmKeyOf', () => {
  it('reads the hsm_key claim of an access token, and nothing from a malformed one', () => {
    const claims = Buffer.from(JSON.stringify({ hsm_key: 'k3y', fy_id: 'XA01234' })).toString('base64url');
    expect(hsmKeyOf(`eyJhbGciOiJIUzI1NiJ9.${claims}.sig`)).toBe('k3y');
    expect(hsmKeyOf('not-a-jwt')).toBeUndefined();
    expect(hsmKeyOf('a.b.c')).toBeUndefined();
  });
});
