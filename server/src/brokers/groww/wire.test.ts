import { describe, expect, it } from 'vitest';
import { growwReference } from './broker';
import { formatGrowwTime, growwOrderSchema, growwStatus, growwTime, toSnapshot } from './wire';

describe('Groww wire', () => {
  it('maps Groww order statuses to the engine’s, the fill deciding between accepted and partly filled', () => {
    for (const live of ['NEW', 'ACKED', 'OPEN', 'APPROVED', 'TRIGGER_PENDING', 'MODIFICATION_REQUESTED']) {
      expect(growwStatus(live, 0)).toBe('ACCEPTED');
      expect(growwStatus(live, 65)).toBe('PARTIALLY_FILLED');
    }
    expect(growwStatus('CANCELLATION_REQUESTED', 0)).toBe('ACCEPTED');
    expect(growwStatus('EXECUTED', 65)).toBe('FILLED');
    expect(growwStatus('completed', 65)).toBe('FILLED');
    expect(growwStatus('REJECTED', 0)).toBe('REJECTED');
    expect(growwStatus('FAILED', 0)).toBe('REJECTED');
    expect(growwStatus('CANCELLED', 30)).toBe('CANCELLED');
    expect(growwStatus(undefined, 0)).toBe('ACCEPTED');
  });

  it('reads IST wall-clock times and UTC `Z` times, and writes IST back', () => {
    expect(growwTime('2026-11-24T10:15:30')).toBe(Date.parse('2026-11-24T10:15:30+05:30'));
    expect(growwTime('2019-08-24T14:15:22Z')).toBe(Date.parse('2019-08-24T14:15:22Z'));
    expect(growwTime('24-Nov-2026')).toBeUndefined();
    expect(growwTime(null)).toBeUndefined();
    const t = Date.parse('2026-11-24T04:45:30Z');
    expect(formatGrowwTime(t)).toBe('2026-11-24T10:15:30');
    expect(growwTime(formatGrowwTime(t))).toBe(t);
  });

  it('turns an order row into a snapshot carrying the client order id from order_reference_id', () => {
    const row = growwOrderSchema.parse({
      groww_order_id: 'GMK1',
      order_status: 'CANCELLED',
      remark: 'Cancelled by user',
      quantity: 130,
      price: 120.5,
      filled_quantity: 65,
      average_fill_price: 120.25,
      exchange_time: '2026-11-24T10:15:30',
      order_reference_id: growwReference('OPALGO', 'OP-mwwuxyva-000-i2w'),
      trigger_price: null,
    });
    const snapshot = toSnapshot(row, 1);
    expect(snapshot).toMatchObject({
      brokerOrderId: 'GMK1',
      status: 'CANCELLED',
      filledQty: 65,
      avgPrice: 120.25,
      reason: 'Cancelled by user',
      time: Date.parse('2026-11-24T10:15:30+05:30'),
    });
    expect(snapshot.clientOrderId).toBe('OP-mwwuxyva-000-i2w');
    const untagged = toSnapshot(growwOrderSchema.parse({ groww_order_id: 'GMK2', order_status: 'OPEN' }), 7);
    expect(untagged).toEqual({
      brokerOrderId: 'GMK2',
      status: 'ACCEPTED',
      filledQty: 0,
      avgPrice: 0,
      time: 7,
    });
  });
});
