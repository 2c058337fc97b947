// Command-line options of `npm run bench:live` (pure: no I/O, so the parsing rules are unit-tested).

export type Phase = 'product' | 'rest' | 'baseline';
export const ALL_PHASES: readonly Phase[] = ['product', 'rest', 'baseline'];

export interface BenchOptions {
  /** Socket.IO clients in each socket phase (product and baseline) */
  clients: number;
  /** child processes the clients are spread over */
  processes: number;
  /** measured seconds of each socket phase (600 = the 10-minute memory soak) */
  durationS: number;
  /** seconds after the last client connected before latency is recorded (connection storm settles) */
  warmupS: number;
  /** measured seconds per REST route; 0 skips the REST phase */
  restSeconds: number;
  /** fixed request rate of the REST phase (requests/s) */
  restRate: number;
  /** users the clients log in as (argon2 is slow: a handful, many sockets per user) */
  users: number;
  /** which phases run, in the order product → rest → baseline */
  phases: Phase[];
  /**
   * nodes of the cluster phase: ≥ 2 adds, after the product (and REST) phase, the same clients spread round-robin
   * over that many nodes on PostgreSQL + Redis, compared with the single node; 1 = no cluster phase
   */
  nodes: number;
  /**
   * rounds of the product and baseline phases, interleaved (P B, B P, P B, …) with both servers up throughout:
   * slow drift of a shared machine then falls on both sides alike; 1 = each phase once, product first
   */
  rounds: number;
  /** LOG_LEVEL of the product server (`info` is the shipped default: one access-log line per request) */
  logLevel: string;
  /** print the results as one JSON object instead of tables */
  json: boolean;
  /** run the product server with `--cpu-prof` and keep the profile (for finding where the time goes) */
  cpuProf: boolean;
  help: boolean;
}

export const DEFAULT_OPTIONS: BenchOptions = {
  clients: 1000,
  processes: 4,
  durationS: 60,
  warmupS: 5,
  restSeconds: 20,
  restRate: 2000,
  users: 4,
  phases: [...ALL_PHASES],
  nodes: 1,
  rounds: 1,
  logLevel: 'info',
  json: false,
  cpuProf: false,
  help: false,
};

/** The servers the cluster phase uses when the environment names none (as test/scaleout). */
export const DEFAULT_DATABASE_SERVER = 'postgres://postgres@127.0.0.1:5432/test';
export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

export const USAGE = `Usage: npm run bench:live -- [options]

  --clients N         Socket.IO clients per socket phase (default ${DEFAULT_OPTIONS.clients})
  --processes P       child processes the clients are spread over (default ${DEFAULT_OPTIONS.processes})
  --duration S        measured seconds per socket phase (default ${DEFAULT_OPTIONS.durationS}; 600 = memory soak)
  --warmup S          seconds after all clients connected before recording (default ${DEFAULT_OPTIONS.warmupS})
  --rest-seconds S    measured seconds per REST route, 0 = no REST phase (default ${DEFAULT_OPTIONS.restSeconds})
  --rest-rate R       fixed REST request rate in requests/s (default ${DEFAULT_OPTIONS.restRate})
  --users U           users the clients sign in as (default ${DEFAULT_OPTIONS.users})
  --phases LIST       comma-separated subset of product,rest,baseline (default all)
  --nodes N           N ≥ 2: after the single-node product phase, run the same clients round-robin over
                      N nodes on PostgreSQL + Redis and compare p99 (default ${DEFAULT_OPTIONS.nodes}: single node only);
                      PostgreSQL: TEST_DATABASE_URL, else DATABASE_URL, else ${DEFAULT_DATABASE_SERVER}
                      Redis: TEST_REDIS_URL, else ${DEFAULT_REDIS_URL}
  --rounds R          R ≥ 2: run the product and baseline phases R times each, interleaved (P B, B P, …)
                      with both servers up, and judge p99 over every round's samples (default ${DEFAULT_OPTIONS.rounds})
  --log-level LEVEL   LOG_LEVEL of the product server (default ${DEFAULT_OPTIONS.logLevel})
  --json              print one JSON object instead of tables
  --cpu-prof          profile the product server (V8 --cpu-prof; the .cpuprofile path is printed)
  --help              this text
`;

