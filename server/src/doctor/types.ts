// What every doctor check takes and gives. A check is one small async function: it reads what it needs from the
// context, never throws for a finding (a finding is a WARN or FAIL result with the fix), and stays within its own
// short timeout so one unreachable service cannot hang the whole report.
import type { Config } from '../config';
import type { Database } from '../db';

export type CheckStatus = 'OK' | 'WARN' | 'FAIL';

export interface CheckResult {
  status: CheckStatus;
  /** what was found, one line */
  message: string;
  /** what the operator does about a WARN or FAIL, one line */
  fix?: string;
}

export interface DoctorContext {
  config: Config;
  /** the configured database, or undefined when it does not exist yet / cannot be opened (see `databaseProblem`) */
  db: Database | undefined;
  /** why `db` is undefined */
  databaseProblem: string | undefined;
  /** epoch ms the report is for */
  now: number;
  /** our clock for the NTP exchange (Date.now outside tests) */
  clock: () => number;
  /** timeout of each network check, ms */
  timeoutMs: number;
  /** the systemd env file, checked for its mode when present (deploy/optionpilot.service reads it) */
  envFile: string;
}

export interface DoctorCheck {
  /** short name printed in the report's second column */
  name: string;
  /** runs before the database is opened (opening narrows DATA_DIR's modes, which would hide what was found) */
  beforeDatabase?: boolean;
  run(context: DoctorContext): Promise<CheckResult>;
}

export const ok = (message: string): CheckResult => ({ status: 'OK', message });
export const warn = (message: string, fix: string): CheckResult => ({ status: 'WARN', message, fix });
export const fail = (message: string, fix: string): CheckResult => ({ status: 'FAIL', message, fix });
