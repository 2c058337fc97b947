// Node-only: kept out of the calendar index so the rest of the engine stays free of `node:` imports.
import { readFile } from 'node:fs/promises';
import { loadCalendarData } from './calendarData';
import type { LoadedCalendarData } from './calendarData';
import { parseContractSpecs } from './contractSpecs';
import type { ContractSpecs } from './contractSpecs';

async function readJsonFile(path: string): Promise<unknown> {
  const text = await readFile(path, 'utf8');
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Error(`${path}: not valid JSON (${error instanceof Error ? error.message : String(error)})`, {
      cause: error,
    });
  }
}

function named<T>(path: string, parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    throw new Error(`${path}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}

/** Reads and validates a calendar JSON file; the error names the file when it is missing, not JSON, or invalid. */
export async function readCalendarFile(path: string, options: { now: number }): Promise<LoadedCalendarData> {
  const json = await readJsonFile(path);
  return named(path, () => loadCalendarData(json, options));
}

/** Reads and validates a contract-spec JSON file (expiry weekdays, lot sizes, tick size). */
export async function readContractSpecsFile(path: string): Promise<ContractSpecs> {
  const json = await readJsonFile(path);
  return named(path, () => parseContractSpecs(json));
}

/** The calendar file shipped with the engine (`engine/data/nse-calendar.json`), resolved from this source file. */
export const BUNDLED_CALENDAR_URL = new URL('../../data/nse-calendar.json', import.meta.url);

/** The contract-spec file shipped with the engine (`engine/data/nse-contracts.json`). */
export const BUNDLED_CONTRACTS_URL = new URL('../../data/nse-contracts.json', import.meta.url);
