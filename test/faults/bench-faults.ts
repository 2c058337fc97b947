// `npm run bench:faults [-- --clients 1000 --duration 300 --processes 4 --traders 20 --rest-rate 200]`: the
// database-contention run at full size (contention.ts): sockets, REST polling and engine writes on one SQLite
// database for five minutes. Prints the counts and exits 1 when any that must be zero is not.
import { parseArgs } from 'node:util';
import { contentionProblems, runContention } from './contention';

const USAGE =
  'usage: npm run bench:faults [-- --clients N] [--duration S] [--processes P] [--traders T] [--rest-rate R]';
const started = Date.now();

function positive(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) {
    process.stderr.write(`bench:faults: --${name} must be a whole number ≥ 1\n${USAGE}\n`);
    process.exit(2);
  }
  return n;
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      clients: { type: 'string' },
      duration: { type: 'string' },
      processes: { type: 'string' },
      traders: { type: 'string' },
      'rest-rate': { type: 'string' },
      help: { type: 'boolean' },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const report = await runContention({
    clients: positive('clients', values.clients, 1000),
    durationS: positive('duration', values.duration, 300),
    processes: positive('processes', values.processes, 4),
    traders: positive('traders', values.traders, 20),
    restRate: positive('rest-rate', values['rest-rate'], 200),
    log: (m) => process.stderr.write(`[bench:faults ${((Date.now() - started) / 1000).toFixed(0)} s] ${m}\n`),
  });
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  const problems = contentionProblems(report);
  process.stdout.write(
    problems.length === 0 ? 'bench:faults: no errors\n' : `bench:faults: ${problems.join('; ')}\n`,
  );
  return problems.length === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`bench:faults failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
