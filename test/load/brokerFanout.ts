// The broker fan-out bench, once for every broker: one signal through the trading runtime's own fan-out to N live
// accounts at a broker's fake over loopback HTTP, each account with its own session and adapter, persisted by the
// real SQLite store (the `runtime` bench's set-up, server/bench/runtimeFanout.ts). Each broker's
// `test/load/<feed>-fanout.ts` only builds its world — the fake (in a process of its own), the logged-in accounts'
// adapters, what counts as a placement — and hands it to `brokerFanoutOnce`, which measures the time until every
// entry order is sent (handed to the OS by the adapters' transport), has reached the fake and is acknowledged, and
// until every fill (auto-filled by the fake, pushed back by the broker's own update channel) is persisted as a
// trade; and reads the per-account order rate from the fake's own request times.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { performance } from 'node:perf_hooks';
import type { Broker } from '@optionpilot/engine';
import type { BenchResult } from '../../engine/bench/types';
import { runtimeFanoutOnce } from '../../server/bench/runtimeFanout';
import { REQUEST_SENT_CHANNEL } from '../../server/src/brokers/brokerHttp';

/** The LTP of the option every account buys (the fakes fill at it). */
export const FANOUT_LTP = 120;

/** What a broker's fake reports of the run. */
export interface FakeFanoutStats {
  /** epoch ms the fake read each order request */
  readonly orderRequestTimes: readonly number[];
  /** the same, by the broker's account id */
  readonly orderRequestsByAccount: ReadonlyMap<string, readonly number[]>;
  /** epoch ms of the fake's last fill (its update then leaves) */
  readonly lastFillAt: number;
}

/** A broker's fake with N logged-in accounts. */
export interface FanoutWorld {
  readonly accounts: ReadonlyArray<{ readonly accountId: string; readonly broker: Broker }>;
  /** whether a request the transport sent places an order (the "sent" figure counts these) */
  isPlacement(method: string, url: string): boolean;
  /** waits, once the runtime registered the accounts (the signal armed), until their update channels are open */
  ready?(): Promise<void>;
  stats(): Promise<FakeFanoutStats>;
  close(): Promise<void>;
}

export interface FanoutResult {
  readonly accounts: number;
  readonly placed: number;
  /** epoch ms the signal was persisted as executed (the fan-out starts) */
  readonly startedAt: number;
  /** entry placements the adapters' transport reported sent */
  readonly sent: number;
  /** from the signal to the last placement's bytes handed to the OS by the adapter's transport */
  readonly allSentMs: number;
  /** from the signal to the fake receiving the last placement */
  readonly allReceivedMs: number;
  /** from the signal to every placement acknowledged */
  readonly allAcknowledgedMs: number;
  /** from the signal to the last entry's fill persisted (its trade row committed) */
  readonly allFilledMs: number;
  /** CPU time (user + system) of this process over the same span */
  readonly cpuMs: number;
  /** from the fake's last fill to the last trade row committed */
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
 * The engine clock's start in the broker benches, 3 s before a minute's end (that minute is the signal's setup):
 * the fakes list the NIFTY weekly expiry of 1 Dec 2026, and the runtime buys the current weekly contract of its
 * own date.
 */
export const FANOUT_START = Date.UTC(2026, 10, 25, 4, 0) - 3_000;

/**
 * Runs one fan-out: `build` makes the world, and one signal goes through the trading runtime's own fan-out to every
 * account (live, as the server trades them), persisted by the real SQLite store (server/bench/runtimeFanout.ts).
 */
export async function brokerFanoutOnce(build: () => Promise<FanoutWorld>): Promise<FanoutResult> {
  const world = await build();
  const accounts = world.accounts.length;
  const sentAt: number[] = [];
  const onSent = (message: unknown): void => {
    const { method, url } = message as { method: string; url: string };
    if (world.isPlacement(method, url)) sentAt.push(Date.now());
  };
  /** epoch ms each entry order was first acknowledged (ACCEPTED or beyond) */
  const acknowledged = new Map<string, number>();
  subscribe(REQUEST_SENT_CHANNEL, onSent);
  try {
    const run = await runtimeFanoutOnce({
      accounts,
      broker: (index) => {
        const account = world.accounts[index];
        if (account === undefined) throw new Error(`no broker account ${index}`);
        return account.broker;
      },
      startAt: FANOUT_START,
      // In real time: the armed signal's minute is what 1,000 accounts' brokers have to get ready (production).
      speed: 1,
      live: true,
      optionLtp: FANOUT_LTP,
      ready: async () => {
        await world.ready?.();
      },
      started: (runtime) => {
        runtime.router.changes$.subscribe((order) => {
          const known = order.brokerOrderId !== undefined || order.state === 'FILLED';
          if (order.purpose === 'entry' && known && !acknowledged.has(order.clientOrderId))
            acknowledged.set(order.clientOrderId, Date.now());
        });
      },
    });
    if (run.allOpenedAt === 0) throw new Error(`fills did not all arrive (${run.opened} of ${accounts})`);
    const t0 = run.executedAtEpoch;
    const filledAt = performance.timeOrigin + run.allOpenedAt;
    const { orderRequestsByAccount, lastFillAt } = await world.stats();
    // Each account's first placement is its entry; a live position's stop follows once the entry filled.
    const entryArrivals = [...orderRequestsByAccount.values()].map((times) => Math.min(...times));
    const entriesSent = [...sentAt].sort((a, b) => a - b).slice(0, accounts);
    return {
      accounts,
      placed: acknowledged.size,
      startedAt: t0,
      sent: entriesSent.length,
      allSentMs: Math.max(...entriesSent) - t0,
      allReceivedMs: Math.max(...entryArrivals) - t0,
      allAcknowledgedMs: Math.max(...acknowledged.values()) - t0,
      allFilledMs: filledAt - t0,
      cpuMs: run.cpuMs,
      fillPersistLagMs: filledAt - lastFillAt,
      maxPerAccountPerSecond: Math.max(
        ...[...orderRequestsByAccount.values()].map((t) => maxInWindow(t, 1_000)),
      ),
      requestTimesByAccount: orderRequestsByAccount,
    };
  } finally {
    unsubscribe(REQUEST_SENT_CHANNEL, onSent);
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
      'the signal goes through the trading runtime (its entry desk fans it out) and every order and trade is persisted by the SQLite store, as in the runtime bench; "all fills persisted" is the last trade row committed',
      'each account sends its entry and, once it filled, its stop resting at the broker, so the per-account rate figure is trivially met here; the rate limit itself is checked by test/brokers (25 orders on one account)',
      "times are wall clock from the signal; the fake and this process share the machine's cores, so read them beside the load average",
    ],
  };
}
