import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { istDateTime } from './ist';
import {
  BUNDLED_CALENDAR_URL,
  BUNDLED_CONTRACTS_URL,
  readCalendarFile,
  readContractSpecsFile,
} from './readCalendarFile';

describe('readCalendarFile', () => {
  it('loads the bundled calendar with no warnings after Diwali 2026', async () => {
    const { data, warnings } = await readCalendarFile(fileURLToPath(BUNDLED_CALENDAR_URL), {
      now: istDateTime('2026-11-20', '10:00'),
    });
    expect(data.exchange).toBe('NSE');
    expect(warnings).toEqual([]);
  });

  it('names the file when it is not JSON or not valid', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'calendar-'));
    const notJson = join(dir, 'a.json');
    writeFileSync(notJson, '{ nope');
    await expect(readCalendarFile(notJson, { now: 0 })).rejects.toThrow(`${notJson}: not valid JSON`);
    const invalid = join(dir, 'b.json');
    writeFileSync(invalid, JSON.stringify({ exchange: 'NSE' }));
    await expect(readCalendarFile(invalid, { now: 0 })).rejects.toThrow(`${invalid}: invalid calendar data`);
  });

  it('loads the bundled contract specs and names a bad file', async () => {
    const specs = await readContractSpecsFile(fileURLToPath(BUNDLED_CONTRACTS_URL));
    expect(specs.underlyings.NIFTY?.tickSize).toBe(0.05);
    const dir = mkdtempSync(join(tmpdir(), 'contracts-'));
    const bad = join(dir, 'c.json');
    writeFileSync(bad, JSON.stringify({ underlyings: { NIFTY: { strikeStep: 50 } } }));
    await expect(readContractSpecsFile(bad)).rejects.toThrow(`${bad}: invalid contract specs`);
  });
});
