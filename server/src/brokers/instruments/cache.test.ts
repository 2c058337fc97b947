import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { masterDayOf, nextRefreshAt, readCachedMaster, writeCachedMaster } from './cache';

const instrument = {
  token: '12345',
  tradingSymbol: 'NIFTY2610624000CE',
  expiry: '2026-01-06',
  strike: 24000,
  optionType: 'CE' as const,
  lotSize: 65,
  tickSize: 0.05,
};

describe('master day and refresh time', () => {
  it('keeps the previous day until 08:30 IST (03:00 UTC)', () => {
    expect(masterDayOf(Date.UTC(2026, 0, 6, 2, 59))).toBe('2026-01-05');
    expect(masterDayOf(Date.UTC(2026, 0, 6, 3, 0))).toBe('2026-01-06');
    expect(masterDayOf(Date.UTC(2026, 0, 6, 20, 0))).toBe('2026-01-06'); // 01:30 IST on the 7th
  });

  it('schedules the next 08:30 IST strictly after now', () => {
    expect(nextRefreshAt(Date.UTC(2026, 0, 6, 2, 0))).toBe(Date.UTC(2026, 0, 6, 3, 0));
    expect(nextRefreshAt(Date.UTC(2026, 0, 6, 3, 0))).toBe(Date.UTC(2026, 0, 7, 3, 0));
  });
});

describe('cached master files', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'op-instruments-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('round-trips a master in a file only its owner can read', async () => {
    await writeCachedMaster(dir, 'zerodha', { day: '2026-01-06', instruments: [instrument] });
    expect(await readCachedMaster(dir, 'zerodha')).toEqual({ day: '2026-01-06', instruments: [instrument] });
    expect((await stat(join(dir, 'instruments', 'zerodha.json'))).mode & 0o777).toBe(0o600);
    expect((await stat(join(dir, 'instruments'))).mode & 0o777).toBe(0o700);
    expect(await readCachedMaster(dir, 'upstox')).toBeUndefined();
  });

  it('treats a corrupt or foreign file as no cache', async () => {
    await writeCachedMaster(dir, 'zerodha', { day: '2026-01-06', instruments: [instrument] });
    const file = join(dir, 'instruments', 'zerodha.json');
    await writeFile(file, '{"day":"2026-01-06","instruments":[{"token":1}]}');
    expect(await readCachedMaster(dir, 'zerodha')).toBeUndefined();
    await writeFile(file, 'not json');
    expect(await readCachedMaster(dir, 'zerodha')).toBeUndefined();
    expect(await readFile(file, 'utf8')).toBe('not json');
  });
});
