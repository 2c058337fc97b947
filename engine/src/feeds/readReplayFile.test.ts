import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readReplayFile } from './readReplayFile';

describe('readReplayFile', () => {
  it('reads a CSV file and names the file and line of a bad row', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'replay-'));
    const good = join(dir, 'good.csv');
    writeFileSync(good, 'timestamp,price\n1795412700000,24000\n');
    expect(await readReplayFile(good)).toEqual({
      kind: 'ticks',
      ticks: [{ time: 1795412700000, price: 24000, volume: 0 }],
      dropped: 0,
      firstDroppedLine: null,
    });
    const bad = join(dir, 'bad.csv');
    writeFileSync(bad, 'timestamp,price\n1795412700000,abc\n');
    await expect(readReplayFile(bad)).rejects.toThrow(`${bad} line 2: price "abc" is not a number`);
  });
});
