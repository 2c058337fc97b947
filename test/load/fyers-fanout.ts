// Bench: one signal's entry fanned out to N live Fyers accounts at the Fyers fake over loopback HTTP, each account
// with its own Fyers session, adapter and order socket, through the engine's OrderRouter. The fake runs in its own
// process. Measures the time until every entry order is sent (handed to the OS by the adapters' transport), has
// reached the fake and is acknowledged, and until every fill (auto-filled by the fake, pushed on each account's
// order socket) is persisted in the order store; checks the per-account ≤ 10 orders/s from the fake's own request
// times.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { performance } from 'node:perf_hooks';
import { asyncScheduler } from 'rxjs';
import { OrderRouter } from '@optionpilot/engine';
import { FillWatchingStore } from '../../engine/bench/fanout';
import { REQUEST_SENT_CHANNEL } from '../../server/src/brokers/brokerHttp';
import { fyersModule } from '../../server/src/brokers/fyers';
import { startFyersFakeProcess } from './fyersFakeProcess';
import { maxInWindow } from './kite-fanout';
import type { BenchResult } from '../../engine/bench/types';

const SYMBOL = 'NIFTY01DEC2624000CE';
const LTP = 120;

export interface FyersFanoutResult {
  readonly accounts: number;
  readonly placed: number;
  /** epoch ms just before the signal was routed */
  readonly startedAt: number;
  /** placements the adapters' transport reported sent */
  readonly sent: number;
  /** from routeEntry to the last placement's bytes handed to the OS by the adapter's transport */
  readonly allSentMs: number;
  /** from routeEntry to the fake receiving the last placement */
  readonly allReceivedMs: number;
  /** from routeEntry to every placement acknowledged (routeEntry resolved) */
  readonly allAcknowledgedMs: number;
  /** from routeEntry to the last FILLED write */
  readonly allFilledMs: number;
  /** CPU time (user + system) of this process over the same span */
  readonly cpuMs: number;
  /** from the fake's last fill (its order-socket message then leaves) to the last FILLED write */
  readonly fillPersistLagMs: number;
  /** the most order requests one account sent within any 1,000 ms, by the fake's arrival clock */
  readonly maxPerAccountPerSecond: number;
  /** the fake's arrival times of every account's order requests */
  readonly requestTimesByAccount: ReadonlyMap<string, readonly number[]>;
}

/** Runs one fan-out to `accounts` accounts; `ordersPerAccount` signals are routed back to back. */
export async function fyersFanoutOnce(accounts: number, ordersPerAccount = 1): Promise<FyersFanoutResult> {
  const fake = await startFyersFakeProcess({ autoFillPrice: LTP });
  const module = fyersModule({ endpoints: fake.endpoints, algoTag: 'OPALGO', now: () => Date.now() });
  const expected = accounts * ordersPerAccount;
  const store = new FillWatchingStore(expected);
  const router = new OrderRouter({
    scheduler: asyncScheduler,
    store,
    quotes: { getQuote: (symbol) => ({ symbol, time: Date.now(), bid: LTP, ask: LTP, ltp: LTP }) },
    tag: 'OPALGO',
    lotSize: () => 65,
    // The fake shares this machine: on a starved machine its answers can take seconds, and an order counted
    // UNKNOWN would hide the figure being measured.
    requestTimeoutMs: 60_000,
  });
  const ids: string[] = [];
  const sentAt: number[] = [];
  const onSent = (message: unknown): void => {
    const { method, url } = message as { method: string; url: string };
    if (method === 'POST' && url.endsWith('/api/v3/orders/sync')) sentAt.push(Date.now());
  };
  subscribe(REQUEST_SENT_CHANNEL, onSent);
  try {
    const apps = Array.from({ length: accounts }, (_, i) => ({
      appId: `FYB${String(i).padStart(4, '0')}-100`,
      secret: `secret${i}`,
      fyId: `XB${String(i).padStart(5, '0')}`,
      name: `Trader ${i}`,
      redirectUrl: 'http://127.0.0.1:9/broker/fyers/callback',
    }));
    const tokens = await fake.addApps(apps);
    apps.forEach((app, i) => {
      const session = { accessToken: tokens[i] ?? '', expiresAt: 0, accountId: app.fyId, accountName: '' };
      const broker = module.createBroker({
        credentials: { apiKey: app.appId, apiSecret: app.secret },
        session,
      });
      router.addAccount({ accountId: app.fyId, broker });
      ids.push(app.fyId);
    });
    // Following the accounts opens each one's order socket, where its fills will be pushed: in production they
    // are open from the start of the session.
    router.start();
    const socketsBy = Date.now() + 60_000;
    while ((await fake.stats()).orderSockets < accounts) {
      if (Date.now() > socketsBy) throw new Error('the order sockets did not all open');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // Then, as when the signal armed in production: every account's broker is prepared (its keep-alive connection
    // opened, the symbol master loaded), so the figure is the fan-out itself, not handshakes.
    await Promise.all(ids.map((id) => router.prepare(id)));
    const t0 = Date.now();
    const started = performance.now();
    const cpuStart = process.cpuUsage();
    const results = await Promise.all(
      Array.from({ length: ordersPerAccount }, (_, n) =>
        router.routeEntry({ signalId: `sig-${n}`, accountIds: ids, symbol: SYMBOL, quantity: 65 }),
      ),
    );
    const allAcknowledgedMs = performance.now() - started;
    const placed = results.flat().filter((r) => r.status === 'placed').length;
    // The store notes performance.now(); the fake's times are epoch ms.
    const filledAt = await Promise.race([
      store.allFilledAt.then((at) => performance.timeOrigin + at),
      new Promise<number>((_, reject) =>
        setTimeout(() => reject(new Error('fills did not all arrive')), 60_000),
      ),
    ]);
    const cpu = process.cpuUsage(cpuStart);
    const { orderRequestTimes: received, orderRequestsByUser, lastFillAt } = await fake.stats();
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
    await fake.close();
  }
}

/** `npm run bench -- fyers`: one fan-out to 1,000 accounts, figures for the bench report. */
export async function runBrokerFanoutBench(): Promise<BenchResult> {
  const r = await fyersFanoutOnce(1_000);
  return {
    name: 'signal → 1,000 live Fyers accounts at the Fyers fake (loopback HTTP, one session, adapter and order socket each)',
    figures: {
      'entries placed': r.placed,
      'all entries sent (ms)': Math.round(r.allSentMs),
      'all entries received by the fake (ms)': Math.round(r.allReceivedMs),
      'all entries acknowledged (ms)': Math.round(r.allAcknowledgedMs),
      'all fills persisted (ms)': Math.round(r.allFilledMs),
      'CPU, routeEntry → all fills persisted (ms)': Math.round(r.cpuMs),
      'last fill persisted after the fake filled it (ms)': Math.round(r.fillPersistLagMs),
      'most orders one account sent in any 1 s': r.maxPerAccountPerSecond,
    },
    notes: [
      'the fake fills each order as soon as it answers and pushes the fill on the account’s order socket (1,000 sockets open); it goes through the real adapter',
      'the fake runs in a process of its own (the real Fyers is another machine); "sent" is when the adapter handed the request to the OS, "received" when the fake read it',
      'fills are persisted to the in-memory order store (the database write is measured by the fanout bench)',
      'each account gets one entry, so the per-account rate figure is trivially met here; the rate limit itself is checked by test/brokers (25 orders on one account)',
      "times are wall clock from routeEntry; the fake and this process share the machine's cores, so read them beside the load average",
    ],
  };
}
