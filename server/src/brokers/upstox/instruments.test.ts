import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { niftyOptionRows } from '../../../../test/fakes/upstox/instrumentRows';
import { startFakeUpstox } from '../../../../test/fakes/upstox/server';
import type { FakeUpstox } from '../../../../test/fakes/upstox/server';
import {
  createDailyInstrumentIndex,
  createInstrumentIndex,
  fetchUpstoxInstruments,
  parseInstrumentMaster,
} from './instruments';

async function* chunks(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

let fake: FakeUpstox | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

describe('upstox instrument master', () => {
  it('keeps only NIFTY 50 options, with IST expiry dates and ticks in rupees', async () => {
    const rows = niftyOptionRows(['2026-12-01', '2026-12-08'], [24_000, 24_050]);
    const parsed = await parseInstrumentMaster(chunks(gzipSync(JSON.stringify(rows, null, 2)), 97));
    expect(parsed).toHaveLength(8);
    const first = parsed[0];
    expect(first).toEqual({
      token: expect.stringMatching(/^NSE_FO\|\d+$/),
      tradingSymbol: 'NIFTY 24000 CE 01 DEC 26',
      expiry: '2026-12-01',
      strike: 24_000,
      optionType: 'CE',
      lotSize: 65,
      tickSize: 0.05,
    });
    expect(parsed.every((i) => !i.tradingSymbol.startsWith('BANKNIFTY') && i.strike > 0)).toBe(true);
  });

  it('downloads complete.json.gz and maps canonical symbols to instrument keys both ways', async () => {
    fake = await startFakeUpstox();
    const instruments = await fetchUpstoxInstruments(
      `${fake.url}/market-quote/instruments/exchange/complete.json.gz`,
    );
    const index = createInstrumentIndex(instruments);
    const pe = index.bySymbol('NIFTY01DEC2624050PE');
    expect(pe?.tradingSymbol).toBe('NIFTY 24050 PE 01 DEC 26');
    expect(index.symbolOf(pe?.token ?? '')).toBe('NIFTY01DEC2624050PE');
    expect(index.bySymbol('NIFTY01DEC2625000CE')).toBeUndefined();
  });

  it('fails with a broker error when the master cannot be fetched', async () => {
    fake = await startFakeUpstox();
    await expect(
      fetchUpstoxInstruments(`${fake.url}/market-quote/instruments/exchange/missing.json.gz`),
    ).rejects.toMatchObject({
      kind: 'rejected',
    });
  });

  it('downloads once per IST day, retries after a failure and keeps the last good master meanwhile', async () => {
    let now = Date.parse('2026-11-24T08:30:00+05:30');
    let calls = 0;
    let fail = true;
    const rows = [await parseOne()];
    const load = createDailyInstrumentIndex({
      now: () => now,
      fetch: async () => {
        calls += 1;
        if (fail) throw new Error('down');
        return rows;
      },
    });
    await expect(load()).rejects.toThrow('down');
    fail = false;
    await load();
    await load();
    expect(calls).toBe(2);
    now += 24 * 3_600_000;
    fail = true;
    expect((await load()).bySymbol('NIFTY01DEC2624000CE')).toBeDefined();
    expect(calls).toBe(3);
    fail = false;
    await load();
    await load();
    expect(calls).toBe(4);
  });
});

async function parseOne() {
  const [first] = await parseInstrumentMaster(
    chunks(gzipSync(JSON.stringify(niftyOptionRows(['2026-12-01'], [24_000]))), 4096),
  );
  if (first === undefined) throw new Error('no row');
  return first;
}
