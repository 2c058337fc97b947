// Group commit: writes that arrive in the same turn of the event loop are committed together, in one transaction,
// instead of one transaction each. On SQLite every transaction is serialised on the one connection and pays its
// own commit, so a signal fanned out to 1,000 accounts (each order persisted before its broker call) spent most of
// its time queueing for commits. Each write still resolves only after the commit that holds it — persist-before-
// send keeps its meaning — and runs in its own savepoint, so one failing write (a repeated intent key) rolls back
// alone and rejects only its own caller. Writes run in the order they were queued. With `workMany` a batch is first
// written whole, in a few multi-row statements; only if that fails is it written again one savepoint per item.
import type { Knex } from 'knex';

export interface GroupCommit<T, R> {
  /** queues a write; resolves with its result once the batch holding it has committed */
  write(item: T): Promise<R>;
}

interface Pending<T, R> {
  readonly item: T;
  readonly resolve: (value: R) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * `work` runs one item inside the batch's transaction (a savepoint of it). `maxBatch` bounds a transaction's size,
 * so a large fan-out commits in steps and the first callers are not held back by the last.
 */
export function createGroupCommit<T, R>(props: {
  knex: Knex;
  work: (trx: Knex.Transaction, item: T) => Promise<R>;
  /**
   * writes a whole batch at once (multi-row statements), returning each item's result in order; when it throws,
   * its savepoint is rolled back and the batch is written again item by item with `work`, so one bad item still
   * fails alone
   */
  workMany?: (trx: Knex.Transaction, items: readonly T[]) => Promise<R[]>;
  maxBatch?: number;
}): GroupCommit<T, R> {
  const maxBatch = props.maxBatch ?? 100;
  let queue: Pending<T, R>[] = [];
  let scheduled = false;
  let running: Promise<void> = Promise.resolve();

  async function commit(batch: Pending<T, R>[]): Promise<void> {
    const outcomes: Array<{ ok: true; value: R } | { ok: false; error: unknown }> = [];
    try {
      await props.knex.transaction(async (trx) => {
        const { workMany } = props;
        if (workMany !== undefined) {
          try {
            const items = batch.map((pending) => pending.item);
            const values = await trx.transaction(async (savepoint) => {
              const written = await workMany(savepoint, items);
              // Checked inside the savepoint: a short answer rolls the batch back before it is written again.
              if (written.length !== items.length)
                throw new Error('group commit: a result per item expected');
              return written;
            });
            outcomes.push(...values.map((value) => ({ ok: true as const, value })));
            return;
          } catch {
            // Rolled back to the savepoint: one item at a time below tells which one failed.
          }
        }
        for (const { item } of batch) {
          try {
            const value = await trx.transaction((savepoint) => props.work(savepoint, item));
            outcomes.push({ ok: true, value });
          } catch (error) {
            outcomes.push({ ok: false, error });
          }
        }
      });
    } catch (error) {
      // The commit itself failed: nothing of the batch is stored.
      for (const pending of batch) pending.reject(error);
      return;
    }
    batch.forEach((pending, i) => {
      const outcome = outcomes[i];
      if (outcome?.ok === true) pending.resolve(outcome.value);
      else pending.reject(outcome?.error ?? new Error('group commit: write lost'));
    });
  }

  function flush(): void {
    scheduled = false;
    while (queue.length > 0) {
      const batch = queue.slice(0, maxBatch);
      queue = queue.slice(maxBatch);
      // One batch at a time: the next waits for the previous commit (SQLite has one writer anyway).
      running = running.then(() => commit(batch));
    }
  }

  return {
    write(item) {
      return new Promise<R>((resolve, reject) => {
        queue.push({ item, resolve, reject });
        if (!scheduled) {
          scheduled = true;
          setImmediate(flush);
        }
      });
    },
  };
}
