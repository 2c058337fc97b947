// Issue 12, defect 4: a restarted simulation used to start again from its seed at the wall clock, so engine time
// went backwards (closes before opens, lists out of order) and prices jumped through open positions' stops. Now
// the simulated market's last instant and index level are kept in engine_state: a restart resumes there.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '@optionpilot/server/app';
import { loadConfig } from '@optionpilot/server/config';
import { readEngineState } from '@optionpilot/server/db/index';
import { createLogger } from '@optionpilot/server/logger';

const dir = mkdtempSync(join(tmpdir(), 'optionpilot-sim-restart-'));
const servers: RunningServer[] = [];

afterAll(async () => {
  for (const server of servers) await server.close();
  rmSync(dir, { recursive: true, force: true });
});

async function start(): Promise<RunningServer> {
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dir,
    WEB_DIST_DIR: join(dir, 'no-web-build'),
    LOG_LEVEL: 'silent',
    // An hour of market per real minute: engine time runs far ahead of the wall clock.
    SIM_SPEED: '60',
    SIM_SEED: '20261124',
  });
  const server = await startServer(config, { logger: createLogger({ level: 'silent' }) });
  servers.push(server);
  return server;
}

async function tickAfter(server: RunningServer, after: number): Promise<{ time: number; price: number }> {
  for (let i = 0; i < 200; i += 1) {
    const tick = server.deps.trading.marketTick();
    if (tick !== null && Date.parse(tick.timestamp) > after)
      return { time: Date.parse(tick.timestamp), price: tick.price };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('no tick from the simulated feed');
}

describe('simulated market across a restart', () => {
  it('resumes from its last instant and index level: engine time never goes backwards, the price does not jump', async () => {
    const first = await start();
    const before = await tickAfter(first, Date.now() + 30_000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const last = await tickAfter(first, before.time);
    await first.close();
    servers.splice(servers.indexOf(first), 1);

    const saved = await readEngineStateOf(dir);
    expect(saved?.time).toBeGreaterThanOrEqual(last.time);

    const second = await start();
    const resumed = await tickAfter(second, 0);
    // The first tick after the restart is later than every tick before it (at 60× the old code restarted at the
    // wall clock, minutes of engine time earlier) and within a few of the last index level.
    expect(resumed.time).toBeGreaterThan(last.time);
    expect(Math.abs(resumed.price - (saved?.price ?? 0))).toBeLessThan(25);
  });
});

async function readEngineStateOf(dataDir: string): Promise<{ time: number; price: number } | undefined> {
  const { openDatabase, closeDatabase } = await import('@optionpilot/server/db/index');
  const db = openDatabase({ dataDir });
  try {
    return await readEngineState<{ time: number; price: number }>(db.knex, 'sim.market');
  } finally {
    await closeDatabase(db);
  }
}
