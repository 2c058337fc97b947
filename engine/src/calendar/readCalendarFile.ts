// Node-only: kept out of the calendar index so the rest of the engine stays free of `node:` imports.
import { readFile } from 'node:fs/promises';
import { loadCalendarData } from './calendarData';
import type { LoadedCalendarData } from './calendarData';

/** Reads and validates a calendar JSON file; the error names the file when it is missing, not JSON, or invalid. */
export async function readCalendarFile(path: string, options: { now: number }): Promise<LoadedCalendarData> {
  const text = await readFile(path, 'utf8');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(`${path}: not valid JSON (${error instanceof Error ? error.message : String(error)})`, {
      cause: error,
    });
  }
  try {
    return loadCalendarData(json, options);
  } catch (error) {
    throw new Error(`${path}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}

/** The calendar file shipped with the engine (`engine/data/nse-calendar.json`), resolved from this source file. */
export const BUNDLED_CALENDAR_URL = new URL('../../data/nse-calendar.json', import.meta.url);
