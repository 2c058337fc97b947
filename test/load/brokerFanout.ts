// The broker fan-out bench, once for every broker: one signal's entry routed to N live accounts at a broker's fake
// over loopback HTTP, each account with its own session and adapter, through the engine's OrderRouter. Each broker's
// `test/load/<feed>-fanout.ts` only builds its world — the fake (in a process of its own), the logged-in accounts'
// adapters, what counts as a placement — and hands it to `brokerFanoutOnce`, which measures the time until every
// entry order is sent (handed to the OS by the adapters' transport), has reached the fake and is acknowledged, and
// until every fill (auto-filled by the fake, pushed back by the broker's own update channel) is persisted in the
// order store; and checks the per-account ≤ 10 orders/s from the fake's own request times.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { performance } from 'node:perf_hooks';
import { asyncScheduler } from 'rxjs';
import { OrderRouter, type Broker } from '@optionpilot/engine';
import { FillWatchingStore } from '../../engine/bench/fanout';
import type { BenchResult } from '../../engine/bench/types';
import { REQUEST_SENT_CHANNEL } from '../../server/src/brokers/brokerHttp';

/** The option every account buys, and its LTP (the fakes fill at it). */
export const FANOUT_SYMBOL = 'NIFTY01DEC2624000CE';
export const FANOUT_LTP = 120;

/** What a broker's fake reports of the run. */
export interface FakeFanoutStats {
  /** epoch ms the fake read each order request */
  readonly orderRequestTimes: readonly number[];
  readonly orderRequestsByUser: ReadonlyMap<string, readonly number[]>;
  /** epoch ms of the fake's last fill (its update then leaves) */
  readonly lastFillAt: number;
}

/** A broker's fake with N logged-in accounts. */
export interface FanoutWorld {
  readonly accounts: ReadonlyArray<{ readonly accountId: string; readonly broker: Broker }>;
  /** whether a request the transport sent places an order (the "sent" figure counts these) */
  isPlacement(method: string, url: string): boolean;
  /** waits, once the router follows the accounts, until their update channels are open (order sockets) */
  ready?(): Promise<void>;
  stats(): Promise<FakeFanoutStats>;
  close(): Promise<void>;
}

export interface FanoutResult {
  readonly accounts: number;
  readonly placed: number;
  /** epoch ms just before the signal was routed */
  readonly startedAt: number;
  /** placements the adapters' transport reported sent */
  readonly sent: number;
  /** from the signal to the last placement's bytes handed to the OS by the adapter's transport */
  readonly allSentMs: number;
  /** from the signal to the fake receiving the last placement */
  readonly allReceivedMs: number;
  /** from the signal to every placement acknowledged */
  readonly allAcknowledgedMs: number;
  /** from the signal to the last FILLED write */
  readonly allFilledMs: number;
  /** CPU time (user + system) of this process over the same span */
  readonly cpuMs: number;
  /** from the fake's last fill to the last FILLED write */
  readonly fillPersistLagMs: number;
  /** the most order requests one account sent within any 1,000 ms, by the fake's arrival clock */
  readonly maxPerAccountPerSecond: number;
  /** the fake's arrival times of every account's order requests */
  readonly requestTimesByAccount: ReadonlyMap<string, readonly number[]>;
}

/** The most of `times` inside any `windowMs`-long interval. */
export function maxInWindow(times: readonly number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let best = 0;
  let start = 0;
  for (let end = 0; end < sorted.length; end += 1) {
    while ((sorted[end] ?? 0) - (sorted[start] ?? 0) >= windowMs) start += 1;
    best = Math.max(best, end - start + 1);
  }
  return best;
}

/**
 * Runs one fan-out: `build` makes the world with `accounts` accounts, and `ordersPerAccount` signals are routed
 * back to back.
 */
