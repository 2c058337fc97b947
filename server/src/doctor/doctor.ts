// `npm run doctor`: every check once, in a fixed order, one line each — OK / WARN / FAIL, what was found and the fix.
// The checks run concurrently (the network ones each wait at most `timeoutMs`); the exit code is 1 only when a
// check FAILs, so a cron job or CI step can act on it while WARNs stay advice.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../config';
import { closeDatabase, isPostgresUrl, openDatabase, SQLITE_FILE_NAME, type Database } from '../db';
import { backupAgeCheck } from './backupAge';
import { brokerSessionsCheck } from './brokerSessions';
import { calendarCheck } from './calendar';
import { clockCheck } from './clock';
import { databaseCheck } from './database';
import { diskCheck } from './disk';
import { fileModesCheck, secretsCheck } from './fileModes';
import { egressIpCheck, operatorCheck } from './operator';
import { razorpayCheck } from './razorpay';
import { smtpCheck } from './smtp';
import type { CheckResult, DoctorCheck, DoctorContext } from './types';

export const DEFAULT_ENV_FILE = '/etc/optionpilot/env';

/** Every check, in report order. */
export function doctorChecks(): DoctorCheck[] {
  return [
    clockCheck,
    calendarCheck(),
    operatorCheck,
    egressIpCheck,
    databaseCheck,
    brokerSessionsCheck,
    backupAgeCheck,
    diskCheck,
    fileModesCheck,
    secretsCheck,
    smtpCheck,
    razorpayCheck,
  ];
}

export interface DoctorLine extends CheckResult {
  name: string;
}

/** Runs `checks` on `context`; a check that throws is reported as a FAIL of that check, never as a crash. */
export async function runChecks(
  checks: readonly DoctorCheck[],
  context: DoctorContext,
): Promise<DoctorLine[]> {
  return Promise.all(
    checks.map(async (check): Promise<DoctorLine> => {
      try {
        return { name: check.name, ...(await check.run(context)) };
      } catch (err) {
        return {
          name: check.name,
          status: 'FAIL',
          message: `the check itself failed: ${err instanceof Error ? err.message : String(err)}`,
          fix: 'read the message; report it if it looks like a bug',
        };
      }
    }),
  );
}

/** One report line: `WARN backup           no backup yet — fix: …`. */
export function formatLine(line: DoctorLine): string {
  const fix = line.fix === undefined ? '' : ` — fix: ${line.fix}`;
  return `${line.status.padEnd(4)} ${line.name.padEnd(16)} ${line.message}${fix}`;
}

/**
 * Opens the configured database without creating one: on SQLite a missing file means the server never started
 * (opening would leave an empty database behind), which the database check reports.
 */
function openExisting(config: DoctorContext['config']): { db?: Database; problem?: string } {
  if (!isPostgresUrl(config.databaseUrl) && !existsSync(join(config.dataDir, SQLITE_FILE_NAME))) {
    return { problem: `no SQLite database in ${config.dataDir} yet` };
  }
  try {
    return { db: openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl }) };
  } catch (err) {
    return { problem: `cannot open the database: ${err instanceof Error ? err.message : String(err)}` };
  }
}

export interface DoctorOptions {
  env: Record<string, string | undefined>;
  write: (line: string) => void;
  now?: number;
  clock?: () => number;
  timeoutMs?: number;
  envFile?: string;
  checks?: readonly DoctorCheck[];
}

/** The whole command: configuration, checks, report. Resolves with the exit code (0, or 1 when anything FAILs). */
export async function doctorMain(options: DoctorOptions): Promise<number> {
  let config: DoctorContext['config'];
  try {
    config = loadConfig(options.env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    options.write(
      formatLine({
        name: 'config',
        status: 'FAIL',
        message: err.message.replace(/\n\s*/g, ' '),
        fix: 'correct the variables named',
      }),
    );
    return 1;
  }
  const clock = options.clock ?? Date.now;
  const context: DoctorContext = {
    config,
    db: undefined,
    databaseProblem: undefined,
    now: options.now ?? clock(),
    clock,
    timeoutMs: options.timeoutMs ?? 3000,
    envFile: options.envFile ?? DEFAULT_ENV_FILE,
  };
  const checks = options.checks ?? doctorChecks();
  const early = await runChecks(
    checks.filter((c) => c.beforeDatabase),
    context,
  );
  const { db, problem } = openExisting(config);
  try {
    const late = await runChecks(
      checks.filter((c) => !c.beforeDatabase),
      { ...context, db, databaseProblem: problem },
    );
    const lines = checks.map(
      (c) => (c.beforeDatabase ? early : late).find((l) => l.name === c.name) as DoctorLine,
    );
    for (const line of lines) options.write(formatLine(line));
    const count = (status: CheckResult['status']) => lines.filter((l) => l.status === status).length;
    options.write(`${count('OK')} OK, ${count('WARN')} WARN, ${count('FAIL')} FAIL`);
    return count('FAIL') > 0 ? 1 : 0;
  } finally {
    if (db) await closeDatabase(db);
  }
}
