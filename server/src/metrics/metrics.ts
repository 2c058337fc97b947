// The server's Prometheus metrics: one prom-client Registry per server (never prom-client's global default
// registry), so tests can run several servers in one process and each scrape shows only its own figures.
// Figures that arise on a path (signals, orders, candles, database writes) are recorded there with a counter
// increment or a histogram observe, both allocation-free; figures that are a state (tick age, sockets, outbox
// depth, event-loop delay) are read only when Prometheus scrapes, so they cost nothing between scrapes.
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Candle, RuntimeEvent } from '@optionpilot/engine';

/** What the scrape reads from the running server; each reader must be cheap and must not throw. */
export interface MetricSources {
  /** the last market tick's age on the real-time clock; null before the first tick */
  tickAgeMs(): number | null;
  socketsConnected(): number;
  /** outbox rows not yet delivered to every channel */
  outboxPending(): Promise<number>;
}

/** What the trading service records: runtime events, closed candles, and its brokers' calls. */
export interface TradingMetrics {
  /** every runtime event, after the store has it (signals, trades) */
  runtimeEvent(event: RuntimeEvent): void;
  /** every candle the runtime emits; only closed ones are measured */
  candle(candle: Candle, engineNow: number): void;
  /**
   * an order is leaving for its broker; returns the instant `orderAnswered` measures from. Only entries buy (exits
   * and stops sell), so a BUY's fan-out latency is measured from the latest executed signal.
   */
  orderSent(side: 'BUY' | 'SELL'): number;
  /** the broker answered the order sent at `sentAt` (a `performance.now()` instant) */
  orderAnswered(broker: string, sentAt: number, outcome: 'ok' | 'error'): void;
  /** a broker call failed; `kind` is the BrokerError kind, `other` for an untyped failure */
  brokerError(broker: string, kind: string): void;
}

export interface Metrics extends TradingMetrics {
  readonly registry: Registry;
  /** the Content-Type of `render()`'s text */
  readonly contentType: string;
  /** the Prometheus text exposition of every metric */
  render(): Promise<string>;
  /** a database statement that writes took `seconds` (`statement`: insert, update, delete) */
  dbWrite(statement: string, seconds: number): void;
  /** starts the event-loop monitor and reads the scrape's state from `sources` */
  start(sources: MetricSources): void;
  stop(): void;
}

export const METRIC_PREFIX = 'optionpilot_';

/** seconds: from a few milliseconds (a paper fill) to the 10 s a live broker may take before it times out */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** seconds: a SQLite statement is sub-millisecond; a slow disk or a remote PostgreSQL shows in the upper buckets */
const DB_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1];
/** seconds after the interval's end: the close waits for the first tick past the boundary or the close timer */
const CANDLE_LAG_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60];

const SIDES = ['CALL', 'PUT'] as const;
const SIGNAL_EVENTS = ['armed', 'executed', 'expired', 'suppressed'] as const;