export async function brokerFanoutOnce(
  build: () => Promise<FanoutWorld>,
  ordersPerAccount = 1,
): Promise<FanoutResult> {
  const world = await build();
  const accounts = world.accounts.length;
  const store = new FillWatchingStore(accounts * ordersPerAccount);
  const router = new OrderRouter({
    scheduler: asyncScheduler,
    store,
    quotes: {
      getQuote: (symbol) => ({ symbol, time: Date.now(), bid: FANOUT_LTP, ask: FANOUT_LTP, ltp: FANOUT_LTP }),
    },
    tag: 'OPALGO',
    lotSize: () => 65,
    // The fake shares the machine: on a starved machine its answers can take seconds, and an order counted
    // UNKNOWN would hide the figure being measured.
    requestTimeoutMs: 60_000,
  });
  const ids = world.accounts.map((a) => a.accountId);
  const sentAt: number[] = [];
  const onSent = (message: unknown): void => {
    const { method, url } = message as { method: string; url: string };
    if (world.isPlacement(method, url)) sentAt.push(Date.now());
  };
  subscribe(REQUEST_SENT_CHANNEL, onSent);
  try {
    for (const { accountId, broker } of world.accounts) router.addAccount({ accountId, broker });
    // The router follows every account's updates: brokers with order sockets open them now, as at the start of a
    // session in production.
    router.start();
    await world.ready?.();
    // Before the signal, as when it armed in production: every account's broker is prepared (its keep-alive
    // connection opened, the instrument master loaded), so the figure is the fan-out itself, not handshakes.
    await Promise.all(ids.map((id) => router.prepare(id)));
    const t0 = Date.now();
    const started = performance.now();
    const cpuStart = process.cpuUsage();
    const results = await Promise.all(
      Array.from({ length: ordersPerAccount }, (_, n) =>
        ids.map((accountId) =>
          router.submit({
            purpose: 'entry',
            signalId: `sig-${n}`,
            accountId,
            symbol: FANOUT_SYMBOL,
            side: 'BUY',
            quantity: 65,
            type: 'MARKET',
          }),
        ),
      ).flat(),
    );
    const allAcknowledgedMs = performance.now() - started;
    const placed = results.filter((r) => r.status === 'placed').length;
    // The store notes performance.now(); the fake's times are epoch ms.
    const filledAt = await Promise.race([
      store.allFilledAt.then((at) => performance.timeOrigin + at),
      new Promise<number>((_, reject) =>
        setTimeout(() => reject(new Error('fills did not all arrive')), 60_000),
      ),
    ]);
    const cpu = process.cpuUsage(cpuStart);
    const { orderRequestTimes: received, orderRequestsByUser, lastFillAt } = await world.stats();
    return {
      accounts,
      placed,
      startedAt: t0,
      sent: sentAt.length,
      allSentMs: Math.max(...sentAt) - t0,
      allReceivedMs: Math.max(...received) - t0,
      allAcknowledgedMs,
      allFilledMs: filledAt - t0,
      cpuMs: (cpu.user + cpu.system) / 1_000,
      fillPersistLagMs: filledAt - lastFillAt,
      maxPerAccountPerSecond: Math.max(
        ...[...orderRequestsByUser.values()].map((t) => maxInWindow(t, 1_000)),
      ),
      requestTimesByAccount: orderRequestsByUser,
    };
  } finally {
    unsubscribe(REQUEST_SENT_CHANNEL, onSent);
    router.stop();
    await world.close();
  }
}

/** The bench report of a fan-out: the same figures (and target names in scripts/bench.ts) for every broker. */
export function fanoutReport(name: string, r: FanoutResult, notes: readonly string[]): BenchResult {
  return {
    name,
    figures: {
      'entries placed': r.placed,
      'all entries sent (ms)': Math.round(r.allSentMs),
      'all entries received by the fake (ms)': Math.round(r.allReceivedMs),
      'all entries acknowledged (ms)': Math.round(r.allAcknowledgedMs),
      'all fills persisted (ms)': Math.round(r.allFilledMs),
      'CPU, signal → all fills persisted (ms)': Math.round(r.cpuMs),
      'last fill persisted after the fake filled it (ms)': Math.round(r.fillPersistLagMs),
      'most orders one account sent in any 1 s': r.maxPerAccountPerSecond,
    },
    notes: [
      ...notes,
      'the fake runs in a process of its own (the real broker is another machine); "sent" is when the adapter handed the request to the OS, "received" when the fake read it',
      'fills are persisted to the in-memory order store (the database write is measured by the fanout bench)',
      'each account gets one entry, so the per-account rate figure is trivially met here; the rate limit itself is checked by test/brokers (25 orders on one account)',
      "times are wall clock from the signal; the fake and this process share the machine's cores, so read them beside the load average",
    ],
  };
}
