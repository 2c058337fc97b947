// The short version of `npm run bench:faults`: 100 sockets, REST polling and the engine's writes for 20 s on one
// SQLite database, with not one error response, dropped socket or "database is locked".
import { describe, expect, it } from 'vitest';
import { contentionProblems, runContention, scanLog, type ContentionReport } from './contention';

describe('database contention (short)', () => {
  it('serves 100 sockets and REST polling while the engine writes, without a single error', async () => {
    const report = await runContention({
      clients: 100,
      durationS: 20,
      processes: 1,
      traders: 5,
      restRate: 50,
      log: (m) => process.stdout.write(`contention: ${m}\n`),
    });
    process.stdout.write(`contention: ${JSON.stringify(report)}\n`);
    expect(contentionProblems(report)).toEqual([]);
    // It measured something: the polls were answered and the engine wrote signals and orders meanwhile.
    expect(report.restRequests).toBeGreaterThan(500);
    expect(report.engineWrites).toBeGreaterThan(0);
  });
});

describe('contentionProblems and scanLog', () => {
  const clean: ContentionReport = {
    clients: 10,
    connected: 10,
    durationS: 1,
    restRequests: 5,
    restNon2xx: 0,
    restErrors: 0,
    socketDisconnects: 0,
    lockedLines: 0,
    errorLines: 0,
    engineWrites: 0,
    integrity: 'ok',
  };

  it('names every count that is not zero', () => {
    expect(contentionProblems(clean)).toEqual([]);
    expect(contentionProblems({ ...clean, connected: 8, restNon2xx: 2, lockedLines: 1 })).toEqual([
      '2 sockets did not connect',
      'restNon2xx: 2',
      'lockedLines: 1',
    ]);
  });

  it('finds locked-database and error-level lines in a pino log', () => {
    const log = [
      '{"level":30,"msg":"listening"}',
      '{"level":50,"err":{"message":"SQLITE_BUSY: database is locked"}}',
      '{"level":40,"msg":"slow"}',
      '{"level":60,"msg":"fatal"}',
    ].join('\n');
    expect(scanLog(log)).toEqual({ lockedLines: 1, errorLines: 2 });
  });
});
