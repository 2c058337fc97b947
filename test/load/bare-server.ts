// The baseline of `npm run bench:live`: a bare Socket.IO server (no auth, no database, no trading loop) on
// 127.0.0.1 that joins every socket to the `market` room and broadcasts a `market:tick` of the product's shape at a
// fixed interval, stamped with the wall clock at emission exactly as the product's tick is, with the forming
// one-minute candle inside it and each closed candle on `market:candle` after the next tick, as the product sends
// them. Whatever the product's latency adds on top of this is the product's own cost. Run as a child: argv[2] =
// interval in ms.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from 'socket.io';
import type {
  CandleDto,
  ClientToServerEvents,
  MarketTickDto,
  ServerToClientEvents,
} from '../../server/src/contract';
import type { BareServerReport } from './protocol';

const intervalMs = Number(process.argv[2] ?? '1000');
if (!Number.isInteger(intervalMs) || intervalMs < 1 || intervalMs > 60_000) {
  process.stderr.write(`bare-server: interval must be 1..60000 ms, got ${process.argv[2]}\n`);
  process.exit(2);
}

const httpServer = createServer();
const io = new Server<ClientToServerEvents, ServerToClientEvents>(httpServer, { serveClient: false });
io.on('connection', (socket) => {
  void socket.join('market');
});

// A deterministic walk around the index level, rounded like the product's presenter (2 decimals).
const round2 = (v: number) => Math.round(v * 100) / 100;
const open = 24_350;
let price = open;
let high = open;
let low = open;
let step = 0;
/** the chart's one-minute candle while it forms (the product's tick carries it: MarketTickEventDto) */
let forming: CandleDto | null = null;

function broadcast(): void {
  step += 1;
  price += Math.sin(step / 7) * 3.5;
  high = Math.max(high, price);
  low = Math.min(low, price);
  const tick: MarketTickDto = {
    symbol: 'NIFTY 50',
    price: round2(price),
    change: round2(price - open),
    changePercent: round2(((price - open) / open) * 100),
    open,
    high: round2(high),
    low: round2(low),
    volume: 0,
    timestamp: new Date().toISOString(),
  };
  const minute = Math.floor(Date.now() / 60_000) * 60_000;
  const closed = forming !== null && forming.time !== minute ? { ...forming, closed: true } : null;
  const last = tick.price;
  forming =
    forming === null || closed !== null
      ? {
          interval: 1,
          time: minute,
          open: last,
          high: last,
          low: last,
          close: last,
          volume: 0,
          closed: false,
        }
      : { ...forming, high: Math.max(forming.high, last), low: Math.min(forming.low, last), close: last };
  io.to('market').emit('market:tick', { ...tick, candle: forming });
  if (closed !== null) io.to('market').emit('market:candle', closed);
}

// Scheduled like the product's simulated feed (engine/src/feeds/simulatedFeed.ts): each timeout aims at the next
// instant of a fixed grid, so late timers do not accumulate; more than a whole interval late starts a new grid. Both
// servers then send the same number of ticks however busy the machine is.
let due = Date.now() + intervalMs;
let timer = setTimeout(function tickLoop() {
  broadcast();
  const now = Date.now();
  due = Math.abs(now - due) < intervalMs ? due + intervalMs : now + intervalMs;
  timer = setTimeout(tickLoop, due - now);
}, intervalMs);

const shutdown = () => {
  clearTimeout(timer);
  void io.close(() => process.exit(0));
  setTimeout(() => process.exit(0), 2000).unref();
};
process.on('disconnect', shutdown);
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);

httpServer.listen(0, '127.0.0.1', () => {
  const report: BareServerReport = { type: 'listening', port: (httpServer.address() as AddressInfo).port };
  process.send?.(report);
});
