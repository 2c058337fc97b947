// One frame per tick, counted where it matters: at real Socket.IO clients of a real server whose simulated feed runs
// ten virtual minutes per real second, so one-minute candles close every ~100 ms. Frames are Engine.IO message
// packets as the client receives them; encodes are counted at the server's one encoder, which every room emit
// goes through (a per-socket loop would encode once per socket).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CandleDto, MarketTickEventDto } from '../contract';
import { registration, startTestServer, type TestServer } from '../testing/server';
import { connected, openSocket, type TestSocket } from '../testing/socket';

interface Frame {
  event: string;
  payload: unknown;
}

const CLIENTS = 3;
const TICKS_WANTED = 12;

describe('market frames at real clients', () => {
  let t: TestServer;
  const sockets: TestSocket[] = [];
  const frames: Frame[][] = [];
  const encodes: string[] = [];
  /** set once every client is connected: encodes and frames are compared over the same stretch */
  let recording = false;
  const recorded: number[] = [];

  beforeAll(async () => {
    t = await startTestServer({ env: { SIM_SPEED: '600', SIM_SEED: '20260105', TICK_BROADCAST_MS: '100' } });
    const reg = await t.request('POST', '/api/auth/register', { body: registration('frames') });
    const token = reg.json.token as string;

    const encoder = (t.server.io as unknown as { encoder: { encode: (packet: unknown) => unknown[] } })
      .encoder;
    const encode = encoder.encode.bind(encoder);
    encoder.encode = (packet) => {
      const data = (packet as { data?: unknown[] }).data;
      if (recording && typeof data?.[0] === 'string') encodes.push(data[0]);
      return encode(packet);
    };

    for (let i = 0; i < CLIENTS; i += 1) {
      const socket = openSocket(t.url, token);
      sockets.push(socket);
      const own: Frame[] = [];
      frames.push(own);
      recorded.push(0);
      socket.io.on('open', () => {
        socket.io.engine.on('packet', (packet: { type: string; data?: unknown }) => {
          if (packet.type !== 'message' || typeof packet.data !== 'string') return;
          // A Socket.IO EVENT packet is "2" followed by its JSON array: [name, payload].
          const body = packet.data.slice(packet.data.indexOf('['));
          if (!packet.data.startsWith('2')) return;
          const [event, payload] = JSON.parse(body) as [string, unknown];
          own.push({ event, payload });
          if (recording && event === 'market:tick') recorded[i] = (recorded[i] ?? 0) + 1;
        });
      });
      await connected(socket);
    }
    recording = true;
    const deadline = Date.now() + 20_000;
    const ticksOf = (list: Frame[]) => list.filter((f) => f.event === 'market:tick').length;
    while (frames.some((list) => ticksOf(list) < TICKS_WANTED) || recorded.some((n) => n < TICKS_WANTED)) {
      if (Date.now() > deadline) throw new Error('timed out waiting for market ticks');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    for (const socket of sockets) socket.disconnect();
  });

  afterAll(async () => {
    for (const socket of sockets.splice(0)) socket.disconnect();
    await t.close();
  });

  const market = (list: Frame[]) => list.filter((f) => f.event.startsWith('market:'));

  it('sends one frame per tick with the forming candle inside, and no forming market:candle', () => {
    for (const list of frames) {
      const ticks = list.filter((f) => f.event === 'market:tick').map((f) => f.payload as MarketTickEventDto);
      expect(ticks.length).toBeGreaterThanOrEqual(TICKS_WANTED);
      const candles = list.filter((f) => f.event === 'market:candle').map((f) => f.payload as CandleDto);
      // Every market frame is a tick or a closed candle: nothing rides beside a tick in a frame of its own.
      expect(market(list).length).toBe(ticks.length + candles.length);
      expect(candles.every((c) => c.closed)).toBe(true);
      const withCandle = ticks.filter((tick) => tick.candle !== undefined);
      expect(withCandle.length).toBeGreaterThan(0);
      for (const tick of withCandle) {
        expect(tick.candle).toMatchObject({ interval: 1, closed: false });
        // the forming candle is the one the tick's price falls in
        expect(Date.parse(tick.timestamp) - (tick.candle?.time ?? 0)).toBeGreaterThanOrEqual(0);
        expect(Date.parse(tick.timestamp) - (tick.candle?.time ?? 0)).toBeLessThan(60_000);
        // (the tick's price is rounded to paise, the candle's close is the feed's)
        expect(Math.abs((tick.candle?.close ?? 0) - tick.price)).toBeLessThan(0.006);
      }
    }
  });

  it('sends each closed candle once, and every client the same frames', () => {
    const [first, ...others] = frames.map(market);
    const closed = (first ?? [])
      .filter((f) => f.event === 'market:candle')
      .map((f) => `${(f.payload as CandleDto).interval}@${(f.payload as CandleDto).time}`);
    expect(closed.length).toBeGreaterThan(0);
    expect(new Set(closed).size).toBe(closed.length);
    // Clients joined and left at slightly different moments: compare where their frames overlap.
    const key = (f: Frame) => JSON.stringify(f);
    const reference = (first ?? []).map(key);
    for (const list of others) {
      const keys = list.map(key);
      const start = reference.indexOf(keys[0] ?? '');
      const from = start >= 0 ? 0 : keys.indexOf(reference[0] ?? '');
      const offset = start >= 0 ? start : 0;
      expect(start >= 0 || from >= 0).toBe(true);
      const length = Math.min(reference.length - offset, keys.length - from);
      expect(length).toBeGreaterThan(TICKS_WANTED);
      expect(keys.slice(from, from + length)).toEqual(reference.slice(offset, offset + length));
    }
  });

  it('encodes each market broadcast once, not once per client', () => {
    const ticksEncoded = encodes.filter((event) => event === 'market:tick').length;
    // Over the same stretch every client received about as many ticks as were encoded (a frame or two in flight at
    // either end); one encode per client would make it three times as many.
    for (const received of recorded) {
      expect(received).toBeGreaterThanOrEqual(TICKS_WANTED);
      expect(Math.abs(ticksEncoded - received)).toBeLessThanOrEqual(2);
    }
  });
});
