// Benchmark of open positions through the trading runtime with the real SQLite store (issue 19): 1,000 accounts
// each hold one paper position on the same contract (entered by the entry fan-out's set-up, runtimeFanout.ts).
// Then (1) option quotes of that contract stream through the runtime, each updating all 1,000 positions' risk
// (stop, trail, target, loss limit), and (2) one quote crosses every stop: 1,000 exit orders go to the brokers
// (answering in 50–400 ms) and 1,000 closes are persisted. Targets: ≥ 20,000 quotes/s; every exit sent ≤ 100 ms
// after the quote; every close persisted ≤ 1 s after the brokers' answers (≤ 1,400 ms after the quote).
// Reported, never asserted.
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import type { Quote } from '@optionpilot/engine';
import type { BenchResult } from '../../engine/bench/types';
import { openFanoutRig, seededRandom, slowBroker } from './runtimeFanout';

const ACCOUNTS = 1_000;
const QUOTES = 50_000;
/** `flushRisk` (the server calls it about once a second) every so many quotes */
const FLUSH_EVERY = 5_000;
/** every fake fills at 100: stop 80 (SL 20), target 140; quotes stay inside (85, 115) so nothing exits or trails */
const FILL = 100;

export async function runPositionsBench(): Promise<BenchResult> {
  let closed = 0;
  let allClosedAt = 0;
  let allClosed: () => void = () => undefined;
  const closes = new Promise<void>((resolve) => {
    allClosed = resolve;
  });
  const sent: number[] = [];
  const random = seededRandom(20_261_124);
  const rig = await openFanoutRig({
    accounts: ACCOUNTS,
    broker: () => slowBroker(sent, random),
    // The engine clock runs 60× real time here: the runtime's 30 s fill timeout is kept at 30 s of real time, so a
    // slow broker answer is waited for as in production rather than sent again after half a second.
    fillTimeoutMs: 30_000 * 60,
    events: (event) => {
      if (event.kind !== 'trade-closed') return;
      closed += 1;
      if (closed === ACCOUNTS) {
        allClosedAt = performance.now();
        allClosed();
      }
    },
  });
  try {
    await rig.enterAll();
    const { runtime, scheduler } = rig;
    const positions = runtime.positions();
    const symbol = positions[0]?.symbol ?? '';
    const onSymbol = positions.filter((p) => p.symbol === symbol).length;

    // (1) quotes: a seeded walk inside (85, 115) on the 0.05 grid, made before the clock starts
    let x = 19_2026;
    let ltp = FILL;
    const quotes: Quote[] = [];
    const time = scheduler.now();
    for (let i = 0; i < QUOTES; i += 1) {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      const step = (((x >>> 0) % 11) - 5) * 0.05;
      ltp = Math.min(114.5, Math.max(85.5, Math.round((ltp + step) * 20) / 20));
      quotes.push({ symbol, time: time + i, bid: ltp - 0.05, ask: ltp + 0.05, ltp });
    }
    const cpuStart = process.cpuUsage();
    const started = performance.now();
    for (let i = 0; i < QUOTES; i += 1) {
      runtime.onQuote(quotes[i] as Quote);
      if ((i + 1) % FLUSH_EVERY === 0) await runtime.flushRisk();
    }
    const quoteSeconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuStart);
    const quoteCpuSeconds = (cpu.user + cpu.system) / 1e6;
    const stillOpen = runtime.positions().length;

    // (2) one quote through every stop
    const sentBefore = sent.length;
    const crossedAt = performance.now();
    runtime.onQuote({ symbol, time: scheduler.now(), bid: 78.95, ask: 79.05, ltp: 79 });
    const crossCpu = process.cpuUsage();
    await Promise.race([closes, new Promise((r) => setTimeout(r, 15_000))]);
    await runtime.idle();
    const exitsSent = sent.slice(sentBefore);
    const lastExitSent = exitsSent.length === 0 ? Number.NaN : Math.max(...exitsSent);
    const crossCpuMs = (() => {
      const used = process.cpuUsage(crossCpu);
      return (used.user + used.system) / 1000;
    })();
    const rows = (await rig.db.knex('trades').where({ status: 'closed' }).count({ n: '*' })) as Array<{
      n: number;
    }>;
    return {
      name: `positions: ${ACCOUNTS} open paper positions in ${ACCOUNTS} accounts, SQLite store`,
      figures: {
        'positions on the quoted contract': onSymbol,
        'quotes through the runtime': QUOTES,
        'position updates (quotes × positions)': QUOTES * onSymbol,
        'quotes/s (wall)': Math.round(QUOTES / quoteSeconds),
        'quotes/s (CPU)': Math.round(QUOTES / quoteCpuSeconds),
        'positions still open after the quotes': stillOpen,
        'exit orders sent': exitsSent.length,
        'stop quote → slowest exit sent (ms)': Number((lastExitSent - crossedAt).toFixed(1)),
        'stop quote → all closes persisted (ms)':
          allClosedAt > 0 ? Number((allClosedAt - crossedAt).toFixed(1)) : 'not all',
        'CPU, stop quote → all closes persisted (ms)': Number(crossCpuMs.toFixed(0)),
        'closed trades in the store': Number(rows[0]?.n ?? 0),
      },
      notes: [
        `Every position holds the contract the one signal bought, so each quote updates all ${onSymbol} of them; quotes move inside the stops, and flushRisk (the server's once-a-second write of moved stops and mark-to-market) runs every ${FLUSH_EVERY.toLocaleString('en-US')} quotes.`,
        'Then one quote at 79 crosses every stop (80): each account sells through its own broker fake (answering in 50–400 ms, filling at 100). Sent = the broker call began, after the order row was written. Persisted = the trade row closed and its event emitted.',
        "Targets: ≥ 20,000 quotes/s; every exit sent within 100 ms of the quote; every close persisted within 1 s of the brokers' answers (≤ 1,400 ms after the quote).",
      ],
    };
  } finally {
    await rig.close();
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(JSON.stringify(await runPositionsBench(), null, 2));
}
