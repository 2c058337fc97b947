// The on-disk copy of each broker's instrument master: one JSON file per broker and master day under
// DATA_DIR/instruments (0600, the directory 0700), so a restart does not download again and a failed download
// can fall back to the last good copy.
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { istDate } from '@optionpilot/engine';
import { z } from 'zod';
import type { BrokerInstrument, BrokerType } from '../types';

/** Brokers publish the day's master early in the morning; we take it at 08:30 IST (03:00 UTC). */
export const MASTER_REFRESH_IST_MINUTES = 8 * 60 + 30;

/** The IST date whose master is current at `now`: before 08:30 IST it is still the previous day's. */
export function masterDayOf(now: number): string {
  return istDate(now - MASTER_REFRESH_IST_MINUTES * 60_000);
}

/** The next 08:30 IST strictly after `now`. */
export function nextRefreshAt(now: number): number {
  const dayMs = 86_400_000;
  // 08:30 IST is 03:00 UTC.
  const todayAt = Math.floor(now / dayMs) * dayMs + 3 * 3_600_000;
  return todayAt > now ? todayAt : todayAt + dayMs;
}

const instrumentSchema = z.object({
  token: z.string(),
  tradingSymbol: z.string(),
  expiry: z.string(),
  strike: z.number(),
  optionType: z.enum(['CE', 'PE']),
  lotSize: z.number().int().positive(),
  tickSize: z.number().positive(),
});
const cacheFileSchema = z.object({ day: z.string(), instruments: z.array(instrumentSchema) });

export interface CachedMaster {
  /** the master day the file was downloaded for */
  day: string;
  instruments: BrokerInstrument[];
}

const dirOf = (dataDir: string) => join(dataDir, 'instruments');
const fileOf = (dataDir: string, broker: BrokerType) => join(dirOf(dataDir), `${broker}.json`);

/** The cached master of a broker, or undefined when there is none or it cannot be read. */
export async function readCachedMaster(
  dataDir: string,
  broker: BrokerType,
): Promise<CachedMaster | undefined> {
  let text: string;
  try {
    text = await readFile(fileOf(dataDir, broker), 'utf8');
  } catch {
    return undefined;
  }
  try {
    const parsed = cacheFileSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Writes the master atomically (temp file + rename) with owner-only permissions. */
export async function writeCachedMaster(
  dataDir: string,
  broker: BrokerType,
  master: CachedMaster,
): Promise<void> {
  await mkdir(dirOf(dataDir), { recursive: true, mode: 0o700 });
  const target = fileOf(dataDir, broker);
  const temp = `${target}.${process.pid}.tmp`;
  await writeFile(temp, JSON.stringify(master), { mode: 0o600 });
  await chmod(temp, 0o600);
  await rename(temp, target);
}