export function createMetrics(): Metrics {
  const registry = new Registry();
  const registers = [registry];
  let sources: MetricSources | undefined;
  const startedAt = performance.now();

  new Gauge({
    name: `${METRIC_PREFIX}tick_age_seconds`,
    help: 'Seconds since the last market tick arrived (since the engine started when none has yet)',
    registers,
    collect() {
      if (sources === undefined) return;
      const ageMs = sources.tickAgeMs();
      this.set((ageMs ?? performance.now() - startedAt) / 1000);
    },
  });
  const candleLag = new Histogram({
    name: `${METRIC_PREFIX}candle_close_lag_seconds`,
    help: "Market-clock seconds from a candle's interval end to its close reaching the strategies",
    labelNames: ['interval'] as const,
    buckets: CANDLE_LAG_BUCKETS,
    registers,
  });
  const signals = new Counter({
    name: `${METRIC_PREFIX}signals_total`,
    help: 'Strategy signal events by side (CALL/PUT) and event (armed, executed, expired, suppressed)',
    labelNames: ['side', 'event'] as const,
    registers,
  });
  const trades = new Counter({
    name: `${METRIC_PREFIX}trades_total`,
    help: 'Trades opened and closed (paper and live)',
    labelNames: ['event'] as const,
    registers,
  });
  const fanout = new Histogram({
    name: `${METRIC_PREFIX}fanout_latency_seconds`,
    help: 'Seconds from a signal persisted as executed to each entry order leaving for its broker',
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const orderLatency = new Histogram({
    name: `${METRIC_PREFIX}order_latency_seconds`,
    help: "Seconds from an order leaving for its broker to the broker's answer (accepted or failed)",
    labelNames: ['broker', 'outcome'] as const,
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const brokerErrors = new Counter({
    name: `${METRIC_PREFIX}broker_errors_total`,
    help: 'Failed broker order calls (place, modify, cancel) by broker and kind',
    labelNames: ['broker', 'kind'] as const,
    registers,
  });
  new Gauge({
    name: `${METRIC_PREFIX}sockets_connected`,
    help: 'Socket.IO connections open now',
    registers,
    collect() {
      if (sources !== undefined) this.set(sources.socketsConnected());
    },
  });
  const dbWrites = new Histogram({
    name: `${METRIC_PREFIX}db_write_duration_seconds`,
    help: 'Seconds a database statement that writes took, by statement (insert, update, delete)',
    labelNames: ['statement'] as const,
    buckets: DB_BUCKETS,
    registers,
  });
  new Gauge({
    name: `${METRIC_PREFIX}notification_outbox_pending`,
    help: 'Notification outbox rows not yet delivered to every channel',
    registers,
    async collect() {
      if (sources === undefined) return;
      try {
        this.set(await sources.outboxPending());
      } catch {
        // A scrape must still answer while the database is down: /api/health reports the database itself.
        this.set(Number.NaN);
      }
    },
  });
  // Reset after each scrape, so each scrape shows the delays since the one before (a stall is not averaged away).
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  new Gauge({
    name: `${METRIC_PREFIX}event_loop_delay_seconds`,
    help: 'Event-loop delay since the previous scrape: p50, p99 and max',
    labelNames: ['quantile'] as const,
    registers,
    collect() {
      if (loopDelay.count === 0) return;
      this.set({ quantile: '0.5' }, loopDelay.percentile(50) / 1e9);
      this.set({ quantile: '0.99' }, loopDelay.percentile(99) / 1e9);
      this.set({ quantile: 'max' }, loopDelay.max / 1e9);
      loopDelay.reset();
    },
  });

  // Every side × event starts at 0, so `rate()` sees the first signal of a kind as a change, not a new series.
  for (const side of SIDES) for (const event of SIGNAL_EVENTS) signals.inc({ side, event }, 0);
  for (const event of ['opened', 'closed']) trades.inc({ event }, 0);

  /** when the latest signal executed (performance.now()); entries sent after it measure their fan-out from it */
  let executedAt: number | undefined;

  return {
    registry,
    contentType: registry.contentType,
    render: () => registry.metrics(),
    runtimeEvent(event) {
      if (event.kind === 'signal') {
        signals.inc({ side: event.event.signal.type, event: event.event.kind });
        if (event.event.kind === 'executed') executedAt = performance.now();
      } else if (event.kind === 'trade-opened') {
        trades.inc({ event: 'opened' });
      } else if (event.kind === 'trade-closed') {
        trades.inc({ event: 'closed' });
      }
    },
    candle(candle, engineNow) {
      if (!candle.closed) return;
      const end = candle.time + candle.interval * 60_000;
      candleLag.observe({ interval: String(candle.interval) }, Math.max(0, engineNow - end) / 1000);
    },
    orderSent(side) {
      const now = performance.now();
      if (side === 'BUY' && executedAt !== undefined) fanout.observe((now - executedAt) / 1000);
      return now;
    },
    orderAnswered(broker, sentAt, outcome) {
      orderLatency.observe({ broker, outcome }, (performance.now() - sentAt) / 1000);
    },
    brokerError(broker, kind) {
      brokerErrors.inc({ broker, kind });
    },
    dbWrite(statement, seconds) {
      dbWrites.observe({ statement }, seconds);
    },
    start(next) {
      sources = next;
      loopDelay.enable();
    },
    stop() {
      loopDelay.disable();
      sources = undefined;
    },
  };
}
