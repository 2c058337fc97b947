// One client process of `npm run bench:live`: opens its share of the Socket.IO clients with the official client
// (one connection each, every one authenticating with its token), and records tick-to-client latency: the time
// between the tick's `timestamp` (wall clock at emission, see docs/performance.md) and its arrival here, kept per
// server URL so a run over several nodes can show each node's share.
import { io, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, MarketTickDto, ServerToClientEvents } from '../../server/src/contract';
import type { WorkerCommand, WorkerReport } from './protocol';
import { createHistogram, recordValue, toWire, type Histogram } from './stats';

type BenchSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

const send = (report: WorkerReport) => {
  process.send?.(report);
};

// A worker never outlives its parent: the IPC channel closes when the bench exits or is killed.
process.on('disconnect', () => process.exit(0));

const sockets: BenchSocket[] = [];
const latency = new Map<string, Histogram>();
const events: Record<string, number> = {};
const tickTimestamps = new Set<string>();
let recording = false;
let recordStartedAt = 0;
let cpuAtStart = process.cpuUsage();
let disconnects = 0;

function histogramFor(url: string): Histogram {
  let histogram = latency.get(url);
  if (histogram === undefined) {
    histogram = createHistogram();
    latency.set(url, histogram);
  }
  return histogram;
}

function openOne(url: string, token: string, timeoutMs: number, first: boolean): Promise<string | null> {
  const histogram = histogramFor(url);
  return new Promise((resolve) => {
    const socket: BenchSocket = io(url, {
      auth: { token },
      // Without forceNew every socket to the same URL would share one Manager, i.e. one connection.
      forceNew: true,
      // A dropped socket is counted, not silently replaced: a reconnect storm would distort the figures.
      reconnection: false,
      timeout: timeoutMs,
    });
    socket.on('market:tick', (tick: MarketTickDto) => {
      if (!recording) return;
      recordValue(histogram, Date.now() - Date.parse(tick.timestamp));
      if (first) tickTimestamps.add(tick.timestamp);
    });
    socket.onAny((event: string) => {
      if (recording) events[event] = (events[event] ?? 0) + 1;
    });
    socket.on('disconnect', () => {
      if (recording) disconnects += 1;
    });
    socket.once('connect', () => resolve(null));
    socket.once('connect_error', (err: Error) => {
      socket.close();
      resolve(err.message);
    });
    sockets.push(socket);
  });
}

async function connectAll(command: Extract<WorkerCommand, { type: 'connect' }>): Promise<void> {
  const started = Date.now();
  const errors = new Map<string, number>();
  let ok = 0;
  let next = 0;
  // A fixed pool of openers walks the token list once: bounded in count, and at most `concurrency` handshakes
  // in flight so a 1,000-client run does not open everything in the same millisecond.
  const opener = async () => {
    while (next < command.tokens.length) {
      const index = next;
      next += 1;
      const url = command.urls[index] ?? command.urls[0] ?? '';
      const error = await openOne(url, command.tokens[index] ?? '', command.timeoutMs, index === 0);
      if (error === null) ok += 1;
      else errors.set(error, (errors.get(error) ?? 0) + 1);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, command.concurrency) }, opener));
  send({
    type: 'connected',
    ok,
    failed: command.tokens.length - ok,
    errors: [...errors.entries()].slice(0, 5).map(([message, count]) => `${message} (×${count})`),
    ms: Date.now() - started,
  });
}

function stop(): void {
  recording = false;
  const cpu = process.cpuUsage(cpuAtStart);
  send({
    type: 'result',
    latency: Object.fromEntries([...latency].map(([url, histogram]) => [url, toWire(histogram)])),
    events,
    disconnects,
    recordedMs: Date.now() - recordStartedAt,
    cpuMs: (cpu.user + cpu.system) / 1000,
    distinctTicks: tickTimestamps.size,
  });
  for (const socket of sockets) socket.close();
  // Let the result flush over IPC before leaving.
  setTimeout(() => process.exit(0), 200).unref();
}

process.on('message', (command: WorkerCommand) => {
  if (command.type === 'connect') {
    connectAll(command).catch((err: unknown) => {
      send({ type: 'error', message: err instanceof Error ? err.message : String(err) });
    });
  } else if (command.type === 'record') {
    recording = true;
    recordStartedAt = Date.now();
    cpuAtStart = process.cpuUsage();
  } else {
    stop();
  }
});
