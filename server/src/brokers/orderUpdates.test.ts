import { asyncScheduler, Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { algoOrderTag } from './orderTag';
import { pushedOrderUpdates$, type OrderStreamEvent } from './orderUpdates';

interface Row {
  id: string;
  tag: string;
  status: 'ACCEPTED' | 'FILLED';
  filled: number;
}

const TAG = algoOrderTag('OP', 'OP-mwwuxyva-000-a01', 20);

describe('pushedOrderUpdates$', () => {
  it('never passes a state older than one already passed: a read that started before a push answers after it', async () => {
    const events$ = new Subject<OrderStreamEvent<Row>>();
    let answerRead: (rows: Row[]) => void = () => undefined;
    const updates = pushedOrderUpdates$<Row>({
      events$,
      orderBook: () => new Promise((resolve) => (answerRead = resolve)),
      tagOf: (row) => row.tag,
      toSnapshot: (row, now) => ({
        brokerOrderId: row.id,
        status: row.status,
        filledQty: row.filled,
        avgPrice: row.filled > 0 ? 121 : 0,
        time: now,
      }),
      now: () => 0,
      scheduler: asyncScheduler,
      pollIntervalMs: 60_000,
    });
    const seen: string[] = [];
    const subscription = updates.subscribe((u) => seen.push(`${u.status}/${u.filledQty}`));
    events$.next({ type: 'down' }); // the start-up read begins and takes its time
    await new Promise((r) => setTimeout(r, 10));
    events$.next({ type: 'up' });
    events$.next({ type: 'order', row: { id: 'G1', tag: TAG, status: 'ACCEPTED', filled: 0 } });
    events$.next({ type: 'order', row: { id: 'G1', tag: TAG, status: 'FILLED', filled: 65 } });
    answerRead([{ id: 'G1', tag: TAG, status: 'ACCEPTED', filled: 0 }]); // stale by now
    await new Promise((r) => setTimeout(r, 10));
    events$.next({ type: 'order', row: { id: 'G1', tag: TAG, status: 'FILLED', filled: 65 } }); // a repeat
    subscription.unsubscribe();
    expect(seen).toEqual(['ACCEPTED/0', 'FILLED/65']);
  });
});
