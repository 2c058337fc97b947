import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createBrokerRegistry } from '../registry';
import { fakeBrokerModule, type FakeBrokerModule } from '../testing/fakeBrokerModule';
import type { BrokerInstrument } from '../types';
import { readCachedMaster, writeCachedMaster } from './cache';
import { createInstrumentService, type InstrumentService } from './service';

// 11:30 IST, Tuesday 6 Jan 2026: today's master day is 2026-01-06.
const NOW = Date.UTC(2026, 0, 6, 6, 0);
const endpoints = {
  apiRoot: 'http://127.0.0.1:1',
  loginUrl: 'http://127.0.0.1:1/l',
  wsRoot: 'ws://127.0.0.1:1',
};

const option = (strike: number, optionType: 'CE' | 'PE', lotSize = 65): BrokerInstrument => ({
  token: `tok-${strike}-${optionType}`,
  tradingSymbol: `NIFTY26106${strike}${optionType}`,
  expiry: '2026-01-06',
  strike,
  optionType,
  lotSize,
  tickSize: 0.05,
});

describe('instrument service', () => {
  let dir: string;
  let fake: FakeBrokerModule;
  let warnings: Array<Record<string, unknown>>;
  let service: InstrumentService;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'op-master-'));
    warnings = [];
    const registry = createBrokerRegistry({
      endpoints: { zerodha: endpoints },
      algoTag: 'TAG',
      now: () => NOW,
      factories: [
        {
          type: 'zerodha',
          create: (c) => {
            fake = fakeBrokerModule(c);
            return fake;
          },
        },
      ],
    });
    service = createInstrumentService({
      registry,
      dataDir: dir,
      now: () => NOW,
      logger: {
        info: () => undefined,
        warn: (obj: object) => {
          warnings.push({ ...obj });
        },
        error: () => undefined,
      },
      engine: { strikeStep: 50, weeklyExpiry: (d) => d, lotSize: () => 65 },
      retryMs: 20,
    });
  });
  afterEach(async () => {
    service.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('downloads a missing master at start, caches it and maps canonical symbols to broker tokens', async () => {
    fake.instruments = [option(24000, 'CE'), option(24000, 'PE'), option(24050, 'CE')];
    await service.start();
    expect(fake.downloads).toBe(1);
    expect(service.instrumentOf('zerodha', 'NIFTY06JAN2624000PE')?.token).toBe('tok-24000-PE');
    expect(service.instrumentOf('zerodha', 'NIFTY06JAN2624100CE')).toBeUndefined();
    expect(service.instrumentOf('zerodha', 'BANKNIFTY06JAN2624000PE')).toBeUndefined();
    expect(service.instrumentOf('upstox', 'NIFTY06JAN2624000PE')).toBeUndefined();
    expect((await readCachedMaster(dir, 'zerodha'))?.day).toBe('2026-01-06');
    expect(warnings).toEqual([]);
  });

  it("uses today's cache without downloading, and downloads over a stale one", async () => {
    await writeCachedMaster(dir, 'zerodha', { day: '2026-01-06', instruments: [option(24000, 'CE')] });
    await service.start();
    expect(fake.downloads).toBe(0);
    expect(service.instrumentOf('zerodha', 'NIFTY06JAN2624000CE')?.token).toBe('tok-24000-CE');

    service.stop();
    await writeCachedMaster(dir, 'zerodha', { day: '2026-01-05', instruments: [option(24000, 'CE')] });
    fake.instruments = [option(24500, 'CE')];
    await service.start();
    expect(fake.downloads).toBe(1);
    expect(service.instrumentOf('zerodha', 'NIFTY06JAN2624500CE')?.token).toBe('tok-24500-CE');
  });

  it('keeps trading on the last cached master when the download fails', async () => {
    await writeCachedMaster(dir, 'zerodha', { day: '2026-01-05', instruments: [option(24000, 'CE')] });
    fake.instruments = () => {
      throw new Error('download failed');
    };
    await service.start();
    expect(fake.downloads).toBe(1);
    expect(service.instrumentOf('zerodha', 'NIFTY06JAN2624000CE')?.token).toBe('tok-24000-CE');
    expect(warnings.some((w) => w.cachedDay === '2026-01-05')).toBe(true);
  });

  it('downloads again with backoff after a failed download until the master is in', async () => {
    let failures = 2;
    fake.instruments = () => {
      if (failures > 0) {
        failures -= 1;
        throw new Error('broker down');
      }
      return [option(24000, 'CE')];
    };
    await service.start();
    expect(service.instrumentOf('zerodha', 'NIFTY06JAN2624000CE')).toBeUndefined();
    await vi.waitFor(() =>
      expect(service.instrumentOf('zerodha', 'NIFTY06JAN2624000CE')?.token).toBe('tok-24000-CE'),
    );
    expect(fake.downloads).toBe(3);
    expect(warnings.filter((w) => w.retryInMs !== undefined).map((w) => w.retryInMs)).toEqual([20, 40]);
  });

  it("warns on a lot-size mismatch and sizes orders by the master's lot", async () => {
    fake.instruments = [option(24000, 'CE', 75), option(24050, 'CE', 75)];
    await service.start();
    expect(warnings).toContainEqual(expect.objectContaining({ kind: 'lot_size', master: 75, engine: 65 }));
    expect(service.lotSizeOf('zerodha', 'NIFTY06JAN2624000CE')).toBe(75);
    // A contract the master does not list falls back to the engine's lot size for its expiry.
    expect(service.lotSizeOf('zerodha', 'NIFTY06JAN2625000CE')).toBe(65);
    expect(service.lotSizeOf('zerodha', 'not-a-symbol')).toBeUndefined();
  });
});
