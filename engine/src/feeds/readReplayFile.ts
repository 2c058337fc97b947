// Node-only: kept out of the feeds index so the rest of the engine stays free of `node:` imports.
import { readFile } from 'node:fs/promises';
import { CsvParseError, parseCsvTicks } from './csvTicks';
import type { CsvKind } from './csvTicks';
import type { Tick } from '../core/types';

/**
 * Reads and fully validates a replay CSV (`FEED=replay:<file>`), so a bad row stops start-up instead of the replay
 * half-way; errors read `<path> line 7: price "abc" is not a number`. For files too big to hold, stream the lines
 * through `parseCsvLinesAsync` instead.
 */
export async function readReplayFile(path: string): Promise<{ kind: CsvKind; ticks: Tick[] }> {
  const text = await readFile(path, 'utf8');
  try {
    return parseCsvTicks(text);
  } catch (error) {
    if (error instanceof CsvParseError) throw new Error(`${path} ${error.message}`, { cause: error });
    throw error;
  }
}
