// Node-only: kept out of the feeds index so the rest of the engine stays free of `node:` imports.
import { readFile } from 'node:fs/promises';
import { CsvParseError, parseCsvTicks } from './csvTicks';
import type { CsvKind, CsvTickParserOptions } from './csvTicks';
import type { Tick } from '../core/types';

/**
 * Reads and fully validates a replay CSV (`FEED=replay:<file>`), so a bad row stops start-up instead of the replay
 * half-way; errors read `<path> line 7: price "abc" is not a number`. A row earlier than the one before is dropped
 * and counted, as the live feed drops an out-of-order tick (`strict` refuses the file instead). For files too big to hold, stream the lines
 * through `parseCsvLinesAsync` instead.
 */
export async function readReplayFile(
  path: string,
  options: CsvTickParserOptions = {},
): Promise<{ kind: CsvKind; ticks: Tick[]; dropped: number; firstDroppedLine: number | null }> {
  const text = await readFile(path, 'utf8');
  try {
    return parseCsvTicks(text, options);
  } catch (error) {
    if (error instanceof CsvParseError) throw new Error(`${path} ${error.message}`, { cause: error });
    throw error;
  }
}
