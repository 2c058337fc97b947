// Bench: one signal's entry fanned out to N live Angel One accounts at the Angel fake over loopback HTTP, each account
// with its own session and adapter, through the engine's OrderRouter. The fake runs in its own process. Measures the
// time until every entry order is sent (handed to the OS by the adapters' transport), has reached the fake and is
// acknowledged, and until every fill (auto-filled by the fake, pushed on each account's order-status WebSocket) is
// persisted in the order store; checks the per-account ≤ 10 orders/s from the fake's own request times.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { performance } from 'node:perf_hooks';
import { asyncScheduler } from 'rxjs';
import { OrderRouter } from '@optionpilot/engine';
import { FillWatchingStore } from '../../engine/bench/fanout';
import type { BenchResult } from '../../engine/bench/types';
import { REQUEST_SENT_CHANNEL } from '../../server/src/brokers/brokerHttp';
import { encodeAngelTokens } from '../../server/src/brokers/angelone/session';
import { angeloneModuleAt } from '../brokers/angeloneHarness';
import { maxInWindow } from './kite-fanout';
import { startAngelFakeProcess } from './angeloneFakeProcess';

const SYMBOL = 'NIFTY01DEC2624000CE';
const LTP = 120;

export interface AngelFanoutResult {
  readonly accounts: number;
  readonly placed: number;
  /** epoch ms just before the signal was routed */
  readonly startedAt: number;
  /** placements the adapters' transport reported sent */
  readonly sent: number;
  readonly allSentMs: number;
  readonly allReceivedMs: number;
  readonly allAcknowledgedMs: number;
  readonly allFilledMs: number;
  /** CPU time (user + system) of this process from routeEntry to the last FILLED write */
  readonly cpuMs: number;
  /** from the fake's last fill (its order-status message then leaves) to the last FILLED write */
  readonly fillPersistLagMs: number;
  readonly maxPerAccountPerSecond: number;
  readonly requestTimesByAccount: ReadonlyMap<string, readonly number[]>;
}

async function until(check: () => Promise<boolean>, what: string, ms = 120_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Runs one fan-out to `accounts` accounts; `ordersPerAccount` signals are routed back to back. */
export async function angelFanoutOnce(accounts: number, ordersPerAccount = 1): Promise<AngelFanoutResult> {
  const fake = await startAngelFakeProcess({ autoFillPrice: LTP });
  const module = angeloneModuleAt(fake);
  const expected = accounts * ordersPerAccount;
  const store = new FillWatchingStore(expected);
  const router = new OrderRouter({
    scheduler: asyncScheduler,
    store,
    quotes: { getQuote: (symbol) => ({ symbol, time: Date.now(), bid: LTP, ask: LTP, ltp: LTP }) },
    tag: 'OPALGO',
    lotSize: () => 65,
    // The fake shares the machine: on a starved machine its answers can take seconds, and an order counted
    // UNKNOWN would hide the figure being measured.
    requestTimeoutMs: 60_000,
  });
  const ids: string[] = [];
  const sentAt: number[] = [];
  const onSent = (message: unknown): void => {
    const { method, url } = message as { method: string; url: string };
    if (method === 'POST' && url.endsWith('/order/v1/placeOrder')) sentAt.push(Date.now());
  };
  subscribe(REQUEST_SENT_CHANNEL, onSent);
  try {
    const list = Array.from({ length: accounts }, (_, i) => ({
      apiKey: `benchkey${i}`,
      clientCode: `B${String(i).padStart(6, '0')}`,
      mpin: '1234',
      totpSecret: 'JBSWY3DPEHPK3PXP',
      name: `Trader ${i}`,
    }));
    const sessions = await fake.addAccounts(list);
    list.forEach((account, i) => {
      const issued = sessions[i] ?? { jwt: '', feedToken: '' };
      const session = {
        accessToken: encodeAngelTokens({ ...issued, clientCode: account.clientCode }),
        expiresAt: 0,
        accountId: account.clientCode,
        accountName: account.name,
      };
      const broker = module.createBroker({ credentials: { apiKey: account.apiKey, apiSecret: '' }, session });
      router.addAccount({ accountId: account.clientCode, broker });
      ids.push(account.clientCode);
    });
    // The router follows every account's updates: each opens its order-status socket.
    router.start();
    await until(async () => (await fake.stats()).orderConnections >= accounts, 'every order-status socket');
    // Before the signal, as when it armed in production: every account's broker is prepared (its keep-alive
    // connection opened, the scrip master loaded), so the figure is the fan-out itself, not handshakes.
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
    const filledAt = await Promise.race([
      store.allFilledAt.then((at) => performance.timeOrigin + at),
      new Promise<number>((_, reject) =>
        setTimeout(() => reject(new Error('fills did not all arrive')), 60_000),
      ),
    ]);
    const cpu = process.cpuUsage(cpuStart);
    const { orderRequestTimes: received, orderRequestsByClient, lastFillAt } = await fake.stats();
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
        ...[...orderRequestsByClient.values()].map((t) => maxInWindow(t, 1_000)),
      ),
      requestTimesByAccount: orderRequestsByClient,
    };
  } finally {
    unsubscribe(REQUEST_SENT_CHANNEL, onSent);
    router.stop();
    await fake.close();
  }
}

/** `npm run bench -- angelone`: one fan-out to 1,000 accounts, figures for the bench report. */
export async function runBrokerFanoutBench(): Promise<BenchResult> {
  const r = await angelFanoutOnce(1_000);
  return {
    name: 'signal → 1,000 live Angel One accounts at the Angel fake (loopback HTTP, one session, adapter and order-status socket each)',
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
      'entries go as protected LIMIT orders (Angel takes no market orders from algos); the fake fills each at once and pushes the fill on the account’s order-status WebSocket, read by the real adapter',
      'the fake runs in a process of its own (the real Angel is another machine); "sent" is when the adapter handed the request to the OS, "received" when the fake read it',
      'fills are persisted to the in-memory order store (the database write is measured by the fanout bench)',
      'each account gets one entry, so the per-account rate figure is trivially met here; the rate limit itself is checked by test/brokers (25 orders on one account)',
      "times are wall clock from routeEntry; the fake and this process share the machine's cores, so read them beside the load average",
    ],
  };
}
