// A SQLite file whose every transaction adds one row to each of two tables, for backup tests: a copy that holds
// whole transactions only has equal counts.
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import BetterSqlite3 from 'better-sqlite3';
import { SQLITE_FILE_NAME } from '../db/knex';

/** Creates DATA_DIR's database file in WAL mode with `rows` pairs; the connection stays open for more writes. */
export function seedPairs(dataDir: string, rows: number): BetterSqlite3.Database {
  const db = new BetterSqlite3(join(dataDir, SQLITE_FILE_NAME));
  db.pragma('journal_mode = WAL');
  db.exec(
    'CREATE TABLE a (id INTEGER PRIMARY KEY, pad BLOB); CREATE TABLE b (id INTEGER PRIMARY KEY, pad BLOB)',
  );
  const pair = pairWriter(db);
  for (let i = 0; i < rows; i += 1) pair();
  return db;
}

export function pairWriter(db: BetterSqlite3.Database): () => void {
  const a = db.prepare('INSERT INTO a (pad) VALUES (randomblob(512))');
  const b = db.prepare('INSERT INTO b (pad) VALUES (randomblob(512))');
  return db.transaction(() => {
    a.run();
    b.run();
  });
}

export function counts(file: string): { a: number; b: number } {
  const db = new BetterSqlite3(file, { readonly: true });
  try {
    const one = (table: string) =>
      (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    return { a: one('a'), b: one('b') };
  } finally {
    db.close();
  }
}

/**
 * Keeps adding pairs to `file` from a worker thread (another connection, on another thread, like a running
 * server) until stopped. `written()` is the number of pairs committed so far.
 */
export function backgroundPairWriter(file: string): { written: () => number; stop: () => Promise<void> } {
  const shared = new Int32Array(new SharedArrayBuffer(8)); // [0] = stop flag, [1] = pairs written
  const source = `
    const { workerData } = require('node:worker_threads');
    const Database = require('better-sqlite3');
    const db = new Database(workerData.file);
    db.pragma('busy_timeout = 5000');
    const a = db.prepare('INSERT INTO a (pad) VALUES (randomblob(512))');
    const b = db.prepare('INSERT INTO b (pad) VALUES (randomblob(512))');
    const pair = db.transaction(() => { a.run(); b.run(); });
    while (Atomics.load(workerData.shared, 0) === 0) { pair(); Atomics.add(workerData.shared, 1, 1); }
    db.close();
  `;
  const worker = new Worker(source, { eval: true, workerData: { file, shared } });
  const exited = new Promise<void>((resolve, reject) => {
    worker.once('error', reject);
    worker.once('exit', () => resolve());
  });
  return {
    written: () => Atomics.load(shared, 1),
    stop: async () => {
      Atomics.store(shared, 0, 1);
      await exited;
    },
  };
}