/** A command line the tool cannot run with; the message says which option and why. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

type IntOption =
  | 'clients'
  | 'processes'
  | 'durationS'
  | 'warmupS'
  | 'restSeconds'
  | 'restRate'
  | 'users'
  | 'nodes'
  | 'rounds';

const INT_OPTIONS: Record<string, { key: IntOption; min: number; max: number }> = {
  '--clients': { key: 'clients', min: 1, max: 20_000 },
  '--processes': { key: 'processes', min: 1, max: 64 },
  '--duration': { key: 'durationS', min: 1, max: 3600 },
  '--warmup': { key: 'warmupS', min: 0, max: 600 },
  '--rest-seconds': { key: 'restSeconds', min: 0, max: 600 },
  '--rest-rate': { key: 'restRate', min: 1, max: 100_000 },
  '--users': { key: 'users', min: 1, max: 50 },
  '--nodes': { key: 'nodes', min: 1, max: 8 },
  '--rounds': { key: 'rounds', min: 1, max: 50 },
};

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function parseInteger(flag: string, raw: string, min: number, max: number): number {
  if (!/^\d+$/.test(raw)) throw new UsageError(`${flag} needs a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max)
    throw new UsageError(`${flag} must be between ${min} and ${max}, got ${value}`);
  return value;
}

function parsePhases(raw: string): Phase[] {
  const names = raw
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  if (names.length === 0) throw new UsageError('--phases needs at least one of product,rest,baseline');
  for (const name of names) {
    if (!(ALL_PHASES as readonly string[]).includes(name)) {
      throw new UsageError(`--phases: unknown phase "${name}" (use product, rest, baseline)`);
    }
  }
  // Always run in the fixed order, whatever order was typed: the product must be up before REST.
  return ALL_PHASES.filter((p) => names.includes(p));
}

/** Parses `argv` (without node and the script) into options; `--flag value` and `--flag=value` both work. */
export function parseBenchArgs(argv: readonly string[]): BenchOptions {
  const options: BenchOptions = { ...DEFAULT_OPTIONS, phases: [...DEFAULT_OPTIONS.phases] };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] ?? '';
    const eq = arg.indexOf('=');
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    const inline = eq > 0 ? arg.slice(eq + 1) : undefined;
    const value = (): string => {
      if (inline !== undefined) return inline;
      const next = argv[i + 1];
      if (next === undefined || next.startsWith('--')) throw new UsageError(`${flag} needs a value`);
      i += 1;
      return next;
    };
    const intOption = INT_OPTIONS[flag];
    if (intOption) {
      options[intOption.key] = parseInteger(flag, value(), intOption.min, intOption.max);
    } else if (flag === '--phases') {
      options.phases = parsePhases(value());
    } else if (flag === '--log-level') {
      const level = value();
      if (!LOG_LEVELS.includes(level))
        throw new UsageError(`--log-level must be one of ${LOG_LEVELS.join(', ')}`);
      options.logLevel = level;
    } else if (flag === '--json' || flag === '--cpu-prof' || flag === '--help' || flag === '-h') {
      if (inline !== undefined) throw new UsageError(`${flag} takes no value`);
      if (flag === '--json') options.json = true;
      else if (flag === '--cpu-prof') options.cpuProf = true;
      else options.help = true;
    } else {
      throw new UsageError(`unknown option "${arg}" (see --help)`);
    }
  }
  if (options.processes > options.clients) {
    throw new UsageError(`--processes (${options.processes}) cannot exceed --clients (${options.clients})`);
  }
  if (options.nodes > 1 && !options.phases.includes('product')) {
    throw new UsageError(
      `--nodes ${options.nodes} compares the cluster with the single-node product phase: include product in --phases`,
    );
  }
  if (options.rounds > 1 && !(options.phases.includes('product') && options.phases.includes('baseline'))) {
    throw new UsageError(
      `--rounds ${options.rounds} interleaves the product and baseline phases: include both in --phases`,
    );
  }
  if (options.nodes > options.clients) {
    throw new UsageError(`--nodes (${options.nodes}) cannot exceed --clients (${options.clients})`);
  }
  if (options.users > options.clients) options.users = options.clients;
  return options;
}

/** The servers of the cluster phase: TEST_DATABASE_URL, else DATABASE_URL, else the local default; likewise Redis. */
export function clusterServers(env: Readonly<Record<string, string | undefined>>): {
  databaseServerUrl: string;
  redisUrl: string;
} {
  return {
    databaseServerUrl: env.TEST_DATABASE_URL || env.DATABASE_URL || DEFAULT_DATABASE_SERVER,
    redisUrl: env.TEST_REDIS_URL || DEFAULT_REDIS_URL,
  };
}

/** Splits `total` items over `parts` as evenly as possible (the first parts get the remainder). */
export function spread(total: number, parts: number): number[] {
  const base = Math.floor(total / parts);
  const extra = total % parts;
  return Array.from({ length: parts }, (_, i) => base + (i < extra ? 1 : 0));
}

/** File descriptors one process needs for `sockets` connections, plus a margin for the runtime's own. */
export function fdsNeeded(sockets: number): number {
  return sockets + 128;
}

/**
 * The fewest client processes (≥ `requested`) such that none needs more descriptors than `softLimit`; null when
 * even one socket per process would not fit.
 */
export function processesForFdLimit(clients: number, requested: number, softLimit: number): number | null {
  const perProcess = softLimit - fdsNeeded(0);
  if (perProcess < 1) return null;
  return Math.min(clients, Math.max(requested, Math.ceil(clients / perProcess)));
}
